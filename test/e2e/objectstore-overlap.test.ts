// Jobs that overlap on Pulumi's DIY backend in a real S3 object store (versitygw), as a CI system that
// cancels a job and starts the next one makes them, every job on a fresh runner: job A's `up` is
// killed holding the lock; job B runs the README's recipe (`mediahost-recover --wait`, then `up`);
// job C runs the same recipe while B's `up` runs, starting at a few moments of it. recover never
// releases B's live lock, and writes the state only if nobody saved it since it read it; C waits,
// fails or goes ahead, and whatever it did, one more job of the recipe converges without `adopt`,
// every object is in the state once, and `destroy` leaves the account as it was before the stack.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ObjectStoreBackend, objectStoreForTests, type RunningObjectStore } from "./helpers/objectstore";
import { killWithPlugins, onApplied } from "./helpers/processes";
import { openProject, type Project } from "./helpers/project";
import { committedStackConfig, freshRunner, type Runner } from "./helpers/runner";
import { toolchainForTests } from "./helpers/toolchain";

const PROGRAM = "test/e2e/programs/runs";
const FOLDERS = 12;
const ALIASES = 4;
/** settings, web, its domain, the aliases, the sub-account, the folders, keep */
const RESOURCES = 1 + 1 + 1 + ALIASES + 1 + FOLDERS + 1;
/** C's recipe starts with B's (0), or once the service has applied this many changes of B's `up`. */
const MOMENTS = [0, 1, 4, 8];

interface SavedState {
  checkpoint: {
    latest: { resources?: { urn: string; type: string; id?: string }[]; pending_operations?: unknown[] };
  };
}
type Outcome = "waited" | "failed" | "went ahead";

