// Both faces with the real CLI against the emulator playing the other plausible answer of every
// fact docs/api.md marks [likely] or [unknown] (emulator/variants.ts), grouped into a few runs
// (helpers/variant-runs.ts). Each run, on each face, takes a program touching every kind through
// up (the account holds what it says), a quiet refresh preview, a change that keeps what it does
// not manage (set out of band, by another writer), another quiet refresh preview, and destroy (a
// forced folder's batch delete behind the gateway meeting a 502 and a lost answer included); no
// secret reaches the state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorState } from "../../emulator/index";
import { stackTree } from "./helpers/expect";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";
import { VARIANT_RUNS } from "./helpers/variant-runs";

const ORIGIN_PASSWORD = "origin-pw-variants-8d2f";
const FACES = ["dynamic", "native"] as const;
const KEEP = { prefix: "/keep", cdn: false, defaultProfile: "keep" };

describe("both faces under every variant of the service", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  for (const run of VARIANT_RUNS) {
    for (const face of FACES) {
      describe(`${run.name} (${run.variants.join(", ")}), ${face} face`, () => {
        let p: Project;
        const state = (): EmulatorState => p.emulator.control.state(undefined, { secrets: true });
        // what the program and the other writer put there: the account's system folders aside
        const paths = () => stackTree(state().tree).map((e) => e.path);

        beforeAll(async () => {
          p = await openProject(toolchain, {
            workDir: "test/e2e/programs/variants",
            emulator: { variants: run.variants },
            config: {
              face: { value: face },
              stage: { value: "1" },
              originPassword: { value: ORIGIN_PASSWORD, secret: true },
            },
          });
          // another writer's objects, which nothing of the program may touch
          await p.api.ops.updateAccount({ body: { aliases: { keep: KEEP } } });
          await p.api.ops.mkdir({ query: { dirname: "/keep" } });
          await p.api.ops.upload({
            query: { filename: "/keep/k.txt" },
            body: { bytes: new TextEncoder().encode("kept\n"), contentType: "text/plain" },
          });
        });
        afterAll(() => p?.dispose());

        it("up converges: the account holds what the program says, and no secret reaches the state", async () => {
          const up = await p.stack.up();
          expect(up.summary.result).toBe("succeeded");
          const s = state();
          expect(s.account.minify.enabled).toBe(true);
          expect(s.account.fetching.http?.auth).toMatchObject({ enabled: true, password: ORIGIN_PASSWORD });
          expect(s.account.aliases.vweb).toMatchObject({
            prefix: "/v",
            cdn: true,
            customDomain: "v.example.com",
          });
          expect(s.account.aliases.keep).toMatchObject(KEEP);
          expect(s.subAccounts).toContain("vsub-e2e");
          expect(paths()).toEqual(expect.arrayContaining(["/v", "/v/a", "/v/a/b", "/v/a/readme.txt"]));
          expect(s.tree.find((e) => e.path === "/v/a/readme.txt")).toMatchObject({
            size: 15,
            contentType: "text/plain",
          });
          expect(s.meta["/v/a/b"]).toMatchObject({ title: "B", tags: ["one"] });
          expect(s.options["/v/a"]).toEqual({ scanSpins: true });
          const saved = await p.stateFile();
          expect(plaintextLocations(saved, ORIGIN_PASSWORD)).toEqual([]);
          expect(plaintextLocations(saved, "demo-secret")).toEqual([]);
          expect(p.output.join("")).not.toContain(ORIGIN_PASSWORD);
        });

        it("previews a refresh with no changes", async () => {
          await p.stack.preview({ refresh: true, expectNoChanges: true });
        });

        it("applies a change and keeps what it does not manage", async () => {
          // set by another writer: fields of managed objects that the program leaves alone
          await p.api.ops.setDescription({ query: { filename: "/v/a/b" }, body: { description: "kept" } });
          await p.api.ops.setFolderOptions({
            query: { filename: "/v/a" },
            body: { scanSpins: true, nameSpinsAfterFolder: true },
          });
          await p.stack.preview({ refresh: true, expectNoChanges: true });
          await p.stack.setConfig("stage", { value: "2" });
          const up = await p.stack.up();
          expect(up.summary.result).toBe("succeeded");
          const s = state();
          expect(s.account.minify.enabled).toBe(false);
          expect(s.account.fetching.http?.auth).toMatchObject({ enabled: true, password: ORIGIN_PASSWORD });
          expect(s.account.aliases.vweb).toMatchObject({
            prefix: "/v",
            cdn: false,
            customDomain: "v.example.com",
          });
          expect(s.account.aliases.keep).toMatchObject(KEEP);
          expect(s.meta["/v/a/b"]).toMatchObject({
            title: "B, second",
            tags: ["one", "two"],
            description: "kept",
          });
          expect(s.options["/v/a"]).toEqual({
            scanSpins: true,
            allowListing: true,
            nameSpinsAfterFolder: true,
          });
          expect(s.tree.find((e) => e.path === "/v/a/readme.txt")).toMatchObject({ size: 16 });
          expect(paths()).toContain("/keep/k.txt");
          await p.stack.preview({ refresh: true, expectNoChanges: true });
          expect(plaintextLocations(await p.stateFile(), ORIGIN_PASSWORD)).toEqual([]);
        });

        it("destroy leaves nothing of the program, and everything of the other writer", async () => {
          // a forced folder holding a file the program does not know: emptied by the batch delete
          await p.api.ops.upload({
            query: { filename: "/v/full/other.txt" },
            body: { bytes: new TextEncoder().encode("other\n"), contentType: "text/plain" },
          });
          const gateway = run.variants.includes("gateway-502");
          // behind the gateway, the job's start surely meets it, then loses an answer it applied
          if (gateway) {
            await p.emulator.control.setFaults({
              badGateway: { operation: "startBatchDelete", count: 1 },
              dropAfterApply: { operation: "startBatchDelete", count: 1 },
            });
          }
          const since = p.emulator.control.requests(0).next;
          const destroyed = await p.stack.destroy();
          expect(destroyed.summary.result).toBe("succeeded");
          const starts = p.emulator.control
            .requests(since)
            .requests.filter((r) => r.operation === "startBatchDelete")
            .map((r) => (r.dropped ? "lost" : r.status));
          // started again after each, and once more only after a 502 (the gateway's one in four)
          if (gateway) {
            expect(starts[0]).toBe(502);
            expect(starts).toContain("lost");
          }
          expect(starts.filter((s) => s === 200)).toEqual([200]);
          expect(starts.at(-1)).toBe(200);
          const s = state();
          expect(paths().sort()).toEqual(["/keep", "/keep/k.txt"]);
          expect(s.subAccounts).not.toContain("vsub-e2e");
          expect(s.account.aliases.vweb?.customDomain).toBeUndefined();
          expect(s.account.aliases.keep).toMatchObject(KEEP);
          expect(p.output.join("")).not.toContain(ORIGIN_PASSWORD);
        });
      });
    }
  }
});
