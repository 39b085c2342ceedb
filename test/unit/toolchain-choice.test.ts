// scripts/toolchain/provision.sh picks the CLI the way users expect: an installed Pulumi CLI of any
// version from the supported minimum on (with the language hosts that came with it), and a build
// from Go source only when none fits; the same for the YAML language host and for the Python, Go
// and .NET hosts `pulumi package gen-sdk` needs. It says which it uses. Fake CLIs on PATH and a
// fake cache keep this test free of Go builds.
import { execFile } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
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
const yamlVersion = /^YAML_VERSION=(\S+)$/m.exec(readFileSync(script, "utf8"))?.[1];

/** provision.sh's hash of one of our Go modules' sources (and the words it adds), by its own function. */
function sourceHash(module: string, words: string): Promise<string> {
  return new Promise<string>((res, rej) =>
    execFile(
      "bash",
      [
        "-c",
        `set -euo pipefail; eval "$(sed -n '/^source_hash() {/,/^}/p' "$0")"; source_hash "$1" "$2"`,
        script,
        join(repo, "scripts/toolchain", module),
        words,
      ],
      (err, out) => (err ? rej(err) : res(out.trim())),
    ),
  );
}

/**
 * What an earlier build left in a cache: the CLI, our language host for this source (Node.js, and
 * Python and Go by other names), our .NET host, the YAML host. Returns the versioned directory.
 */
async function warmCache(cache: string, opts: { yaml: boolean }): Promise<string> {
  const versioned = join(cache, `pulumi-v${buildVersion}`);
  fake(join(versioned, "bin"), "pulumi", `v${buildVersion}`);
  fake(
    join(versioned, "nodejs-host", await sourceHash("language-host", buildVersion)),
    "pulumi-language-nodejs",
    "ours",
  );
  fake(
    join(versioned, "dotnet-host", await sourceHash("dotnet-host", "")),
    "pulumi-language-dotnet",
    "our dotnet",
  );
  if (opts.yaml) fake(join(versioned, "yaml-host", `v${yamlVersion}`), "pulumi-language-yaml", "our yaml");
  return versioned;
}

const same = (a: string, b: string) => statSync(a).ino === statSync(b).ino;

describe("provision.sh chooses the Pulumi CLI", () => {
  it("uses an installed CLI newer than the minimum, with the language host beside it", async () => {
    const installed = join(work, "installed");
    fake(installed, "pulumi", "v3.270.0");
    fake(installed, "pulumi-language-nodejs", "host");
    fake(installed, "pulumi-language-yaml", "yaml host");
    for (const lang of ["python", "go", "dotnet"]) fake(installed, `pulumi-language-${lang}`, `${lang} host`);
    const { stdout, stderr } = await provision([installed], join(work, "cache-a"));
    const dirs = stdout.trim().split(delimiter);
    expect(dirs[0]).toBe(installed);
    expect(stderr).toContain(`using the installed pulumi v3.270.0 at ${installed}/pulumi`);
    expect(stderr).toContain(`using the language host ${installed}/pulumi-language-nodejs`);
    expect(stderr).toContain(`using the YAML language host ${installed}/pulumi-language-yaml`);
    for (const lang of ["python", "go", "dotnet"]) {
      expect(stderr).toContain(`using the ${lang} language host ${installed}/pulumi-language-${lang}`);
    }
    expect(stderr).not.toContain("building");
    // beside it only what the installed CLI lacks: the dynamic provider's plugin
    expect(readdirSync(dirs[1] as string)).toEqual(["pulumi-resource-pulumi-nodejs"]);
  });

  it("ignores an installed CLI older than the minimum and uses the one built from source", async () => {
    const old = join(work, "old");
    fake(old, "pulumi", "v3.100.0");
    const cache = join(work, "cache-b");
    const versioned = await warmCache(cache, { yaml: true });
    const { stdout, stderr } = await provision([old], cache);
    expect(stderr).toContain(`ignoring ${old}/pulumi (v3.100.0): older than v3.160.0`);
    expect(stderr).toContain(`using pulumi v${buildVersion} built from source`);
    expect(stderr).toContain(
      `using pulumi-language-yaml v${yamlVersion} built from source at ${versioned}/yaml-host/v${yamlVersion}/pulumi-language-yaml`,
    );
    expect(stderr).not.toContain("building");
    // one directory, of this checkout's own: the CLI with both hosts beside it (hard links: the CLI
    // finds its hosts next to its real path), and the dynamic provider's plugin
    const dirs = stdout.trim().split(delimiter);
    expect(dirs).toHaveLength(1);
    const [dir] = dirs as [string];
    expect(dir.startsWith(join(versioned, "path") + "/")).toBe(true);
    expect(same(join(dir, "pulumi"), join(versioned, "bin", "pulumi"))).toBe(true);
    expect(lstatSync(join(dir, "pulumi")).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, "pulumi-language-nodejs"), "utf8")).toContain("ours");
    expect(readFileSync(join(dir, "pulumi-language-yaml"), "utf8")).toContain("our yaml");
    // the SDK-only hosts: python and go are the Node.js host's binary under their names
    expect(same(join(dir, "pulumi-language-python"), join(dir, "pulumi-language-nodejs"))).toBe(true);
    expect(same(join(dir, "pulumi-language-go"), join(dir, "pulumi-language-nodejs"))).toBe(true);
    expect(readFileSync(join(dir, "pulumi-language-dotnet"), "utf8")).toContain("our dotnet");
    for (const lang of ["python", "go", "dotnet"]) {
      expect(stderr).toContain(`using our pulumi-language-${lang} (SDK generation only)`);
    }
    expect(readFileSync(join(dir, "pulumi-resource-pulumi-nodejs"), "utf8")).toBe(
      readFileSync(join(repo, "node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"), "utf8"),
    );
    // the second run: same answer, nothing to build
    const again = await provision([old], cache);
    expect(again.stdout).toBe(stdout);
  });
});

