// `npm run bench`: the real Pulumi CLI runs a program of N folders (each with FolderOptions and
// FolderMeta), one AccountSettings and 20 Aliases against the in-process emulator on both faces
// (the dynamic provider and the native plugin), and the same shape of trivial dynamic resources
// as a baseline. Per step (up, preview, preview --refresh, refresh, destroy): API calls by
// operation beside the minimum the API allows, wall time at each emulator latency beside the
// baseline, state and serialized-provider bytes, peak provider RSS. See docs/benchmark.md.
//
//   npm run bench [-- --json] [--out report.json] [--sizes 10,100,500] [--latencies 0,50]
//                 [--parallel P] [--skip-checkpoints-from N|never] [--files N|0] [--repeat R]
//                 [--media N|0] [--faces ours,native] [--cpu-prof DIR]
//   npm run bench -- --account real [--account-files N] [--account-baseline] [--faces ours,native]
//                    [--json] [--out FILE]
//
// With --files N (default 100), a second program of one Folder and N Files of 100 KB (each from a
// local file) is run at 0 ms: up, preview --refresh, destroy, with calls beside their floor.
// With --media N (default 100), a third of one Folder and N Files of 1 KB, each with a FolderMeta
// (product, approval) and two PointOfInterest, on each of --faces at 0 ms: up, preview --refresh,
// refresh, destroy.
// With --repeat R, the whole plan runs R times and times are the medians of the rounds (each
// ratio taken within its round). With --cpu-prof DIR, every step of our faces runs under
// `node --cpu-prof` and the provider process's hottest functions are printed (docs/benchmark.md).
//
// With --account real, instead of all that: an emulator account of real size (N files, default
// 6,537, the live sample account's) taken over on each of --faces by mediahost-generate, (native)
// pulumi import, up, preview --refresh and mediahost-drift, each step beside its floor and the
// hourly rate-limit budgets (scripts/bench/real-run.ts); with --account-baseline, the baseline
// program of as many trivial resources beside them.
//
// Progress goes to stderr, the table (or, with --json, the JSON report) to stdout.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { counterLimits } from "mediahost-contract";
import { REAL_ACCOUNT_FILES, type RunningEmulator, startEmulator } from "mediahost-emulator";
import { providerProfile, renderProfile } from "./bench/profile";
import { ALIASES, MEDIA_FILE_BYTES } from "./bench/program";
import { type RealAccountReport, type RealBaseline, renderBaseline, renderReal } from "./bench/real-account";
import { realAccountScenario, realBaseline } from "./bench/real-run";
import {
  type Calls,
  cpuText,
  diffCalls,
  type Face,
  FILE_STEPS,
  type FilesReport,
  type FloorSteps,
  filesFloor,
  filesTargets,
  MEDIA_STEPS,
  type MediaReport,
  MODES,
  type Mode,
  measureState,
  mediaFloor,
  minimum,
  type RunReport,
  render,
  renderFiles,
  renderMedia,
  STEP_LABEL,
  STEPS,
  type StateReport,
  type Step,
  type StepResult,
  type Target,
  targets,
  total,
} from "./bench/report";
import { createWorkspace, provisionToolchain, type RunResult, runPulumi, stateFile } from "./bench/setup";

function stepArgs(step: Step, stack: string, parallel?: number): string[] {
  const common = ["--stack", stack, ...(parallel ? ["--parallel", String(parallel)] : [])];
  switch (step) {
    case "up":
      return ["up", "--yes", "--skip-preview", ...common];
    case "preview":
      return ["preview", ...common];
    case "previewRefresh":
      return ["preview", "--refresh", "--expect-no-changes", ...common];
    case "refresh":
      return ["refresh", "--yes", "--skip-preview", "--expect-no-changes", ...common];
    case "destroy":
      return ["destroy", "--yes", "--skip-preview", ...common];
  }
}

interface LoadTime {
  /** Median wall ms of `node -e 'require("pulumi-mediahost")'` in the installed project. */
  provider: number;
  /** The same for `require("@pulumi/pulumi")` alone. */
  sdk: number;
  /** Median of the pairwise differences: what loading the package costs beyond the SDK. */
  extra: number;
}

