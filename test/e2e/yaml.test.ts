// examples/yaml (the quickstart in Pulumi YAML, on the native face) with the real CLI and the
// toolchain's pulumi-language-yaml: up, a quiet preview --refresh, a change made out of band found
// as the property that changed, `pulumi import --generate-code` writing YAML that previews clean,
// and destroy.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorState } from "../../emulator/index";
import { withoutTrash } from "./helpers/expect";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { pulumiCommand, repoRoot, toolchainForTests } from "./helpers/toolchain";

const ORIGIN_PASSWORD = "origin-pw-yaml-6d2a";

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("examples/yaml with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  let before: EmulatorState;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "examples/yaml",
      config: { originPassword: { value: ORIGIN_PASSWORD, secret: true } },
    });
    before = p.emulator.control.state();
  });
  afterAll(() => p?.dispose());

  it("creates the quickstart from YAML, the origin password a secret everywhere", async () => {
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 13 });
    expect(up.outputs.shoesUrl?.value).toMatch(/^https:\/\/.+\/products\/shoes$/);
    const s = p.emulator.control.state(undefined, { secrets: true });
    expect(s.account.fetching.http?.auth?.password).toBe(ORIGIN_PASSWORD);
    expect(s.account.aliases.thumbs).toMatchObject({ prefix: "/products", defaultProfile: "thumbnail" });
    expect(s.meta["/products/shoes"]).toMatchObject({ title: "Shoes", tags: ["catalog", "shoes"] });
    expect(s.options["/products/shoes"]).toMatchObject({ scanSpins: true });
    expect(s.tree.map((e) => e.path)).toContain("/assets/thumbnail.profile.json");
    expect(plaintextLocations(await p.stateFile(), ORIGIN_PASSWORD)).toEqual([]);
    expect(p.output.join("")).not.toContain(ORIGIN_PASSWORD);
  });

  it("previews a refresh with no changes", async () => {
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 13 });
  });

  it("finds a change made out of band as the property that changed", async () => {
    // a person moves the alias's prefix, keeping the rest of the entry
    await p.api.ops.updateAccount({
      body: { aliases: { thumbs: { prefix: "/elsewhere", cdn: true, defaultProfile: "thumbnail" } } },
    });
    const drift = await p.stack.preview({ refresh: true, diff: true });
    expect(drift.changeSummary).toMatchObject({ update: 1 });
    const update =
      /~ mediahost:index:Alias: \(update\)[\s\S]*?(?=\nResources:)/.exec(drift.stdout)?.[0] ?? "";
    expect(update).toMatch(/~ prefix\s*: "\/elsewhere" => "\/products"/);
    expect(update).not.toMatch(/cdn|defaultProfile/);
    await p.stack.up({ refresh: true });
    expect(p.emulator.control.state().account.aliases.thumbs?.prefix).toBe("/products");
  });

  it("pulumi import --generate-code writes YAML for the objects, and that YAML previews clean", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mediahost-yaml-import-"));
    try {
      const project = [
        "name: imported-yaml",
        "runtime: yaml",
        "plugins:",
        "  providers:",
        "    - name: mediahost",
        `      path: ${join(repoRoot, "plugin")}`,
        "",
      ].join("\n");
      await writeFile(join(dir, "Pulumi.yaml"), project);
      const env = { ...toolchain.env, ...p.backend.envVars };
      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: "imported", workDir: dir },
        { pulumiCommand: await pulumiCommand(toolchain), envVars: env },
      );
      await stack.setAllConfig({
        "mediahost:baseUrl": { value: p.emulator.url },
        "mediahost:clientId": { value: "demo-client" },
        "mediahost:clientSecret": { value: "demo-secret", secret: true },
      });
      await writeFile(
        join(dir, "import.json"),
        JSON.stringify({
          resources: [
            { type: "mediahost:index:Folder", name: "shoes", id: "/products/shoes" },
            { type: "mediahost:index:FolderMeta", name: "shoes-meta", id: "/products/shoes" },
            { type: "mediahost:index:FolderOptions", name: "shoes-options", id: "/products/shoes" },
            { type: "mediahost:index:Alias", name: "thumbs", id: "thumbs" },
          ],
        }),
      );
      const imported = await run(
        "pulumi",
        [
          "import",
          "--file",
          "import.json",
          "--yes",
          "--non-interactive",
          "--protect=false",
          "--out",
          "imported.yaml",
          "--stack",
          "imported",
        ],
        dir,
        env,
      );
      expect(imported.code, imported.out).toBe(0);
      const yaml = await readFile(join(dir, "imported.yaml"), "utf8");
      expect(yaml).toMatch(/type: mediahost:(index:)?FolderMeta/);
      expect(yaml).toMatch(/title: Shoes/);
      // the generated resources become the program
      await writeFile(join(dir, "Pulumi.yaml"), `${project}${yaml}`);
      const preview = await stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: 5 });
      await run("pulumi", ["state", "delete", "--all", "--yes", "--force", "--stack", "imported"], dir, env);
      await stack.workspace.removeStack("imported", { force: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("destroys what it made, leaving the account as it was", async () => {
    const destroyed = await p.stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    const after = p.emulator.control.state();
    expect(withoutTrash(after.tree)).toEqual(withoutTrash(before.tree));
    expect(after.meta).toEqual(before.meta);
  });
});
