// Wall time of fleet drift with 1, 2 and 3 runners: a fleet of examples/drift-ci stacks (3 accounts
// x --per-account, default 20) on Pulumi's DIY backend in a real S3 object store (versitygw,
// scripts/objectstore.ts), checked by N `mediahost-drift --all-stacks --shard K/N` processes at
// once, each with its own checkout and PULUMI_HOME, against the in-process emulator. Prints the
// times beside the machine's core count and load average (docs/reliability.md).
//
//   npm run -s build && node dist/scripts/bench-fleet.js [--per-account 20] [--runners 1,2,3] [--json]
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { startEmulator } from "mediahost-emulator";
import { PASSPHRASE, provisionToolchain } from "./bench/setup";
import { makeFleet } from "./fleet";
import { provisionObjectStore, startObjectStore } from "./objectstore";

const ACCOUNTS = [
  { alias: "demo", clientId: "demo-client", clientSecret: "demo-secret" },
  { alias: "eu", clientId: "eu-client", clientSecret: "eu-secret-bench" },
  { alias: "us", clientId: "us-client", clientSecret: "us-secret-bench" },
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "per-account": { type: "string", default: "20" },
      runners: { type: "string", default: "1,2,3" },
      json: { type: "boolean", default: false },
    },
  });
  const perAccount = Number(values["per-account"]);
  const counts = (values.runners ?? "").split(",").map(Number);
  if (!Number.isInteger(perAccount) || perAccount < 1)
    throw new Error("--per-account must be a whole number >= 1");
  if (counts.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error("--runners must list whole numbers >= 1");
  const say = (line: string) => process.stderr.write(`bench-fleet: ${line}\n`);

  const toolchain = await provisionToolchain();
  const store = await startObjectStore(await provisionObjectStore());
  const emulator = await startEmulator({ log: () => {}, accounts: ACCOUNTS.slice(1), latencyMs: 10 });
  try {
    const started = Date.now();
    const fleet = await makeFleet({
      env: { ...toolchain.env, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      store,
      prefix: `bench-${Date.now().toString(36)}`,
      baseUrl: emulator.url,
      accounts: ACCOUNTS,
      perAccount,
    });
    say(`${fleet.stacks.length} stacks made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const rows: { runners: number; seconds: number; load: number[] }[] = [];
    for (const n of counts) {
      const before = loadavg()[0] ?? 0;
      const { runs, seconds } = await fleet.shards(n, ["--format", "json"]);
      const failed = runs.filter((r) => r.code !== 0);
      if (failed.length)
        throw new Error(`a runner failed:\n${failed.map((r) => r.stderr.slice(-2000)).join("\n")}`);
      rows.push({ runners: n, seconds, load: [before, loadavg()[0] ?? 0] });
      say(`${n} runner(s): ${seconds.toFixed(1)} s`);
    }
    await fleet.dispose();
    const result = { stacks: fleet.stacks.length, cores: cpus().length, rows };
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    process.stdout.write(`fleet drift, ${result.stacks} stacks, ${result.cores} cores\n`);
    process.stdout.write("runners  wall time  load average (1 min) before / after\n");
    for (const r of rows)
      process.stdout.write(
        `${String(r.runners).padStart(7)}  ${`${r.seconds.toFixed(1)} s`.padStart(9)}  ${r.load.map((l) => l.toFixed(1)).join(" / ")}\n`,
      );
  } finally {
    await emulator.stop();
    await store.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-fleet: error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
