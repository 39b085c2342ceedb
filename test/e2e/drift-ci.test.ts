// examples/drift-ci: the drift check script, run as CI would run it (bash, the real CLI on PATH,
// a file backend, credentials in the stack config), against the stack of examples/drift-ci's
// program: silent with exit 0 without drift, exit 2 naming each drifted resource and property,
// exit 1 when the check itself cannot run (the codes of mediahost-drift); `up --refresh` clears
// it; destroy cleans up.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutTrash } from "./helpers/expect";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const script = join(repoRoot, "examples/drift-ci/drift-check.sh");
const workDir = "examples/drift-ci";

describe("examples/drift-ci: drift-check.sh and the workflow template", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  let before: ReturnType<typeof snapshot>;
  const snapshot = () => {
    const s = p.emulator.control.state();
    return {
      aliases: s.account.aliases,
      tree: s.tree,
      meta: s.meta,
      options: s.options,
      minify: s.account.minify,
    };
  };
  const runScript = (env: Record<string, string> = {}) =>
    new Promise<{ code: number; out: string }>((res) => {
      execFile(
        "bash",
        [script, "--stack", p.stack.name, "--cwd", join(repoRoot, workDir)],
        { env: { ...toolchain.env, ...p.backend.envVars, ...env }, maxBuffer: 16 << 20 },
        (err, stdout, stderr) =>
          res({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: `${stdout}${stderr}` }),
      );
    });

  beforeAll(async () => {
    p = await openProject(toolchain, { workDir });
    before = snapshot();
  });
  afterAll(() => p?.dispose());

  it("passes (exit 0) right after up", async () => {
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create).toBeGreaterThanOrEqual(5);
    const run = await runScript();
    expect(run.out).toContain("drift-check: no drift");
    expect(run.code).toBe(0);
  });

  it("fails (exit 2) on drift made out of band, naming each drifted resource and property", async () => {
    await p.api.ops.updateAccount({ body: { minify: { enabled: false } } });
    await p.api.ops.setTitle({ query: { filename: "/media/banners" }, body: { title: "Old banners" } });
    const run = await runScript();
    expect(run.code).toBe(2);
    expect(run.out).toContain("drift-check: DRIFT");
    expect(run.out).toMatch(
      /mediahost:AccountSettings settings \(update\)\n\s+~ minify: \{\n\s+~ enabled: false => true/,
    );
    expect(run.out).toMatch(
      /mediahost:FolderMeta banners-meta \(update\)\n\s+~ title: "Old banners" => "Banners"/,
    );
    expect(run.out).not.toMatch(/mediahost:Folder banners/);
    // only what differs: not the unchanged properties of a drifted resource
    expect(run.out).not.toMatch(/resetOnDelete|tags:/);
    expect(run.out).not.toContain("demo-secret");
    expect(plaintextLocations(await p.stateFile(), "demo-secret")).toEqual([]);
    // the check wrote nothing back
    expect(snapshot().minify).toEqual({ enabled: false });
  });

  it("fails with exit 1, not 2, when the check itself cannot run", async () => {
    const run = await runScript({ PULUMI_CONFIG_PASSPHRASE: "wrong passphrase" });
    expect(run.code).toBe(1);
    expect(run.out).toContain("failed (exit");
    expect(run.out).not.toContain("drift-check: DRIFT");
  });

  it("passes again after up --refresh puts the account back", async () => {
    const fixed = await p.stack.up({ refresh: true });
    expect(fixed.summary.resourceChanges).toMatchObject({ update: 2 });
    const run = await runScript();
    expect(run.code).toBe(0);
  });

  it("ships a workflow template that runs the script on a schedule", async () => {
    const workflow = await readFile(join(repoRoot, workDir, ".github/workflows/drift.yml"), "utf8");
    expect(workflow).toMatch(/schedule:/);
    expect(workflow).toContain("drift-check.sh");
    expect(workflow).toMatch(/PULUMI_CONFIG_PASSPHRASE: \$\{\{ secrets\./);
  });

  it("destroys what it made; the alias stays, as documented, with a warning", async () => {
    const destroyed = await p.stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    const after = snapshot();
    expect(withoutTrash(after.tree)).toEqual(withoutTrash(before.tree));
    expect(after.meta).toEqual(before.meta);
    expect(after.minify).toEqual({ enabled: false }); // resetOnDelete
    // the API has no alias deletion and merges the alias map: the alias is a documented leftover
    expect(after.aliases).toEqual({ ...before.aliases, media: { prefix: "/media", cdn: true } });
    expect(destroyed.stdout).toMatch(/Alias media: the service kept the alias/);
  });
});
