// Moving an existing stack from the dynamic face to the native one with the real CLI: the
// quickstart deployed with `pulumi-mediahost`, then the same program importing
// `pulumi-mediahost/native` (and naming the plugin in Pulumi.yaml). The native classes carry an
// alias to the dynamic type and the native face ignores what the dynamic one kept beside the
// properties, so `up` replaces nothing and the API sees no write; a refresh after it is quiet, and
// the stack goes on as a native one.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNothingMadeOrReplaced, stackTree } from "./helpers/expect";
import { linkCheckout } from "./helpers/package";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

/** Requests that change the account (what a move must not send). */
const WRITES = /^(update|set|add|remove|delete|mkdir|upload|rename|copy|create|start|fetch|mark)/;

interface SavedState {
  checkpoint: { latest: { resources?: { urn: string; type: string }[] } };
}

describe("a dynamic stack moved to the native face", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let dir: string;
  let p: Project;
  beforeAll(async () => {
    // the quickstart as a user's own project, outside the repository
    dir = await mkdtemp(join(tmpdir(), "mediahost-migrate-"));
    await cp(join(repoRoot, "examples/quickstart"), dir, { recursive: true });
    // and a sub-account, which the API cannot read: the move reads nothing, so it moves too
    const quickstart = await readFile(join(dir, "index.ts"), "utf8");
    await writeFile(
      join(dir, "index.ts"),
      `${quickstart}\nexport const team = new mediahost.SubAccount("team", { alias: "migrate-team" }).alias;\n`,
    );
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "migrate", main: "index.ts" }));
    await linkCheckout(dir);
    p = await openProject(toolchain, {
      workDir: dir,
      config: { originPassword: { value: "origin-pw-migrate-2b7f", secret: true } },
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
    });
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 15 });
  });
  afterAll(async () => {
    await p?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("switches the program's import: up replaces nothing and writes nothing to the account", async () => {
    const program = await readFile(join(dir, "index.ts"), "utf8");
    await writeFile(
      join(dir, "index.ts"),
      program.replace('from "pulumi-mediahost";', 'from "pulumi-mediahost/native";'),
    );
    await writeFile(
      join(dir, "Pulumi.yaml"),
      `${await readFile(join(dir, "Pulumi.yaml"), "utf8")}plugins:\n  providers:\n    - name: mediahost\n      path: ${join(dir, "node_modules/pulumi-mediahost/plugin")}\n`,
    );
    const preview = await p.stack.preview({ diff: true });
    expectNothingMadeOrReplaced(preview.changeSummary);
    p.mark();
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expectNothingMadeOrReplaced(up.summary.resourceChanges);
    const writes = Object.keys(p.calls()).filter((op) => WRITES.test(op));
    expect(writes).toEqual([]);
    const saved = (await p.stateFile()) as SavedState;
    const types = (saved.checkpoint.latest.resources ?? []).map((r) => r.type);
    expect(types.filter((t) => t.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
    expect(types.filter((t) => t.startsWith("mediahost:index:"))).toHaveLength(14);
    expect(types).toContain("mediahost:index:SubAccount");
  });

  it("previews a refresh with no changes afterwards, and goes on as a native stack", async () => {
    await p.stack.preview({ refresh: true, expectNoChanges: true });
    await p.stack.setConfig("productsFolder", { value: "/catalog" });
    const moved = await p.stack.up();
    expect(moved.summary.resourceChanges).toMatchObject({ update: 6 });
    expect(p.emulator.control.state().tree.map((e) => e.path)).toContain("/catalog/shoes");
    const destroyed = await p.stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    expect(stackTree(p.emulator.control.state().tree).filter((e) => e.path !== "/")).toEqual([]);
    expect(p.emulator.control.state().subAccounts).not.toContain("migrate-team");
  });
});
