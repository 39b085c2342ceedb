// The media kinds and functions with the real CLI, on both faces: a product image with its meta,
// approval and two points of interest, and a signed download link exported as a secret stack
// output. up; a refresh that sees a point changed out of band; (native) `pulumi import` of a point
// by `path#name`; mediahost-drift naming the point and the product changed elsewhere; an up without one
// point, which deletes it and leaves the file's others; destroy.
// The protection key never appears in the state or the CLI's output.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const KEY = "protection-key-e2e-7b31";

/** Runs a command, resolving to its exit code and its whole output. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe.each(["dynamic", "native"])(
  "product meta, points and signed URLs with the real CLI (%s face)",
  async (face) => {
    const toolchain = await toolchainForTests();
    if (!toolchain) return void it.skip("needs the Pulumi toolchain");

    let p: Project;
    beforeAll(async () => {
      p = await openProject(toolchain, {
        workDir: "test/e2e/programs/media",
        config: {
          protectionKey: { value: KEY, secret: true },
          productId: { value: "sku-1" },
          face: { value: face },
        },
      });
    });
    afterAll(() => p?.dispose());

    it("creates them, keeps the key secret, sees a point changed elsewhere, and deletes only its own", async () => {
      const up = await p.stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.summary.resourceChanges).toMatchObject({ create: 6 });
      expect(up.outputs.downloadUrl?.secret).toBe(true);
      expect(String(up.outputs.downloadUrl?.value)).toMatch(/\/private\/manual\.pdf\?.*jwt=/);
      const s = p.emulator.control.state();
      expect(s.meta["/products/shoe.jpg"]).toMatchObject({
        title: "Shoe",
        product: { id: "sku-1", brand: "Acme" },
        approval: { approved: true, comment: "looks right" },
      });
      const points = () => p.api.ops.getPoi({ query: { filename: "/products/shoe.jpg" } });
      expect(Object.keys(await points()).sort()).toEqual(["face", "logo"]);
      expect(plaintextLocations(await p.stateFile(), KEY)).toEqual([]);
      expect(p.output.join("")).not.toContain(KEY);

      // a quiet refresh, then one that sees the point set elsewhere under the same name
      const quiet = await p.stack.refresh();
      expect(quiet.summary.resourceChanges?.update ?? 0).toBe(0);
      await p.api.ops.setPoi({
        query: { filename: "/products/shoe.jpg" },
        body: { name: "face", x: 0, y: 0, width: 0.3, height: 0.4 },
      });
      const theirs = { x: 0, y: 0, width: 1, height: 1 };
      await p.api.ops.setPoi({
        query: { filename: "/products/shoe.jpg" },
        body: { name: "theirs", ...theirs },
      });
      // and someone re-tags the product: mediahost-drift names both, per property, changing nothing
      await p.api.ops.setMeta({
        query: { filename: "/products/shoe.jpg" },
        body: { product: { id: "sku-9", brand: "Acme" } },
      });
      const env = { ...toolchain.env, ...p.backend.envVars };
      const cwd = join(repoRoot, "test/e2e/programs/media");
      const checked = await run(
        process.execPath,
        [join(repoRoot, "dist/tools/drift.js"), "--cwd", cwd, "--stack", p.stack.name],
        repoRoot,
        env,
      );
      expect(checked.code, checked.out).toBe(2);
      expect(checked.out).toMatch(/PointOfInterest face\s+x\s+0\.1\s+0\b/);
      expect(checked.out).toMatch(/FolderMeta shoe-meta\s+product\.id\s+sku-1\s+sku-9/);
      expect(checked.out).not.toContain(KEY);
      await p.api.ops.setMeta({
        query: { filename: "/products/shoe.jpg" },
        body: { product: { id: "sku-1", brand: "Acme" } },
      });
      const drift = await p.stack.refresh();
      expect(drift.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(drift.stdout).toMatch(/face/);

      let imported = false;
      if (face === "native") {
        // a point nobody manages, imported by path#name: the next up (which lacks it) deletes it
        const args = ["import", "mediahost:index:PointOfInterest", "theirs", "/products/shoe.jpg#theirs"];
        const common = [
          "--yes",
          "--non-interactive",
          "--generate-code=false",
          "--protect=false",
          "--stack",
          p.stack.name,
        ];
        const result = await run("pulumi", [...args, ...common], cwd, env);
        expect(result.code, result.out).toBe(0);
        const bad = await run(
          "pulumi",
          [...args.slice(0, 2), "no-name", "/products/shoe.jpg", ...common],
          cwd,
          env,
        );
        expect(bad.code).not.toBe(0);
        expect(bad.out).toContain('a point of interest is imported by "<path>#<name>"');
        imported = true;
      }

      await p.stack.setConfig("logo", { value: "false" });
      const dropped = await p.stack.up();
      expect(dropped.summary.resourceChanges).toMatchObject({ delete: imported ? 2 : 1, update: 1 });
      expect(await points()).toEqual({
        face: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
        ...(imported ? {} : { theirs }),
      });

      const down = await p.stack.destroy();
      expect(down.summary.result).toBe("succeeded");
      expect(p.emulator.control.state().tree.map((e) => e.path)).not.toContain("/products/shoe.jpg");
      expect(plaintextLocations(await p.stateFile(), KEY)).toEqual([]);
      expect(p.output.join("")).not.toContain(KEY);
    });
  },
);