describe("overlapping jobs on an S3 object store: A killed holding the lock, B's recipe, C's during B's up", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  const store = await objectStoreForTests();
  if (!store) return void it.skip("needs the object store (scripts/toolchain/objectstore.sh)");

  let objects: RunningObjectStore;
  let backend: ObjectStoreBackend;
  let p: Project;
  const runners: Runner[] = [];
  const outcomes: { moment: number; b: Outcome; c: Outcome; said: string }[] = [];
  const prefix = `overlap-${randomBytes(3).toString("hex")}`;

  const runner = async () => {
    const committed = committedStackConfig(p.stack);
    const r = await freshRunner(toolchain, PROGRAM, await backend.runner(), committed);
    runners.push(r);
    return r;
  };
  /** The README's recipe: recover (waiting for a live update), then up if recover succeeded. */
  const recipe = async (r: Runner) => {
    const recovered = await r.tool("recover", ["--stack", p.stack.name, "--cwd", r.dir, "--wait", "300"]);
    if (recovered.code !== 0) return { recovered, up: undefined };
    const up = await r.pulumi(["up", "--yes", "--skip-preview", "--stack", p.stack.name]);
    return { recovered, up };
  };
  /** What of the account a stack of this program may touch and must leave as it found. */
  const account = () => {
    const s = p.emulator.control.state();
    return {
      tree: s.tree.map((e) => e.path).sort(),
      subAccounts: [...s.subAccounts].sort(),
      aliases: s.account.aliases,
      meta: s.meta,
      options: s.options,
    };
  };

  beforeAll(async () => {
    objects = await store.start();
    backend = await objects.backend(prefix);
    p = await openProject(toolchain, {
      workDir: PROGRAM,
      backend,
      // a service whose alias updates replace the map: the only one where a destroy can take an alias
      // away (the API has no call that deletes one), so that the account can be as it was
      emulator: { latencyMs: 30, latencyJitterMs: 20, mkdirExists: "409", aliasesUpdate: "replace" },
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      config: {
        password: { value: "fetch-pw-overlap-3c1e", secret: true },
        s3Secret: { value: "s3-secret-overlap-9e4a", secret: true },
        folders: { value: String(FOLDERS) },
        aliases: { value: String(ALIASES) },
      },
    });
    // the folders' parent, which a create makes when missing and nothing deletes: there before
    await p.api.ops.mkdir({ query: { dirname: "/runs" } });
  });
  afterAll(async () => {
    console.log(`C's outcomes: ${JSON.stringify(outcomes, null, 1)}`);
    for (const r of runners) await r.dispose();
    await p?.dispose();
    await objects?.stop();
  });

  for (const moment of MOMENTS) {
    const when = moment === 0 ? "with B's recover" : `after ${moment} change(s) of B's up`;
    it(`C starts ${when}: one more job converges, destroy leaves the account as it was`, async () => {
      const before = account();
      const lockDir = `${prefix}/.pulumi/locks/`;

      // A: killed holding the lock, the moment the service applied its 5th folder
      const a = await runner();
      let child: ChildProcess | undefined;
      let mkdirs = 0;
      const stopA = onApplied(
        (m) => m.type === "mkdir" && ++mkdirs === 5,
        () => child?.pid && killWithPlugins(child.pid),
      );
      const killed = await a
        .pulumi(["up", "--yes", "--skip-preview", "--stack", p.stack.name], (c) => {
          child = c;
        })
        .finally(stopA);
      expect(killed.signal).toBe("SIGKILL");
      expect((await objects.list(lockDir)).length, "A's lock").toBe(1);

      // B: the recipe; C: the recipe too, started with B's or while B's up runs
      const [b, c] = [await runner(), await runner()];
      let bDone: Awaited<ReturnType<typeof recipe>>;
      let cJob: ReturnType<typeof recipe> | undefined;
      if (moment === 0) {
        cJob = recipe(c);
        bDone = await recipe(b);
      } else {
        const recovered = await b.tool("recover", ["--stack", p.stack.name, "--cwd", b.dir, "--wait", "300"]);
        expect(recovered.code, recovered.out).toBe(0);
        expect(recovered.out).toMatch(
          /released the lock an interrupted update left on s3:\/\/.*its process is gone/,
        );
        let changes = 0;
        const stopB = onApplied(
          () => ++changes === moment,
          () => {
            cJob = recipe(c);
          },
        );
        const up = await b.pulumi(["up", "--yes", "--skip-preview", "--stack", p.stack.name]).finally(stopB);
        expect(up.code, up.out).toBe(0);
        bDone = { recovered, up };
      }
      const cDone = await (cJob ?? recipe(c));
      const outcomeOf = (done: typeof cDone): Outcome =>
        done.recovered.code !== 0 || done.up?.code !== 0
          ? "failed"
          : /waiting for the update holding the lock/.test(done.recovered.out)
            ? "waited"
            : "went ahead";
      for (const done of [bDone, cDone]) {
        // a lock recover released was always the killed job's; no job lost its lock
        expect(done.recovered.out).not.toMatch(/may be a live update's/);
        expect(done.up?.out ?? "").not.toMatch(/problem deleting the lock/);
      }
      const cOut = `${cDone.recovered.out}${cDone.up?.out ?? ""}`;
      outcomes.push({
        moment,
        b: outcomeOf(bDone),
        c: outcomeOf(cDone),
        said: cOut
          .split("\n")
          .filter((l) => /mediahost-recover: (error|waiting|no lock|the state)|error: /.test(l))
          .join(" | "),
      });

      // one more job of the recipe converges, with no adopt
      const d = await runner();
      const next = await recipe(d);
      expect(next.recovered.code, next.recovered.out).toBe(0);
      expect(next.up?.code, next.up?.out).toBe(0);
      expect(`${next.recovered.out}${next.up?.out}`).not.toMatch(/adopt/);
      const saved = (await p.stateFile()) as SavedState;
      const resources = saved.checkpoint.latest.resources ?? [];
      const urns = resources.map((r) => r.urn);
      expect(new Set(urns).size).toBe(urns.length);
      const ours = resources.filter(
        (r) => /mediahost[:/]/.test(r.type) && !r.type.startsWith("pulumi:providers:"),
      );
      expect(ours).toHaveLength(RESOURCES);
      expect(saved.checkpoint.latest.pending_operations ?? []).toEqual([]);
      // every folder of the account under /runs is in the state, once
      const folders = p.emulator.control
        .state()
        .tree.filter((e) => e.isDirectory && e.path.startsWith("/runs/"))
        .map((e) => e.path);
      const stated = ours.map((r) => r.id ?? "").filter((id) => id.startsWith("/runs/"));
      expect(folders.sort()).toEqual([...stated].sort());
      expect(p.emulator.control.state().subAccounts.filter((s) => s === "team-runs")).toHaveLength(1);
      expect(await objects.list(lockDir)).toEqual([]);

      // destroy leaves the account as it was before the stack
      const destroyed = await (await runner()).pulumi([
        "destroy",
        "--yes",
        "--skip-preview",
        "--stack",
        p.stack.name,
      ]);
      expect(destroyed.code, destroyed.out).toBe(0);
      expect(account(), destroyed.out).toEqual(before);
    });
  }
});
