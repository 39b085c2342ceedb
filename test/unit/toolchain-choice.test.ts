// scripts/toolchain/provision.sh picks the CLI the way users expect: an installed Pulumi CLI of any
// version from the supported minimum on (with the language host that came with it), and a build
// from Go source only when none fits; it says which it uses. Fake CLIs on PATH and a fake cache
// keep this test free of Go builds.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = resolve(__dirname, "../..");
const script = join(repo, "scripts/toolchain/provision.sh");
const work = mkdtempSync(join(tmpdir(), "mediahost-toolchain-choice-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function fake(dir: string, name: string, output: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${output}'\n`);
  chmodSync(path, 0o755);
  return path;
}

function provision(pathDirs: string[], cache: string): Promise<{ stdout: string; stderr: string }> {
  // PATH: the fakes, then what the system needs to run the script (no other pulumi)
  const system = (process.env.PATH ?? "").split(delimiter).filter((d) => !/pulumi/.test(d));
  return new Promise((res, rej) =>
    execFile(
      "bash",
      [script],
      {
        env: {
          ...process.env,
          PATH: [...pathDirs, ...system].join(delimiter),
          MEDIAHOST_TOOLCHAIN_CACHE: cache,
          GO: "/nonexistent/go",
        },
      },
      (err, stdout, stderr) => (err ? rej(new Error(`${err.message}\n${stderr}`)) : res({ stdout, stderr })),
    ),
  );
}

const buildVersion = readFileSync(join(repo, "scripts/toolchain/cli-version"), "utf8").trim();

describe("provision.sh chooses the Pulumi CLI", () => {
  it("uses an installed CLI newer than the minimum, with the language host beside it", async () => {
    const installed = join(work, "installed");
    fake(installed, "pulumi", "v3.270.0");
    fake(installed, "pulumi-language-nodejs", "host");
    const { stdout, stderr } = await provision([installed], join(work, "cache-a"));
    expect(stdout.trim().split(delimiter)[0]).toBe(installed);
    expect(stderr).toContain(`using the installed pulumi v3.270.0 at ${installed}/pulumi`);
    expect(stderr).toContain(`using the language host ${installed}/pulumi-language-nodejs`);
    expect(stderr).not.toContain("building");
  });

  it("ignores an installed CLI older than the minimum and uses the one built from source", async () => {
    const old = join(work, "old");
    fake(old, "pulumi", "v3.100.0");
    // what an earlier build left in the cache: the CLI and our language host for this source
    const cache = join(work, "cache-b");
    const versioned = join(cache, `pulumi-v${buildVersion}`);
    fake(join(versioned, "bin"), "pulumi", `v${buildVersion}`);
    const hash = await new Promise<string>((res, rej) =>
      execFile(
        "bash",
        [
          "-c",
          `cd scripts/toolchain/language-host && { echo "${buildVersion}"; cat go.mod go.sum $(ls *.go | grep -v '_test\\.go$' | sort); } | sha256sum | cut -c1-16`,
        ],
        { cwd: repo },
        (err, out) => (err ? rej(err) : res(out.trim())),
      ),
    );
    fake(join(versioned, "language-host", hash), "pulumi-language-nodejs", "ours");
    const { stdout, stderr } = await provision([old], cache);
    expect(stderr).toContain(`ignoring ${old}/pulumi (v3.100.0): older than v3.160.0`);
    expect(stderr).toContain(`using pulumi v${buildVersion} built from source`);
    expect(stderr).not.toContain("building");
    expect(stdout.trim().split(delimiter)).toEqual([join(versioned, "bin")]);
  });
});
