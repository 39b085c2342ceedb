// examples/go (the quickstart in Go, against the Go SDK generated from the package schema) with the
// real CLI: it compiles; and where the toolchain has Pulumi's Go language host (scripts/toolchain/
// go-host), up, a quiet preview --refresh, a change made out of band found as the property that
// changed, and destroy.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const ORIGIN_PASSWORD = "origin-pw-go-7b1e";
/** The CLI's version: the Go SDK a program builds against. */
const VERSION = readFileSync(join(repoRoot, "scripts/toolchain/cli-version"), "utf8").trim();
const ADDED_PROGRAM = `package main

import (
\t"github.com/pulumi-mediahost/pulumi-mediahost/sdk/go/mediahost"
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
\tpulumi.Run(func(ctx *pulumi.Context) error {
\t\t_, err := mediahost.NewFolder(ctx, "added", &mediahost.FolderArgs{Path: pulumi.String("/added")})
\t\treturn err
\t})
}
`;
const example = join(repoRoot, "examples/go");

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

function findGo(): string | undefined {
  if (process.env.GO && existsSync(process.env.GO)) return process.env.GO;
  for (const dir of (process.env.PATH ?? "").split(delimiter))
    if (existsSync(join(dir, "go"))) return join(dir, "go");
  return existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined;
}

