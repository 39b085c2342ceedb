// Fleet drift on Pulumi's DIY backend in a real S3 object store (versitygw): 60 stacks of
// examples/drift-ci (3 accounts x 20, scripts/fleet.ts) checked by 3 runner processes at once, each
// with its own checkout and PULUMI_HOME, each checking its shard (`mediahost-drift --all-stacks
// --shard K/3`). Every stack is checked once, the drift made out of band is found in exactly the
// stacks it touched, and each account's calls stay within its rate-limit budget. Wall times for 1, 2
// and 3 runners: scripts/bench-fleet.ts.
import { cpus } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterLimits } from "../../contract/index";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { type Fleet, makeFleet } from "../../scripts/fleet";
import { objectStoreForTests, type RunningObjectStore } from "./helpers/objectstore";
import { DEMO_CLIENT } from "./helpers/project";
import { TEST_PASSPHRASE, toolchainForTests } from "./helpers/toolchain";

const ACCOUNTS = [
  { alias: "demo", ...DEMO_CLIENT },
  { alias: "eu", clientId: "eu-client", clientSecret: "eu-secret-fleet-60" },
  { alias: "us", clientId: "us-client", clientSecret: "us-secret-fleet-60" },
];
const PER_ACCOUNT = 20;
const RUNNERS = 3;

interface Report {
  summary: { stacks: number; clean: number; drifted: number; failed: number };
  stacks: {
    stack: string;
    drift: boolean;
    error?: string;
    resources: { name: string; properties?: { property: string }[] }[];
  }[];
}

describe(`fleet drift: ${ACCOUNTS.length * PER_ACCOUNT} stacks on an S3 object store, ${RUNNERS} runners at once`, async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  const store = await objectStoreForTests();
  if (!store) return void it.skip("needs the object store (scripts/toolchain/objectstore.sh)");

  let objects: RunningObjectStore;
  let emulator: RunningEmulator;
  let fleet: Fleet;
  const budget = counterLimits["rest:global"] ?? 7000;

  beforeAll(async () => {
    objects = await store.start();
    emulator = await startEmulator({ log: () => {}, accounts: ACCOUNTS.slice(1), latencyMs: 10 });
    const started = Date.now();
    fleet = await makeFleet({
      env: {
        ...toolchain.env,
        PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      },
      store: objects,
      prefix: `fleet-${Math.random().toString(16).slice(2, 8)}`,
      baseUrl: emulator.url,
      accounts: ACCOUNTS,
      perAccount: PER_ACCOUNT,
    });
    console.log(
      `fleet of ${fleet.stacks.length} stacks made in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  });
  afterAll(async () => {
    await fleet?.dispose();
    await emulator?.stop();
    await objects?.stop();
  });

  it("each runner checks its shard; together every stack once; the drift is found where it was made", async () => {
    // out of band: one stack per account drifts
    const drifted = ACCOUNTS.map((a, i) => `fleet-${a.alias}-${String(3 + i * 5).padStart(2, "0")}`);
    for (const [i, a] of ACCOUNTS.entries()) {
      const api = new MediahostClient({
        baseUrl: emulator.url,
        clientId: a.clientId,
        clientSecret: a.clientSecret,
      });
      const site = drifted[i]!.slice("fleet-".length);
      await api.ops.setTitle({ query: { filename: `/${site}/banners` }, body: { title: "Old banners" } });
    }
    // each account's budget, counted from here
    for (const a of ACCOUNTS)
      emulator.control.setLimit({ account: a.alias, counter: "rest:global", used: 0 });
    const mark = emulator.control.requests(0).next;

    const { runs, seconds } = await fleet.shards(RUNNERS, ["--format", "json"]);
    console.log(
      `${fleet.stacks.length} stacks, ${RUNNERS} runners at once: ${seconds.toFixed(1)} s on ${cpus().length} cores`,
    );
    const reports = runs.map((r) => JSON.parse(r.stdout) as Report);
    for (const [k, r] of runs.entries()) {
      expect(r.stderr, `runner ${k + 1}`).toContain(
        `shard ${k + 1}/${RUNNERS}: ${PER_ACCOUNT} of ${fleet.stacks.length} stacks`,
      );
      expect(r.stderr).toMatch(/on s3:\/\/mediahost-state\/fleet-/);
      expect(reports[k]!.summary.failed, r.stderr).toBe(0);
      expect(r.code).toBe(reports[k]!.summary.drifted > 0 ? 2 : 0);
    }
    const checked = reports.flatMap((r) => r.stacks.map((s) => s.stack));
    expect(checked.sort()).toEqual(fleet.stacks.map((s) => s.name).sort());
    const found = reports.flatMap((r) => r.stacks.filter((s) => s.drift));
    expect(found.map((s) => s.stack).sort()).toEqual([...drifted].sort());
    for (const s of found) {
      expect(s.resources.map((r) => r.name)).toEqual(["banners-meta"]);
      expect(s.resources[0]!.properties?.map((p) => p.property)).toEqual(["title"]);
    }

    // each account's calls: within its budget, and never refused for a rate limit
    const requests = emulator.control.requests(mark).requests;
    for (const a of ACCOUNTS) {
      const calls = requests.filter((r) => r.account === a.alias);
      const counted = emulator.control.limits(a.alias)["rest:global"]!;
      console.log(
        `account ${a.alias}: ${calls.length} calls, rest:global ${counted.count} of ${counted.limit}`,
      );
      expect(calls.filter((r) => r.status === 429)).toEqual([]);
      expect(counted.count).toBeGreaterThan(0);
      expect(counted.count).toBeLessThanOrEqual(budget);
    }
  });
});