/** What `require("pulumi-mediahost")` costs beyond `@pulumi/pulumi`, whole processes taking turns. */
function loadTime(projectDir: string, runs = 15): LoadTime {
  const time = (module: string) => {
    const started = performance.now();
    const r = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(module)})`], { cwd: projectDir });
    if (r.status !== 0) throw new Error(`require(${module}) failed: ${r.stderr}`);
    return performance.now() - started;
  };
  time("pulumi-mediahost"); // warm the file cache
  const provider: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < runs; i++) {
    provider.push(time("pulumi-mediahost"));
    sdk.push(time("@pulumi/pulumi"));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return {
    provider: Math.round(median(provider)),
    sdk: Math.round(median(sdk)),
    extra: Math.round(median(provider.map((p, i) => p - (sdk[i] as number)))),
  };
}

interface Options {
  json: boolean;
  /** Files of 100 KB in the files scenario (0: none). */
  files: number;
  /** Files with meta and two points each in the media scenario (0: none). */
  media: number;
  /** Also write the JSON report to this file. */
  out?: string;
  sizes: number[];
  /** Emulator latencies per size; `--latencies` sets them for every size. */
  latencies: (n: number) => number[];
  parallel?: number;
  /**
   * From this N on, PULUMI_SKIP_CHECKPOINTS=true: the engine writes the state once at the end
   * instead of after every step (each write is the whole file, so per-step writes cost O(N²)).
   */
  skipCheckpointsFrom: number;
  /** Rounds of the whole plan; times are medians over them. */
  repeat: number;
  /** Our faces to run beside the baseline, and the media program on. */
  faces: Face[];
  /** Where to write CPU profiles of our faces' steps (none: no profiling). */
  cpuProf?: string;
  /** Files of the real-size account (`--account real`): that scenario alone runs. */
  realAccountFiles?: number;
  /** With `--account real`: also the baseline program at the generated program's size. */
  realBaseline: boolean;
}

/** The default plan: N=500 only at 50 ms, without per-step checkpoints. */
const DEFAULT_LATENCIES = (n: number) => (n >= 500 ? [50] : [0, 50]);

/** A comma-separated list of whole numbers >= 0, or the error naming the flag. */
function numbers(flag: string, value: string): number[] {
  const list = value.split(",").map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`--${flag}: must be whole numbers >= 0 separated by commas, got "${value}"`);
  return list;
}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      json: { type: "boolean", default: false },
      out: { type: "string" },
      files: { type: "string", default: "100" },
      media: { type: "string", default: "100" },
      sizes: { type: "string", default: "10,100,500" },
      latencies: { type: "string" },
      parallel: { type: "string" },
      "skip-checkpoints-from": { type: "string", default: "500" },
      repeat: { type: "string", default: "1" },
      faces: { type: "string", default: "ours,native" },
      "cpu-prof": { type: "string" },
      account: { type: "string" },
      "account-files": { type: "string", default: String(REAL_ACCOUNT_FILES) },
      "account-baseline": { type: "boolean", default: false },
    },
  });
  if (values.account !== undefined && values.account !== "real")
    throw new Error(`--account: the one account the bench knows is "real", got "${values.account}"`);
  const one = (flag: string, value: string) => numbers(flag, value)[0] as number;
  const latencies = values.latencies === undefined ? undefined : numbers("latencies", values.latencies);
  const skip = values["skip-checkpoints-from"];
  const faces = values.faces.split(",");
  for (const face of faces)
    if (face !== "ours" && face !== "native")
      throw new Error(`--faces: each must be "ours" (the dynamic face) or "native", got "${face}"`);
  const repeat = one("repeat", values.repeat);
  if (repeat < 1) throw new Error("--repeat: must be at least 1");
  return {
    json: values.json,
    out: values.out,
    files: one("files", values.files),
    media: one("media", values.media),
    sizes: numbers("sizes", values.sizes),
    latencies: latencies ? () => latencies : DEFAULT_LATENCIES,
    parallel: values.parallel === undefined ? undefined : one("parallel", values.parallel),
    skipCheckpointsFrom: skip === "never" ? Number.POSITIVE_INFINITY : one("skip-checkpoints-from", skip),
    repeat,
    faces: faces as Face[],
    cpuProf: values["cpu-prof"],
    realAccountFiles: values.account === "real" ? one("account-files", values["account-files"]) : undefined,
    realBaseline: values["account-baseline"],
  };
}

const progress = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

function countCalls(
  emulator: RunningEmulator,
  since: number,
): { calls: Calls; next: number; accountWritesAtMs: number[] } {
  const { requests, next } = emulator.control.requests(since);
  const calls: Calls = {};
  const t0 = requests.length > 0 ? Date.parse((requests[0] as { time: string }).time) : 0;
  const accountWritesAtMs: number[] = [];
  for (const r of requests) {
    const op = r.operation ?? `${r.method} ${r.path}`;
    calls[op] = (calls[op] ?? 0) + 1;
    if (op === "updateAccount") accountWritesAtMs.push(Date.parse(r.time) - t0);
  }
  return { calls, next, accountWritesAtMs };
}

/** `--account real`: the real-size account on each face, and its report. */
async function realAccountMain(opts: Options, files: number): Promise<void> {
  const started = performance.now();
  progress("provisioning the Pulumi CLI (cached after the first build)");
  const toolchain = await provisionToolchain();
  const ws = await createWorkspace(toolchain);
  const accounts: RealAccountReport[] = [];
  let baseline: RealBaseline | undefined;
  try {
    for (const face of opts.faces) accounts.push(await realAccountScenario(toolchain, ws, face, files));
    if (opts.realBaseline) baseline = await realBaseline(toolchain, ws, accounts[0]?.resources ?? 0);
  } finally {
    await ws.dispose();
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  const report = {
    date: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
    totalSeconds: seconds,
    accounts,
    baseline,
  };
  progress(`done in ${seconds} s`);
  if (opts.out) writeFileSync(opts.out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    opts.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : `pulumi-mediahost benchmark, a real account, ${report.date}, total ${seconds} s\n` +
          accounts.map((a) => renderReal(a, diffCalls)).join("") +
          (baseline ? renderBaseline(baseline, accounts) : ""),
  );
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  if (opts.realAccountFiles !== undefined) return realAccountMain(opts, opts.realAccountFiles);
  const started = performance.now();
  progress("provisioning the Pulumi CLI (cached after the first build)");
  const toolchain = await provisionToolchain();
  const ws = await createWorkspace(toolchain);
  progress(
    `project with pulumi-mediahost installed (copied dist/, plugin/ and package.json) in ${ws.projectDir}`,
  );
  const load = loadTime(ws.projectDir);
  progress(
    `require("pulumi-mediahost") ${load.provider} ms, require("@pulumi/pulumi") ${load.sdk} ms: ${load.extra} ms more`,
  );
  const runs: RunReport[] = [];
  let files: FilesReport | undefined;
  const media: MediaReport[] = [];
  try {
    if (opts.files > 0) files = await filesScenario(toolchain, ws, opts.files);
    if (opts.media > 0)
      for (const face of opts.faces) media.push(await mediaScenario(toolchain, ws, opts.media, face));
    for (let round = 1; round <= opts.repeat; round++) {
      for (const n of opts.sizes) {
        for (const latencyMs of opts.latencies(n)) {
          // our faces and the baseline take turns step by step, so load from elsewhere on the
          // machine falls on all alike
          const modes = MODES.filter((m) => m === "baseline" || opts.faces.includes(m));
          const scenarios: Scenario[] = [];
          for (const mode of modes)
            scenarios.push(await openScenario(toolchain, ws, mode, n, latencyMs, round, opts));
          try {
            for (const step of STEPS) for (const s of scenarios) await s.runStep(step);
          } finally {
            for (const s of scenarios) await s.finish();
          }
          runs.push(...scenarios.map((s) => s.report));
        }
      }
    }
  } finally {
    await ws.dispose();
  }
  const seconds = (performance.now() - started) / 1000;
  const report = {
    date: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
    parallel: opts.parallel ?? "default (4 x CPUs)",
    skipCheckpointsFrom: opts.skipCheckpointsFrom,
    rounds: opts.repeat,
    totalSeconds: Math.round(seconds),
    loadTime: load,
    files,
    media,
    runs,
    minimum: Object.fromEntries(
      opts.sizes.map((n) => [n, Object.fromEntries(STEPS.map((s) => [s, minimum(s, n)]))]),
    ),
    targets: [
      ...targets(runs, opts.sizes, opts.latencies),
      {
        target: 'require("pulumi-mediahost"): at most 20 ms beyond require("@pulumi/pulumi")',
        measured: `${load.extra} ms (${load.provider} ms against ${load.sdk} ms, medians of 15 runs each)`,
        met: load.extra <= 20,
      },
      ...(files ? filesTargets(files) : []),
    ] as Target[],
  };
  progress(`done in ${seconds.toFixed(0)} s`);
  if (opts.out) writeFileSync(opts.out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    opts.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : render(report, runs, opts.sizes, opts.latencies) +
          (files ? renderFiles(files) : "") +
          media.map(renderMedia).join(""),
  );
}

/**
 * A module preloaded into every profiled Node.js process: the engine stops its plugins with a
 * signal, and a process killed by a signal writes no profile, so a signal exits normally instead.
 */
function exitOnSignal(dir: string): string {
  const file = join(dir, "exit-on-signal.js");
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, 'for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));\n');
  return file;
}

interface Scenario {
  report: RunReport;
  runStep(step: Step): Promise<void>;
  finish(): Promise<void>;
}

async function openScenario(
  toolchain: Awaited<ReturnType<typeof provisionToolchain>>,
  ws: Awaited<ReturnType<typeof createWorkspace>>,
  mode: Mode,
  n: number,
  latencyMs: number,
  round: number,
  opts: Options,
): Promise<Scenario> {
  const skipCheckpoints = n >= opts.skipCheckpointsFrom;
  const stack = `${mode}-n${n}-l${latencyMs}-r${round}`;
  const emulator = mode === "baseline" ? undefined : await startEmulator({ latencyMs, log: () => {} });
  // the hourly counters (7,000 REST calls, 50 account updates) would stop N=500 mid-run: lift
  // them; the counts say what a run costs against them
  for (const counter of Object.keys(counterLimits))
    emulator?.control.setLimit({ counter, limit: Number.MAX_SAFE_INTEGER });
  await runPulumi(toolchain, ws, ["stack", "init", stack]);
  const config = [
    ["--plaintext", `bench:n=${n}`],
    ["--plaintext", `bench:mode=${mode}`],
    ...(emulator
      ? [
          ["--plaintext", `mediahost:baseUrl=${emulator.url}`],
          ["--plaintext", "mediahost:clientId=demo-client"],
          ["--secret", "mediahost:clientSecret=demo-secret"],
        ]
      : []),
  ].flat();
  await runPulumi(toolchain, ws, ["config", "set-all", "--stack", stack, ...config]);
  const report: RunReport = {
    mode,
    n,
    latencyMs,
    round,
    resources: 3 * n + 1 + ALIASES,
    skipCheckpoints,
    steps: {} as Record<Step, StepResult>,
  };
  let since = emulator?.control.requests(0).next ?? 0;
  return {
    report,
    async runStep(step) {
      progress(`${stack}: ${STEP_LABEL[step]}`);
      const profileDir = opts.cpuProf ? join(opts.cpuProf, `${stack}-${step}`) : undefined;
      if (profileDir) mkdirSync(profileDir, { recursive: true });
      let result: RunResult;
      try {
        result = await runPulumi(toolchain, ws, stepArgs(step, stack, opts.parallel), {
          BENCH_LATENCY_MS: String(latencyMs),
          ...(skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
          ...(profileDir
            ? {
                NODE_OPTIONS: `--require ${exitOnSignal(opts.cpuProf as string)} --cpu-prof --cpu-prof-dir=${profileDir}`,
              }
            : {}),
        });
      } catch (err) {
        throw new Error(`${stack} ${STEP_LABEL[step]}: ${(err as Error).message}`);
      }
      const entry: StepResult = {
        ms: Math.round(result.ms),
        providerRssBytes: result.providerRss,
        cpu: result.cpu,
      };
      if (emulator) {
        const counted = countCalls(emulator, since);
        since = counted.next;
        entry.calls = counted.calls;
        if (counted.accountWritesAtMs.length > 0) entry.accountWritesAtMs = counted.accountWritesAtMs;
      }
      report.steps[step] = entry;
      progress(
        `  ${(result.ms / 1000).toFixed(1)} s, provider RSS ${(result.providerRss / 1048576).toFixed(0)} MiB` +
          `, CPU engine/program/provider ${cpuText(result.cpu)} s` +
          (entry.calls ? `, ${total(entry.calls)} calls ${JSON.stringify(entry.calls)}` : "") +
          (entry.accountWritesAtMs ? `, account updates at ${entry.accountWritesAtMs.join(", ")} ms` : ""),
      );
      if (profileDir) {
        const profile = providerProfile(profileDir);
        const text = profile
          ? renderProfile(`${stack} ${STEP_LABEL[step]}`, profile)
          : "no provider profile found";
        writeFileSync(join(profileDir, "top.txt"), `${text}\n`);
        progress(text);
      }
      if (step === "up") report.state = measureState(stateFile(ws, stack));
    },
    async finish() {
      try {
        await runPulumi(toolchain, ws, ["stack", "rm", "--yes", "--force", "--stack", stack]);
      } finally {
        await emulator?.stop();
      }
    },
  };
}

/**
 * A program of `mode` with N at 0 ms on a fresh emulator and stack: each step's calls by operation
 * beside `floor`, and the state after `up`.
 */
async function floorScenario<S extends Step>(
  toolchain: Awaited<ReturnType<typeof provisionToolchain>>,
  ws: Awaited<ReturnType<typeof createWorkspace>>,
  mode: "files" | "media",
  n: number,
  plan: S[],
  floor: (step: S, n: number) => Calls,
  face: Face = "ours",
): Promise<{ steps: FloorSteps<S>; state: StateReport }> {
  const stack = `${mode}-${face}-n${n}`;
  const emulator = await startEmulator({ log: () => {} });
  try {
    for (const counter of Object.keys(counterLimits))
      emulator.control.setLimit({ counter, limit: Number.MAX_SAFE_INTEGER });
    await runPulumi(toolchain, ws, ["stack", "init", stack]);
    await runPulumi(toolchain, ws, [
      "config",
      "set-all",
      "--stack",
      stack,
      "--plaintext",
      `bench:n=${n}`,
      "--plaintext",
      `bench:mode=${mode}`,
      "--plaintext",
      `bench:face=${face}`,
      "--plaintext",
      `mediahost:baseUrl=${emulator.url}`,
      "--plaintext",
      "mediahost:clientId=demo-client",
      "--secret",
      "mediahost:clientSecret=demo-secret",
    ]);
    const steps = {} as FloorSteps<S>;
    let since = emulator.control.requests(0).next;
    let state: StateReport | undefined;
    for (const step of plan) {
      progress(`${stack}: ${STEP_LABEL[step]}`);
      let result: RunResult;
      try {
        result = await runPulumi(toolchain, ws, stepArgs(step, stack));
      } catch (err) {
        throw new Error(`${stack} ${STEP_LABEL[step]}: ${(err as Error).message}`);
      }
      const counted = countCalls(emulator, since);
      since = counted.next;
      steps[step] = {
        ms: Math.round(result.ms),
        cpu: result.cpu,
        calls: counted.calls,
        floor: floor(step, n),
      };
      progress(
        `  ${(result.ms / 1000).toFixed(1)} s, CPU engine/program/provider ${cpuText(result.cpu)} s, ` +
          `${total(counted.calls)} calls ${JSON.stringify(counted.calls)}`,
      );
      if (step === "up") state = measureState(stateFile(ws, stack));
    }
    await runPulumi(toolchain, ws, ["stack", "rm", "--yes", "--force", "--stack", stack]);
    return { steps, state: state as StateReport };
  } finally {
    await emulator.stop();
  }
}

async function filesScenario(
  toolchain: Awaited<ReturnType<typeof provisionToolchain>>,
  ws: Awaited<ReturnType<typeof createWorkspace>>,
  n: number,
): Promise<FilesReport> {
  const { steps, state } = await floorScenario(toolchain, ws, "files", n, FILE_STEPS, filesFloor);
  return { n, fileBytes: 100 * 1024, steps, stateBytesPerFile: state.bytesPerResource.File ?? 0 };
}

async function mediaScenario(
  toolchain: Awaited<ReturnType<typeof provisionToolchain>>,
  ws: Awaited<ReturnType<typeof createWorkspace>>,
  n: number,
  face: Face,
): Promise<MediaReport> {
  const { steps, state } = await floorScenario(toolchain, ws, "media", n, MEDIA_STEPS, mediaFloor, face);
  return {
    face,
    n,
    fileBytes: MEDIA_FILE_BYTES,
    resources: 4 * n + 1,
    steps,
    stateBytesPerResource: state.bytesPerResource,
  };
}

main().catch((err) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