describe("examples/go with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  const go = findGo();
  if (!go) {
    if (process.env.CI === "true") throw new Error("Go not found (needed under CI=true): set GO=/path/to/go");
    return void it.skip("needs Go");
  }
  const env = {
    ...toolchain.env,
    PATH: [dirname(go), toolchain.env.PATH].join(delimiter),
    GOTOOLCHAIN: "local",
    GOFLAGS: "-mod=mod",
  };
  // Pulumi's host, or our SDK-only one (the Node.js host's binary under another name)
  const hostDir = toolchain.binDirs.find((d) => existsSync(join(d, "pulumi-language-go")));
  const ours =
    hostDir !== undefined &&
    existsSync(join(hostDir, "pulumi-language-nodejs")) &&
    statSync(join(hostDir, "pulumi-language-go")).ino ===
      statSync(join(hostDir, "pulumi-language-nodejs")).ino;

  let p: Project;
  beforeAll(async () => {
    await rm(join(example, "sdk"), { recursive: true, force: true });
    const gen = await run(
      "pulumi",
      [
        "package",
        "gen-sdk",
        join(repoRoot, "provider/native/schema.json"),
        "--language",
        "go",
        "--out",
        "sdk",
      ],
      example,
      env,
    );
    expect(gen.code, gen.out).toBe(0);
    if (!ours) {
      p = await openProject(toolchain, {
        workDir: "examples/go",
        config: { originPassword: { value: ORIGIN_PASSWORD, secret: true } },
        // Pulumi.yaml names no plugin path: the plugin is found on PATH, as offline users have it
        env: { PATH: [join(repoRoot, "plugin"), env.PATH].join(delimiter), GOTOOLCHAIN: "local" },
      });
    }
  });
  afterAll(async () => {
    await p?.dispose();
    await rm(join(example, "sdk"), { recursive: true, force: true });
  });

  it("compiles against the SDK generated from the schema, through the replace in its go.mod", async () => {
    const built = await run(go, ["build", "-o", "/dev/null", "."], example, env);
    expect(built.code, built.out).toBe(0);
    expect(readFileSync(join(example, "go.mod"), "utf8")).toMatch(
      /^replace github\.com\/pulumi-mediahost\/pulumi-mediahost\/sdk\/go => \.\/sdk\/go$/m,
    );
  });

  it("builds from a copy outside the repository, after the steps main.go gives", async () => {
    const copy = await mkdtemp(join(tmpdir(), "mediahost-go-copy-"));
    try {
      for (const file of ["Pulumi.yaml", "go.mod", "go.sum", "main.go"])
        await cp(join(example, file), join(copy, file));
      expect(readFileSync(join(copy, "Pulumi.yaml"), "utf8")).not.toMatch(/\.\.\//);
      const plugin = join(repoRoot, "plugin/pulumi-resource-mediahost");
      const gen = await run(
        "pulumi",
        ["package", "gen-sdk", plugin, "--language", "go", "--out", "sdk"],
        copy,
        env,
      );
      expect(gen.code, gen.out).toBe(0);
      const built = await run(go, ["build", "-o", "/dev/null", "."], copy, env);
      expect(built.code, built.out).toBe(0);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  // the module proxy may refuse Pulumi's Go host: provisioning printed the error
  if (ours)
    console.warn("e2e: examples/go is only compiled: the toolchain has no pulumi-language-go of Pulumi's");
  describe.skipIf(ours)("run by Pulumi's Go language host", () => {
    it("creates the quickstart from Go", async () => {
      const up = await p.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 13 });
      expect(up.outputs.shoesUrl?.value).toMatch(/^https:\/\/.+\/products\/shoes$/);
      const s = p.emulator.control.state(undefined, { secrets: true });
      expect(s.account.fetching.http?.auth?.password).toBe(ORIGIN_PASSWORD);
      expect(s.meta["/products/shoes"]).toMatchObject({ title: "Shoes", tags: ["catalog", "shoes"] });
      expect(s.tree.map((e) => e.path)).toContain("/assets/thumbnail.profile.json");
      expect(plaintextLocations(await p.stateFile(), ORIGIN_PASSWORD)).toEqual([]);
    });

    it("previews a refresh with no changes", async () => {
      const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: 13 });
    });

    it("finds a change made out of band as the property that changed", async () => {
      await p.api.ops.setTitle({ query: { filename: "/products/shoes" }, body: { title: "Boots" } });
      const drift = await p.stack.preview({ refresh: true, diff: true });
      expect(drift.changeSummary).toMatchObject({ update: 1 });
      const update =
        /~ mediahost:index:FolderMeta: \(update\)[\s\S]*?(?=\n {4}[~+-] |\nResources:)/.exec(
          drift.stdout,
        )?.[0] ?? "";
      expect(update).toMatch(/~ title\s*: "Boots" => "Shoes"/);
      expect(update).not.toMatch(/~ (path|tags|description)/);
    });

    it("`pulumi package add` of the plugin writes the Go SDK, its replace and the record; a program builds on it", async () => {
      const dir = await mkdtemp(join(tmpdir(), "mediahost-package-add-go-"));
      try {
        await writeFile(join(dir, "Pulumi.yaml"), "name: added-go\nruntime: go\n");
        await writeFile(
          join(dir, "go.mod"),
          `module added-go\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${VERSION}\n`,
        );
        await writeFile(join(dir, "main.go"), ADDED_PROGRAM);
        const addEnv = { ...env, ...p.backend.envVars };
        const added = await run(
          "pulumi",
          ["package", "add", join(repoRoot, "plugin/pulumi-resource-mediahost")],
          dir,
          addEnv,
        );
        expect(added.code, added.out).toBe(0);
        expect(readFileSync(join(dir, "Pulumi.yaml"), "utf8")).toMatch(
          /^packages:\n {2}mediahost: mediahost@/m,
        );
        expect(readFileSync(join(dir, "go.mod"), "utf8")).toMatch(
          /^replace github\.com\/pulumi-mediahost\/pulumi-mediahost\/sdk\/go => \.\/sdks\/mediahost$/m,
        );
        const built = await run(go, ["build", "-o", "/dev/null", "."], dir, env);
        expect(built.code, built.out).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("destroys everything it made", async () => {
      await p.stack.destroy();
      const paths = p.emulator.control.state().tree.map((e) => e.path);
      expect(paths).not.toContain("/products");
      expect(paths).not.toContain("/assets");
    });
  });
});
