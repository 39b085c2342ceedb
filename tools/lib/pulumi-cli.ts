// Finding the pulumi CLI for the Automation API, in this order:
//   1. `--pulumi <path>` (the binary, or a directory holding it or holding bin/pulumi)
//   2. `pulumi` on PATH
//   3. `$PULUMI_HOME/bin/pulumi`, then `~/.pulumi/bin/pulumi` (where the official installer puts it)
// `PulumiCommand.get` wants a root with `bin/pulumi` in it; for a binary elsewhere a temporary
// root with a symlink is made (the CLI resolves the link to find its bundled plugins). The
// binary's directory is also put first on PATH for the CLI, so that plugins installed beside it
// (pulumi-language-nodejs, pulumi-resource-pulumi-nodejs) are found.
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, symlink } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";

export interface PulumiLocation {
  /** Absolute path of the pulumi binary. */
  binary: string;
  /** How it was found, for messages. */
  source: "--pulumi" | "PATH" | "PULUMI_HOME" | "~/.pulumi";
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** Where the CLI is, or an error that lists every place looked at. */
export function locatePulumi(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): PulumiLocation {
  if (flag) {
    const p = resolve(flag);
    for (const candidate of [p, join(p, "pulumi"), join(p, "bin", "pulumi")]) {
      if (isFile(candidate)) return { binary: candidate, source: "--pulumi" };
    }
    throw new Error(
      `--pulumi ${flag}: no pulumi binary there (looked at it, ${flag}/pulumi, ${flag}/bin/pulumi)`,
    );
  }
  const looked: string[] = [];
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, "pulumi");
    if (isFile(candidate)) return { binary: resolve(candidate), source: "PATH" };
  }
  looked.push("PATH");
  if (env.PULUMI_HOME) {
    const candidate = join(env.PULUMI_HOME, "bin", "pulumi");
    if (isFile(candidate)) return { binary: candidate, source: "PULUMI_HOME" };
    looked.push(candidate);
  }
  const home = join(homedir(), ".pulumi", "bin", "pulumi");
  if (isFile(home)) return { binary: home, source: "~/.pulumi" };
  looked.push(home);
  throw new Error(
    `the pulumi CLI was not found (looked on ${looked.join(", ")}); install it, put it on PATH or pass --pulumi <path>`,
  );
}

/** A root such that `<root>/bin/pulumi` is the binary, as `PulumiCommand.get({root})` wants. */
export async function pulumiRoot(binary: string): Promise<string> {
  if (basename(dirname(binary)) === "bin" && basename(binary) === "pulumi") return dirname(dirname(binary));
  const root = await mkdtemp(join(tmpdir(), "mediahost-pulumi-root-"));
  await mkdir(join(root, "bin"));
  await symlink(binary, join(root, "bin", "pulumi"));
  return root;
}

/** PATH with the binary's directory first, so its sibling plugins are found. */
export function pathWith(binary: string, path = process.env.PATH ?? ""): string {
  return [dirname(binary), path].filter(Boolean).join(delimiter);
}

/** What the CLI said on stderr, from an Automation API CommandError; the message otherwise. */
export function cliError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const said = message
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("error: "));
  if (said.length) return [...new Set(said.map((l) => l.slice("error: ".length)))].join("\n");
  const stderr = /(?:^|\n)\s*stderr: ([\s\S]*?)(?:\n\s*err\?: |$)/.exec(message)?.[1]?.trim();
  return stderr || message;
}
