// Two CI runners start `pulumi up` of the same stack at the same moment, on Pulumi's DIY backend in
// a real S3 object store (versitygw), several times over, each round with a new commit (more
// folders, a new alias prefix). The DIY lock is list, write, list again, without a conditional
// write; whatever it does, no object is made twice, no change is lost, and after one more `up` the
// account and the state agree. A runner that fails says in one line what to do. The test prints how
// often both went ahead.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ObjectStoreBackend, objectStoreForTests, type RunningObjectStore } from "./helpers/objectstore";
import { openProject, type Project } from "./helpers/project";
import { committedStackConfig, freshRunner, type Run, type Runner } from "./helpers/runner";
import { toolchainForTests } from "./helpers/toolchain";

const PROGRAM = "test/e2e/programs/runs";
const ROUNDS = 3;
const ALIASES = 3;
const folders = (round: number) => 3 + round;

interface SavedState {
  checkpoint: {
    latest: { resources?: { urn: string; type: string; id?: string }[]; pending_operations?: unknown[] };
  };
}

describe("two runners start up of one stack at the same moment, on an S3 object store", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  const store = await objectStoreForTests();
  if (!store) return void it.skip("needs the object store (scripts/toolchain/objectstore.sh)");

  let objects: RunningObjectStore;
  let backend: ObjectStoreBackend;
  let p: Project;
  const runners: Runner[] = [];
  const prefix = `race-${randomBytes(3).toString("hex")}`;
  const runner = async () => {
    const committed = committedStackConfig(p.stack);
    const r = await freshRunner(toolchain, PROGRAM, await backend.runner(), committed);
    runners.push(r);
    return r;
  };
  const up = (r: Runner) => r.pulumi(["up", "--yes", "--skip-preview", "--stack", p.stack.name]);

  beforeAll(async () => {
    objects = await store.start();
    backend = await objects.backend(prefix);
    p = await openProject(toolchain, {
      workDir: PROGRAM,
      backend,
      emulator: { latencyMs: 20, latencyJitterMs: 20 },
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      config: {
        password: { value: "race-pw-1e4d", secret: true },
        s3Secret: { value: "race-s3-9c0b", secret: true },
        folders: { value: String(folders(0)) },
        aliases: { value: String(ALIASES) },
        prefix: { value: "/r0" },
      },
    });
    const first = await up(await runner());
    expect(first.code, first.out).toBe(0);
  });
  afterAll(async () => {
    for (const r of runners) await r.dispose();
    await p?.dispose();
    await objects?.stop();
  });

  it(`${ROUNDS} rounds: nothing made twice, nothing lost; the account and the state agree after one more up`, async () => {
    const outcomes: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // the new commit both runners check out
      await p.stack.setConfig("folders", { value: String(folders(round)) });
      await p.stack.setConfig("prefix", { value: `/r${round}` });
      const [a, b] = [await runner(), await runner()];
      const runs = await Promise.all([up(a), up(b)]);
      const ok = runs.filter((r) => r.code === 0).length;
      const failed = runs.filter((r) => r.code !== 0);
      outcomes.push(ok === 2 ? "both went ahead" : ok === 1 ? "one went ahead" : "neither went ahead");
      for (const run of failed) {
        // the failing runner's first error line says what to do (Pulumi's lock message)
        const line = run.out.split("\n").find((l) => l.startsWith("error: "));
        console.log(`round ${round}: a runner failed (exit ${run.code}): ${line ?? run.out.slice(-500)}`);
        expect(line, run.out.slice(-2000)).toMatch(
          /the stack is currently locked by \d+ lock\(s\)\. Either wait for the other process\(es\) to end/,
        );
      }
      expect(await objects.list(`${prefix}/.pulumi/locks/`), "no lock left behind").toEqual([]);

      // one more up, as the next push would run it: the account and the state agree
      const again = await up(await runner());
      expect(again.code, again.out).toBe(0);
      const saved = (await p.stateFile()) as SavedState;
      const resources = saved.checkpoint.latest.resources ?? [];
      const urns = resources.map((r) => r.urn);
      expect(new Set(urns).size).toBe(urns.length);
      expect(saved.checkpoint.latest.pending_operations ?? []).toEqual([]);
      const expected = [
        ...Array.from({ length: folders(round) }, (_, i) => `/runs/f${i}`),
        "/runs/keep",
      ].sort();
      const inState = resources.filter((r) => r.type.endsWith(":Folder")).map((r) => r.id);
      const inAccount = p.emulator.control
        .state()
        .tree.filter((e) => e.isDirectory && e.path.startsWith("/runs/"))
        .map((e) => e.path);
      expect(inState.sort()).toEqual(expected);
      expect(inAccount.sort()).toEqual(expected);
      const aliases = p.emulator.control.state().account.aliases;
      for (let i = 0; i < ALIASES; i++) expect(aliases[`a${i}`]?.prefix).toBe(`/r${round}/a${i}`);
      expect(p.emulator.control.state().subAccounts.filter((s) => s === "team-runs")).toHaveLength(1);
    }
    const both = outcomes.filter((o) => o === "both went ahead").length;
    console.log(
      `two runners at once, ${ROUNDS} rounds: ${outcomes.join("; ")} (both went ahead ${both} of ${ROUNDS})`,
    );

    const quiet = await (await runner()).pulumi([
      "preview",
      "--refresh",
      "--expect-no-changes",
      "--stack",
      p.stack.name,
    ]);
    expect(quiet.code, quiet.out).toBe(0);
  });

  it("destroy removes what the stack made", async () => {
    const destroyed: Run = await (await runner()).pulumi([
      "destroy",
      "--yes",
      "--skip-preview",
      "--stack",
      p.stack.name,
    ]);
    expect(destroyed.code, destroyed.out).toBe(0);
    expect(p.emulator.control.state().tree.filter((e) => e.path.startsWith("/runs/"))).toEqual([]);
  });
});
