// One CI job on a fresh runner: a checkout of a program in a new working directory (the program's
// files and the stack config files a team commits, node_modules linked as npm would install
// them), a fresh PULUMI_HOME, and the shared state backend. Commands run as a CI script runs them:
// the real `pulumi` CLI and the package's tools as processes, each in its own process group.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { linkCheckout } from "./package";
import { repoRoot, type Toolchain } from "./toolchain";

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  stdout: string;
  seconds: number;
}

export interface Runner {
  /** The checkout: the program's working directory on this runner. */
  dir: string;
  env: Record<string, string>;
  /** `pulumi <args> --non-interactive`; `onStart` gets the process (e.g. to kill it). */
  pulumi(args: string[], onStart?: (child: ChildProcess) => void): Promise<Run>;
  /** One of the package's tools (dist/tools/<name>.js) with the runner's node. */
  tool(name: "drift" | "recover", args: string[]): Promise<Run>;
  /** The stack config file as this runner has it (to commit it for the next runners). */
  stackConfig(stack: string): Promise<string>;
  dispose(): Promise<void>;
}

/** The stack's config file as the repository commits it: what a fresh runner's checkout holds. */
export function committedStackConfig(stack: {
  name: string;
  workspace: { workDir: string };
}): Record<string, string> {
  const file = `Pulumi.${stack.name}.yaml`;
  return { [file]: readFileSync(join(stack.workspace.workDir, file), "utf8") };
}

/**
 * A fresh runner for `program` (a directory of the repository), holding `files` (e.g. the
 * committed `Pulumi.<stack>.yaml`), with `backendEnv` (the backend URL, its credentials, a new
 * PULUMI_HOME, the passphrase).
 */
export async function freshRunner(
  toolchain: Toolchain,
  program: string,
  backendEnv: Record<string, string>,
  files: Record<string, string> = {},
  /** Further paths of the repository the program reads (kept at the same place relative to it). */
  extra: string[] = [],
  /**
   * Where to check out (emptied first), for runners that check out at one path, as a CI service's
   * runners do (a FileAsset outside the project directory is recorded by its absolute path).
   */
  at?: string,
): Promise<Runner> {
  const source = resolve(repoRoot, program);
  if (at) await rm(at, { recursive: true, force: true });
  const base = at ?? (await mkdtemp(join(tmpdir(), `mediahost-runner-${basename(source)}-`)));
  const dir = join(base, relative(repoRoot, source));
  await mkdir(dir, { recursive: true });
  for (const path of extra) await cp(join(repoRoot, path), join(base, path), { recursive: true });
  for (const entry of await readdir(source, { withFileTypes: true })) {
    if (entry.name === "node_modules" || /^Pulumi\..+\.yaml$/.test(entry.name)) continue;
    await cp(join(source, entry.name), join(dir, entry.name), { recursive: true });
  }
  // a plugin path relative to the repository's example is absolute in the checkout
  const project = join(dir, "Pulumi.yaml");
  const yaml = await readFile(project, "utf8");
  await writeFile(
    project,
    yaml.replace(
      /^(\s+path:\s*)(\.\.?\/\S*)$/gm,
      (_, lead: string, rel: string) => lead + resolve(source, rel),
    ),
  );
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  await linkCheckout(base);
  const env = { ...toolchain.env, ...backendEnv };

  const spawnRun = (command: string, args: string[], onStart?: (child: ChildProcess) => void) =>
    new Promise<Run>((done) => {
      const started = Date.now();
      const child = spawn(command, args, {
        cwd: dir,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let stdout = "";
      child.stdout!.on("data", (d) => {
        out += d;
        stdout += d;
      });
      child.stderr!.on("data", (d) => {
        out += d;
      });
      onStart?.(child);
      child.on("close", (code, signal) =>
        done({ code, signal, out, stdout, seconds: (Date.now() - started) / 1000 }),
      );
    });
  return {
    dir,
    env,
    pulumi: (args, onStart) => spawnRun("pulumi", [...args, "--non-interactive"], onStart),
    tool: (name, args) => spawnRun(process.execPath, [join(repoRoot, `dist/tools/${name}.js`), ...args]),
    stackConfig: (stack) => readFile(join(dir, `Pulumi.${stack}.yaml`), "utf8"),
    dispose: () => rm(base, { recursive: true, force: true }),
  };
}