describe("provision.sh chooses the YAML language host", () => {
  it("uses a pulumi-language-yaml on PATH with the CLI built from source, linked beside it", async () => {
    const elsewhere = join(work, "yaml-elsewhere");
    const installedYaml = fake(elsewhere, "pulumi-language-yaml", "installed yaml");
    const cache = join(work, "cache-c");
    await warmCache(cache, { yaml: false }); // nothing to build: GO is unusable here
    const { stdout, stderr } = await provision([elsewhere], cache);
    expect(stderr).toContain(`using the YAML language host ${installedYaml}`);
    expect(stderr).not.toContain("building");
    const dir = stdout.trim();
    expect(readlinkSync(join(dir, "pulumi-language-yaml"))).toBe(installedYaml);
  });

  it("builds it only when none is installed, and says so", async () => {
    const cache = join(work, "cache-d");
    await warmCache(cache, { yaml: false });
    // GO points nowhere, so the build it attempts fails, naming what to install instead
    await expect(provision([], cache)).rejects.toThrow(
      new RegExp(`building pulumi-language-yaml v${yamlVersion}[^]*Go is needed[^]*pulumi-language-yaml`),
    );
  });
});

describe("provision.sh chooses the Python, Go and .NET language hosts (for gen-sdk)", () => {
  it("adds ours beside an installed CLI that came without them, the Node.js host staying its own", async () => {
    const installed = join(work, "installed-without-sdk-hosts");
    fake(installed, "pulumi", "v3.270.0");
    fake(installed, "pulumi-language-nodejs", "host");
    fake(installed, "pulumi-language-yaml", "yaml host");
    const cache = join(work, "cache-e");
    const versioned = await warmCache(cache, { yaml: false });
    const { stdout, stderr } = await provision([installed], cache);
    expect(stderr).toContain(`using the language host ${installed}/pulumi-language-nodejs`);
    expect(stderr).not.toContain("building");
    const [first, extra] = stdout.trim().split(delimiter) as [string, string];
    expect(first).toBe(installed);
    expect(readdirSync(extra).sort()).toEqual([
      "pulumi-language-dotnet",
      "pulumi-language-go",
      "pulumi-language-python",
      "pulumi-resource-pulumi-nodejs",
    ]);
    const ours = readdirSync(join(versioned, "nodejs-host")).map((h) =>
      join(versioned, "nodejs-host", h, "pulumi-language-nodejs"),
    );
    expect(ours).toHaveLength(1);
    expect(same(join(extra, "pulumi-language-python"), ours[0] as string)).toBe(true);
    expect(same(join(extra, "pulumi-language-go"), ours[0] as string)).toBe(true);
    expect(readFileSync(join(extra, "pulumi-language-dotnet"), "utf8")).toContain("our dotnet");
  });

  it("uses ones on PATH with the CLI built from source, linked beside it", async () => {
    const elsewhere = join(work, "sdk-hosts-elsewhere");
    const python = fake(elsewhere, "pulumi-language-python", "installed python");
    const cache = join(work, "cache-f");
    await warmCache(cache, { yaml: true });
    const { stdout, stderr } = await provision([elsewhere], cache);
    expect(stderr).toContain(`using the python language host ${python}`);
    expect(stderr).toContain("using our pulumi-language-go (SDK generation only)");
    const dir = stdout.trim();
    expect(readlinkSync(join(dir, "pulumi-language-python"))).toBe(python);
    expect(lstatSync(join(dir, "pulumi-language-go")).isSymbolicLink()).toBe(false);
  });

  it("without Go, leaves out the ones it would have to build, with a warning, and provisions the rest", async () => {
    const installed = join(work, "installed-no-go");
    fake(installed, "pulumi", "v3.270.0");
    fake(installed, "pulumi-language-nodejs", "host");
    fake(installed, "pulumi-language-yaml", "yaml host");
    fake(installed, "pulumi-language-go", "go host");
    const { stdout, stderr } = await provision([installed], join(work, "cache-g"));
    for (const lang of ["python", "dotnet"]) {
      expect(stderr).toContain(
        `warning: no pulumi-language-${lang} (\`pulumi package gen-sdk --language ${lang}\` will fail): Go is needed`,
      );
    }
    expect(stderr).toContain(`using the go language host ${installed}/pulumi-language-go`);
    const [, extra] = stdout.trim().split(delimiter) as [string, string];
    expect(readdirSync(extra)).toEqual(["pulumi-resource-pulumi-nodejs"]);
  });
});
