// Measures the emulator: start-up time of the built CLI, authenticated GETs per second, and
// memory over rounds of 100,000 requests.
//   npx tsc -p tsconfig.json && node_modules/.bin/node --expose-gc dist/scripts/emulator-load.js
// The CLI runs in its own process (RSS measured from /proc); with --expose-gc a second pass runs
// the emulator in this process and reports the live heap after a full collection, which shows
// whether anything accumulates (RSS also includes heap V8 has not given back yet).
// MEDIAHOST_EMULATOR_CLI=<path of another build's cli.js> measures that build's CLI instead (run
// without --expose-gc then: the in-process pass always runs this build). `--startup-runs N` takes
// the start-up median over N starts (default 3); `--startup-only` stops after it. `--real-account
// N` starts the CLI with that real-size account (its seeding counts in the start-up) and reports
// its RSS once started: `--startup-only --real-account 50000` checks that 50,000 files seed here.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { startEmulator } from "mediahost-emulator";
import { spawnEmulator } from "../emulator/test/helpers/spawn";

const REQUESTS = 100_000;
const ROUNDS = 3;
const CONNECTIONS = 10;
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
}

/** `--startup-runs N` (default 3): how many starts the start-up median is taken over. */
const STARTUP_RUNS = Number(process.argv[process.argv.indexOf("--startup-runs") + 1]) || 3;

/** `--real-account N`: the CLI's flag, passed on as given. */
const at = process.argv.indexOf("--real-account");
const REAL_ACCOUNT = at >= 0 ? ["--real-account", process.argv[at + 1] as string] : [];

/** The median start-up, and the largest RSS a started CLI had (a second after its start). */
async function startup(): Promise<{ ms: number; rss: number }> {
  const times: number[] = [];
  let most = 0;
  for (let i = 0; i < STARTUP_RUNS; i++) {
    const t0 = performance.now();
    const emu = await spawnEmulator(["--port", "0", ...REAL_ACCOUNT], 120_000);
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 1000));
    most = Math.max(most, rss(emu.process.pid as number));
    await emu.stop();
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number, rss: most };
}

/** A token, and the global counter lifted: 7,000 an hour would stop the run in seconds. */
async function prepare(url: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  const { token } = await post("/v2/token", { clientId: "demo-client", clientSecret: "demo-secret" });
  await post("/_emulator/limits", { counter: "rest:global", limit: Number.MAX_SAFE_INTEGER });
  return token as string;
}

async function rounds(url: string, memory: () => string): Promise<void> {
  const token = await prepare(url);
  console.log(`  before: ${memory()}`);
  for (let i = 1; i <= ROUNDS; i++) {
    const r = await autocannon({
      url: `${url}/v2/account`,
      headers: { authorization: `Bearer ${token}` },
      connections: CONNECTIONS,
      amount: REQUESTS,
    });
    console.log(
      `  after ${i * REQUESTS} GET /v2/account: ${r.requests.average.toFixed(0)} req/s ` +
        `(p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}), ${memory()}`,
    );
  }
}

async function main(): Promise<void> {
  const started = await startup();
  console.log(
    `start-up${REAL_ACCOUNT.length ? ` with --real-account ${REAL_ACCOUNT[1]}` : ""}, spawn to "listening on" ` +
      `(median of ${STARTUP_RUNS}): ${started.ms.toFixed(0)} ms; RSS a second after: at most ${mib(started.rss)}`,
  );
  // `--startup-only`: no load rounds
  if (process.argv.includes("--startup-only")) return;

  console.log(`CLI process, ${CONNECTIONS} connections (RSS):`);
  const cli = await spawnEmulator(["--port", "0"]);
  try {
    await rounds(cli.url, () => `RSS ${mib(rss(cli.process.pid as number))}`);
  } finally {
    await cli.stop();
  }

  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  console.log("in-process emulator (live heap after full GC; the load generator shares the process):");
  const emu = await startEmulator({});
  try {
    await rounds(emu.url, () => {
      gc();
      return `heap ${mib(process.memoryUsage().heapUsed)}`;
    });
  } finally {
    await emu.stop();
  }
}

void main();
