// `npm run bench -- --account real`: on an emulator whose default account is a real-size one
// (`realAccount`, emulator/real-account.ts), per face: mediahost-generate --files of the whole
// account, on the native face `pulumi import --file` of the document it writes, `pulumi up` of
// the generated program (every object adopted), a quiet `pulumi preview --refresh` and
// mediahost-drift, each with its time, the provider's peak RSS, its calls by operation and by
// rate-limit counter beside its floor (scripts/bench/real-account.ts). The hourly limits are
// lifted for the measurement: the report says what share of each a step would take.
import { readFileSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { counterLimits } from "mediahost-contract";
import { planRealAccount, type RunningEmulator, startEmulator } from "mediahost-emulator";
import { ALIASES } from "./program";
import {
  budgetShares,
  censusOf,
  countersOf,
  type ImportCensus,
  importCensusOf,
  REAL_STEP_LABEL,
  type RealAccountReport,
  type RealBaseline,
  type RealStep,
  realFloor,
} from "./real-account";
import type { Calls, Face } from "./report";
import { type RunResult, repoRoot, runMeasured, runPulumi, type Toolchain, type Workspace } from "./setup";

const progress = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

/** The generated program's folder levels: deeper than the seed's 4, so every folder is declared. */
const DEPTH = "10";

/** The native face's plugin, found as the README tells users (the bench project names it so too). */
const NATIVE_PLUGIN =
  "plugins:\n  providers:\n    - name: mediahost\n      path: ./node_modules/pulumi-mediahost/plugin\n";

function callsSince(emulator: RunningEmulator, since: number): { calls: Calls; next: number } {
  const { requests, next } = emulator.control.requests(since);
  const calls: Calls = {};
  for (const r of requests) {
    const op = r.operation ?? `${r.method} ${r.path}`;
    calls[op] = (calls[op] ?? 0) + 1;
  }
  return { calls, next };
}

/** A project directory beside the workspace's, sharing its node_modules (pulumi-mediahost installed). */
async function project(ws: Workspace, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await symlink(join(ws.projectDir, "node_modules"), join(dir, "node_modules"));
}

export async function realAccountScenario(
  toolchain: Toolchain,
  ws: Workspace,
  face: Face,
  files: number,
): Promise<RealAccountReport> {
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const emulator = await startEmulator({ realAccount: files, log: () => {} });
  const seedMs = Math.round(performance.now() - t0);
  const emulatorRssBytes = process.memoryUsage().rss - rssBefore;
  try {
    // the hourly counters would stop the measurement at once (generate alone needs ~3 hours of
    // rest:global): lifted; each step's counts are set against them in the report
    for (const counter of Object.keys(counterLimits))
      emulator.control.setLimit({ counter, limit: Number.MAX_SAFE_INTEGER });
    const points: Record<string, number> = {};
    for (const f of planRealAccount(files).files) if (f.points) points[f.path] = Object.keys(f.points).length;
    const census = censusOf(emulator.control.state(), points);
    const report: RealAccountReport = {
      face,
      files,
      census,
      resources: 0,
      seedMs,
      emulatorRssBytes,
      steps: {},
    };
    const credentials = {
      MEDIAHOST_BASE_URL: emulator.url,
      MEDIAHOST_CLIENT_ID: "demo-client",
      MEDIAHOST_CLIENT_SECRET: "demo-secret",
    };
    let since = emulator.control.requests(0).next;
    let imported: ImportCensus | undefined;
    const step = async (name: RealStep, run: () => Promise<RunResult>, note?: (r: RunResult) => string) => {
      progress(`real-${face}: ${REAL_STEP_LABEL[name]}`);
      let result: RunResult;
      try {
        result = await run();
      } catch (err) {
        throw new Error(`real-${face} ${REAL_STEP_LABEL[name]}: ${(err as Error).message}`);
      }
      const counted = callsSince(emulator, since);
      since = counted.next;
      const floor = realFloor(name, census, imported);
      const counters = countersOf(counted.calls);
      report.steps[name] = {
        ms: Math.round(result.ms),
        providerRssBytes: result.providerRss,
        cpu: result.cpu,
        calls: counted.calls,
        floor,
        counters,
        floorCounters: countersOf(floor),
        shares: budgetShares(counters),
        ...(note ? { note: note(result) } : {}),
      };
      progress(
        `  ${(result.ms / 1000).toFixed(1)} s, provider RSS ${(result.providerRss / 1048576).toFixed(0)} MiB, ` +
          `calls ${JSON.stringify(counted.calls)}`,
      );
    };

    const dir = join(ws.dir, `real-${face}`);
    const importFile = join(ws.dir, `real-${face}-import.json`);
    const env = { ...ws.env, ...credentials };
    await step("generate", () =>
      runMeasured(
        process.execPath,
        [
          join(repoRoot, "dist/tools/generate.js"),
          "--out",
          dir,
          "--files",
          "--depth",
          DEPTH,
          ...(face === "native" ? ["--import-file", importFile] : []),
        ],
        ws.dir,
        env,
      ),
    );
    const program = await readFile(join(dir, "index.ts"), "utf8");
    report.resources = (program.match(/new mediahost\./g) ?? []).length;
    await symlink(join(ws.projectDir, "node_modules"), join(dir, "node_modules"));
    if (face === "native") {
      // the same program on the native face: its classes take the same arguments
      await writeFile(
        join(dir, "index.ts"),
        program.replace('from "pulumi-mediahost";', 'from "pulumi-mediahost/native";'),
      );
      const yaml = await readFile(join(dir, "Pulumi.yaml"), "utf8");
      await writeFile(join(dir, "Pulumi.yaml"), `${yaml}${NATIVE_PLUGIN}`);
      const document = JSON.parse(readFileSync(importFile, "utf8")) as {
        resources: { type: string; id: string }[];
      };
      imported = importCensusOf(document.resources);
      const importDir = join(ws.dir, "real-native-import");
      await project(ws, importDir);
      await writeFile(
        join(importDir, "Pulumi.yaml"),
        `name: mediahost-real-import\nruntime: nodejs\nmain: index.js\n${NATIVE_PLUGIN}`,
      );
      await writeFile(join(importDir, "index.js"), "");
      await stackWithCredentials(toolchain, ws, importDir, "real-native-import", emulator.url);
      await step(
        "import",
        () =>
          runPulumi(
            toolchain,
            ws,
            [
              "import",
              "--file",
              importFile,
              "--out",
              join(importDir, "imported.ts"),
              "--protect=false",
              "--yes",
              "--skip-preview",
              "--stack",
              "real-native-import",
            ],
            { PULUMI_SKIP_CHECKPOINTS: "true" },
            importDir,
          ),
        () => `${document.resources.length} resources imported`,
      );
      // the import's stack is done with: its resources stay in the account, as they were
      await runPulumi(
        toolchain,
        ws,
        ["stack", "rm", "--yes", "--force", "--stack", "real-native-import"],
        {},
        importDir,
      );
    }
    const stack = `real-${face}`;
    await stackWithCredentials(toolchain, ws, dir, stack, emulator.url);
    // ~9,700 resources: the file backend's per-step checkpoints would cost O(N²) (docs/benchmark.md)
    const quick = { PULUMI_SKIP_CHECKPOINTS: "true" };
    await step("up", () =>
      runPulumi(toolchain, ws, ["up", "--yes", "--skip-preview", "--stack", stack], quick, dir),
    );
    await step("previewRefresh", () =>
      runPulumi(toolchain, ws, ["preview", "--refresh", "--expect-no-changes", "--stack", stack], quick, dir),
    );
    await step(
      "drift",
      () =>
        runMeasured(
          process.execPath,
          [
            join(repoRoot, "dist/tools/drift.js"),
            "--stack",
            stack,
            "--cwd",
            dir,
            "--format",
            "json",
            "--pulumi",
            toolchain.pulumi,
          ],
          dir,
          ws.env,
        ),
      (r) => `drift report: ${driftSummary(r.stdout)}`,
    );
    await runPulumi(toolchain, ws, ["stack", "rm", "--yes", "--force", "--stack", stack], {}, dir);
    return report;
  } finally {
    await emulator.stop();
  }
}

/**
 * The bench's baseline program (trivial dynamic resources that only wait, here 0 ms: the engine,
 * the program and the dynamic provider's own cost) with as many resources as the generated
 * program, or the next size up: `up` and `preview --refresh`, in the bench's project.
 */
export async function realBaseline(
  toolchain: Toolchain,
  ws: Workspace,
  resources: number,
): Promise<RealBaseline> {
  const n = Math.ceil((resources - 1 - ALIASES) / 3);
  const stack = "real-baseline";
  await runPulumi(toolchain, ws, ["stack", "init", stack]);
  await runPulumi(toolchain, ws, [
    "config",
    "set-all",
    "--stack",
    stack,
    "--plaintext",
    `bench:n=${n}`,
    "--plaintext",
    "bench:mode=baseline",
  ]);
  const env = { BENCH_LATENCY_MS: "0", PULUMI_SKIP_CHECKPOINTS: "true" };
  progress(`real-baseline: up of ${3 * n + 1 + ALIASES} trivial resources`);
  const up = await runPulumi(toolchain, ws, ["up", "--yes", "--skip-preview", "--stack", stack], env);
  progress(`  ${(up.ms / 1000).toFixed(1)} s; preview --refresh`);
  const refresh = await runPulumi(
    toolchain,
    ws,
    ["preview", "--refresh", "--expect-no-changes", "--stack", stack],
    env,
  );
  progress(`  ${(refresh.ms / 1000).toFixed(1)} s`);
  await runPulumi(toolchain, ws, ["stack", "rm", "--yes", "--force", "--stack", stack]);
  const step = (r: RunResult) => ({ ms: Math.round(r.ms), providerRssBytes: r.providerRss, cpu: r.cpu });
  return { resources: 3 * n + 1 + ALIASES, up: step(up), previewRefresh: step(refresh) };
}

async function stackWithCredentials(
  toolchain: Toolchain,
  ws: Workspace,
  dir: string,
  stack: string,
  baseUrl: string,
): Promise<void> {
  await runPulumi(toolchain, ws, ["stack", "init", stack], {}, dir);
  await runPulumi(
    toolchain,
    ws,
    [
      "config",
      "set-all",
      "--stack",
      stack,
      "--plaintext",
      `mediahost:baseUrl=${baseUrl}`,
      "--plaintext",
      "mediahost:clientId=demo-client",
      "--secret",
      "mediahost:clientSecret=demo-secret",
    ],
    {},
    dir,
  );
}

/** What drift's JSON report of one stack says, in a few words. */
function driftSummary(stdout: string): string {
  const start = stdout.indexOf("{");
  try {
    const r = JSON.parse(stdout.slice(start)) as {
      checked?: number;
      drift?: boolean;
      resources?: unknown[];
      error?: string;
    };
    if (r.error) return `error: ${r.error}`;
    return `${r.checked} resources checked, ${r.drift ? `${r.resources?.length} drifted` : "no drift"}`;
  } catch {
    return `not JSON: ${stdout.slice(0, 200)}`;
  }
}
