#!/usr/bin/env node
// mediahost-drift: what changed in the account behind a stack's back, property by property, for
// one stack or a fleet.
//
// Runs a refresh preview (`pulumi refresh --preview-only`, nothing is written) of each stack
// through the Automation API, and compares, for every resource the refresh would change, the
// state before with what the provider read from the account. Several stacks run with bounded
// concurrency, stacks of one account taking turns (tools/lib/fleet.ts). Each check is planned
// against the account's rate budget first, and its cost read after (tools/lib/paced-check.ts).
// Prints one report (table, JSON, JUnit XML or Markdown) on stdout, progress on stderr. Exit 0: no
// drift; 2: drift in any stack; 1: an error in any stack (the others are still reported); 3: a
// --budget left resources for the next run, with no drift in what was checked.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type EngineEvent, LocalWorkspace, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import { describeBackend } from "./lib/backend";
import { type Counter, checkedOf } from "./lib/budget";
import {
  displayName,
  driftOfStep,
  kindOfUrn,
  nameOfUrn,
  type ResourceDrift,
  type StepMetadata,
} from "./lib/diff";
import { accountsOf, type NamedAccount, parseShard, runFleet, shardOf } from "./lib/fleet";
import { AccountBudgets, planStack } from "./lib/paced-check";
import { cliError, locatePulumi, pathWith, pulumiRoot } from "./lib/pulumi-cli";
import {
  type AccountCalls,
  exitCode,
  FORMATS,
  type Format,
  render,
  type StackReport,
  summarize,
} from "./lib/reports";
import { runMain } from "./lib/run";

const USAGE = `Usage: mediahost-drift [--stack NAME ...] [--all-stacks] [--cwd DIR] [--backend-url URL]
                       [--format table|json|junit|markdown] [--report FORMAT=FILE ...] [--concurrency N]
                       [--shard K/N] [--budget PERCENT] [--resume FILE] [--pulumi PATH]
                       [--run-program]

Runs a refresh preview of Pulumi stacks (nothing is changed) and reports every property whose
value in the account differs from the stack's state, and every resource gone from the account.

  --stack NAME        a stack to check; repeat it for several (default: the stack selected in DIR,
                      or $PULUMI_STACK)
  --all-stacks        check every stack of the project in DIR
  --cwd DIR           the program's directory, holding Pulumi.yaml (default: .)
  --backend-url URL   the state backend (default: $PULUMI_BACKEND_URL, else what \`pulumi login\` chose)
  --format F          table (default), json, junit (JUnit XML: each drifted resource a failed test)
                      or markdown (for a pull-request comment); --json is --format json
  --report F=FILE     also write the report in format F to FILE (repeatable): one check, several
                      reports, e.g. --report junit=drift.xml --report markdown=drift.md
  --concurrency N     stacks checked at once (default 4); stacks of one account take turns
  --shard K/N         check only shard K of N of the stacks (every N-th by name, from the K-th), so
                      that N CI runners split a fleet: run one job per K with the same N
  --budget PERCENT    spend at most this share of each rate-limit counter's hourly limit on each
                      account (a fleet's stacks share it): the resources that fit are checked,
                      the rest left for the next run (exit 3 when that part has no drift)
  --resume FILE       where the resources a --budget left are kept: the next run with the same
                      FILE checks them first
  --pulumi PATH       the pulumi CLI (default: pulumi on PATH, then $PULUMI_HOME/bin, then ~/.pulumi/bin)
  --run-program       run the program first, so that the provider uses the stack's current config
                      (e.g. rotated credentials); by default, as \`pulumi refresh\` does, it uses the
                      provider configuration recorded in the state at the last update

Before each stack, the account's rate-limit counters are read and the refresh's calls counted
from the state: a check that does not fit what is left is not started (one line says what it
needs, what is left and when the counter frees up), and every report shows the calls each
counter spent and their share of the hour.

The stacks' secrets provider needs what it always needs (e.g. PULUMI_CONFIG_PASSPHRASE).
Exit status: 0 no drift, 2 drift found in any stack, 1 an error in any stack, 3 no drift in what
a --budget let be checked, with resources left for the next run.`;

/** One line per distinct message, naming the resources it came from. */
function summarizeErrors(errors: { resource?: string; kind?: string; text: string }[]): string {
  const byText = new Map<string, string[]>();
  for (const e of errors) {
    // the provider names the object first ("Folder /a: ..."): the resources are listed after the cause
    const own = e.kind ? new RegExp(`^${e.kind} [^:]*: `) : undefined;
    const text = e.text.replace(/^Preview failed: /, "").replace(own ?? /^$/, "");
    const list = byText.get(text) ?? [];
    if (e.resource) list.push(e.resource);
    byText.set(text, list);
  }
  // the engine's closing "preview failed" adds nothing when resources said why
  if (byText.size > 1) byText.delete("preview failed");
  return [...byText]
    .map(([text, resources]) => {
      const shown =
        resources.slice(0, 5).join(", ") + (resources.length > 5 ? `, and ${resources.length - 5} more` : "");
      return `  ${text}${resources.length ? ` (${shown})` : ""}`;
    })
    .join("\n");
}

/** What earlier runs left unchecked, by stack (the --resume file; none yet: nothing). */
function readResume(file: string): Record<string, string[]> {
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { left?: Record<string, string[]> };
    return parsed.left ?? {};
  } catch (err) {
    throw new Error(`--resume ${file}: not a file this tool wrote (${(err as Error).message})`);
  }
}

function writeResume(file: string, left: Record<string, string[]>): void {
  const kept = Object.fromEntries(Object.entries(left).filter(([, urns]) => urns.length > 0));
  writeFileSync(file, `${JSON.stringify({ left: kept }, null, 2)}\n`);
}

const progress = (line: string) => process.stderr.write(`mediahost-drift: ${line}\n`);

/** What paces a stack's check: the run's budgets, the stack's accounts, what the last run left. */
interface Pacing {
  budgets: AccountBudgets;
  accounts: Map<string, NamedAccount>;
  leftBefore: ReadonlySet<string>;
  /** Receives the URNs this check leaves for the next run. */
  leave(urns: string[]): void;
}

/** `Folder photos` from a URN. */
function displayOfUrn(urn: string): string {
  const type = urn.split("::")[2]?.split("$").pop() ?? "";
  return displayName({ type, name: nameOfUrn(urn) });
}

/** What a refresh preview's engine events tell: the resources checked, their drift, the errors. */
class Events {
  readonly drifts: ResourceDrift[] = [];
  readonly names: string[] = [];
  readonly errors: { resource?: string; kind?: string; text: string }[] = [];

  constructor(private readonly say: (line: string) => void) {}

  readonly onEvent = (event: EngineEvent): void => {
    const { say, drifts, names } = this;
    const diag = event.diagnosticEvent;
    if (diag?.severity === "error") {
      this.errors.push({
        resource: diag.urn ? nameOfUrn(diag.urn) : undefined,
        kind: diag.urn ? kindOfUrn(diag.urn) : undefined,
        text: diag.message.trim(),
      });
    } else if (diag?.severity === "warning") {
      say(`warning: ${diag.urn ? `${nameOfUrn(diag.urn)}: ` : ""}${diag.message.trim()}`);
    }
    const step = event.resOutputsEvent?.metadata as StepMetadata | undefined;
    if (!step || step.type === "pulumi:pulumi:Stack" || step.type.startsWith("pulumi:providers:")) return;
    names.push(displayName({ type: step.type, name: nameOfUrn(step.urn) }));
    const drift = driftOfStep(step);
    if (drift) {
      drifts.push(drift);
      const what =
        drift.kind === "gone" ? "gone from the account" : drift.properties.map((p) => p.property).join(", ");
      say(`  ~ ${drift.name}: ${what}`);
    }
    if (names.length % 100 === 0) say(`  ${names.length} resources checked`);
  };
}

/** The refresh preview of one stack, as a report (an error is part of the report, not thrown). */
async function checkStack(
  stack: Stack,
  runProgram: boolean,
  pacing: Pacing,
  say: (line: string) => void,
): Promise<StackReport> {
  const started = Date.now();
  const { drifts, names, errors, onEvent } = new Events(say);
  let extra: Partial<StackReport> = {};
  const report = (error?: string): StackReport => {
    drifts.sort((a, b) => a.urn.localeCompare(b.urn));
    return {
      stack: stack.name,
      checked: names.length,
      drift: drifts.length > 0,
      resources: drifts,
      names,
      ...(error ? { error } : {}),
      seconds: (Date.now() - started) / 1000,
      ...extra,
    };
  };
  let plan: Awaited<ReturnType<typeof planStack>>;
  try {
    const { deployment } = await stack.exportStack();
    plan = await planStack(
      checkedOf(deployment?.resources ?? []),
      pacing.accounts,
      pacing.budgets,
      pacing.leftBefore,
    );
  } catch (err) {
    return report(`the check could not be planned: ${cliError(err)}`);
  }
  say(plan.line);
  pacing.leave(plan.left);
  if (plan.left.length)
    extra = {
      left: plan.left.map(displayOfUrn),
      ...(plan.resumeAfter ? { resumeAfter: plan.resumeAfter } : {}),
    };
  if (plan.refusal) return report(plan.refusal);
  // nothing fits: no refresh, and nothing to count
  if (plan.targets?.length === 0) return report();
  let failure: string | undefined;
  try {
    await stack.previewRefresh({ onEvent, runProgram: runProgram ? true : undefined, target: plan.targets });
  } catch (err) {
    const cause = errors.length ? summarizeErrors(errors) : `  ${cliError(err)}`;
    say("the refresh preview failed");
    failure = `the refresh preview failed:\n${cause}`;
  }
  const calls = await spentBy(plan.before, pacing, say);
  if (Object.keys(calls).length) extra = { ...extra, calls };
  if (failure) return report(failure);
  say(`${names.length} resources checked, ${drifts.length} drifted`);
  return report();
}

/** The calls counted on each account since `before`, by account (`<client id> at <host>`) and counter. */
async function spentBy(
  before: Map<string, Record<string, Counter>>,
  pacing: Pacing,
  say: (line: string) => void,
): Promise<AccountCalls> {
  const calls: AccountCalls = {};
  const byKey = new Map([...pacing.accounts.values()].map((a) => [a.key, a]));
  for (const [key, counters] of before) {
    const account = byKey.get(key);
    if (!account) continue;
    try {
      const spent = pacing.budgets.record(key, counters, await pacing.budgets.counters(account));
      calls[`${account.credentials.clientId} at ${new URL(account.credentials.baseUrl).host}`] = spent;
    } catch (err) {
      say(`warning: the calls the check spent could not be read: ${cliError(err)}`);
    }
  }
  return calls;
}

async function main(argv: string[]): Promise<number> {
  const values = parse(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const run = settingsOf(values);
  const { workspace, where } = await openWorkspace(run);
  const names = await stacksToCheck(workspace, run, where);
  const fleet = names.length > 1 || run.shard !== undefined;
  const stacks = await stacksWithAccounts(workspace, names, run.concurrency);
  const leftNow: Record<string, string[]> = {};
  const reports = await checkFleet(stacks, run, where, fleet, leftNow);
  if (fleet) {
    const s = summarize(reports);
    progress(`${s.stacks} stacks: ${s.clean} clean, ${s.drifted} drifted, ${s.failed} failed`);
  }
  const single = reports.length === 1 ? reports[0] : undefined;
  if (single?.error && run.format === "table") {
    // one stack that could not be checked: the error is the answer, as it always was
    throw new Error(single.error);
  }
  if (run.resume) writeResume(run.resume, { ...run.leftBefore, ...leftNow });
  for (const { format: f, file } of run.files) writeFileSync(file, `${render(f, reports)}\n`);
  process.stdout.write(`${render(run.format, reports)}\n`);
  return exitCode(reports);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      stack: { type: "string", multiple: true },
      "all-stacks": { type: "boolean" },
      cwd: { type: "string" },
      "backend-url": { type: "string" },
      format: { type: "string" },
      report: { type: "string", multiple: true },
      json: { type: "boolean" },
      concurrency: { type: "string" },
      shard: { type: "string" },
      budget: { type: "string" },
      resume: { type: "string" },
      pulumi: { type: "string" },
      "run-program": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
}

/** What a run does, from its flags, each checked. */
interface Settings {
  values: ReturnType<typeof parse>;
  format: Format;
  /** The reports also written to files (--report). */
  files: { format: Format; file: string }[];
  concurrency: number;
  shard?: ReturnType<typeof parseShard>;
  /** --budget: the share of each counter's hourly limit a run may spend. */
  share?: number;
  resume?: string;
  /** What earlier runs left unchecked, by stack. */
  leftBefore: Record<string, string[]>;
  workDir: string;
}

function settingsOf(values: ReturnType<typeof parse>): Settings {
  const format = (values.json ? "json" : (values.format ?? "table")) as Format;
  if (!FORMATS.includes(format))
    throw new Error(`--format must be one of ${FORMATS.join(", ")}, got "${values.format}"`);
  const files = (values.report ?? []).map((spec) => {
    const [fmt, file] = [spec.slice(0, spec.indexOf("=")), spec.slice(spec.indexOf("=") + 1)];
    if (!FORMATS.includes(fmt as Format) || !file)
      throw new Error(
        `--report must look like FORMAT=FILE with FORMAT one of ${FORMATS.join(", ")}, got "${spec}"`,
      );
    return { format: fmt as Format, file };
  });
  const concurrency = Number(values.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency must be a whole number >= 1`);
  if (values["all-stacks"] && values.stack) throw new Error("give --stack or --all-stacks, not both");
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const share = values.budget === undefined ? undefined : Number(values.budget);
  if (share !== undefined && !(share > 0 && share <= 100))
    throw new Error(`--budget must be a percent above 0 and at most 100, got "${values.budget}"`);
  const resume = values.resume === undefined ? undefined : resolve(values.resume);
  const leftBefore = resume ? readResume(resume) : {};
  const workDir = resolve(values.cwd ?? ".");
  return { values, format, files, concurrency, shard, share, resume, leftBefore, workDir };
}

/** The project's workspace through the pulumi CLI, and the backend it reaches, as messages name it. */
async function openWorkspace(run: Settings): Promise<{ workspace: LocalWorkspace; where: string }> {
  const { values, workDir } = run;
  const cli = locatePulumi(values.pulumi);
  const envVars: Record<string, string> = {
    PATH: pathWith(cli.binary),
    PULUMI_SKIP_UPDATE_CHECK: process.env.PULUMI_SKIP_UPDATE_CHECK ?? "true",
  };
  const backendUrl = values["backend-url"] ?? process.env.PULUMI_BACKEND_URL;
  if (backendUrl) envVars.PULUMI_BACKEND_URL = backendUrl;
  const pulumiCommand = await PulumiCommand.get({
    root: await pulumiRoot(cli.binary),
    skipVersionCheck: !!process.env.PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK,
  });
  progress(`pulumi ${pulumiCommand.version?.toString() ?? "?"} at ${cli.binary} (from ${cli.source})`);

  const workspace = await LocalWorkspace.create({ workDir, pulumiCommand, envVars });
  // every read goes through the CLI, so any backend it reaches works; messages name it
  const url =
    backendUrl ??
    (await workspace
      .whoAmI()
      .then((w) => w.url)
      .catch(() => undefined));
  const where = url ? describeBackend(url) : "the backend pulumi is logged in to";
  progress(`stacks of ${workDir} on ${where}`);
  // Every command of the Automation API names its stack with --stack, so no stack is selected:
  // `pulumi stack select` would change the user's selected stack as a side effect.
  workspace.selectStack = async () => {};
  return { workspace, where };
}

/** The stacks asked for (each checked to exist), or all of the project's; this shard's of them. */
async function stacksToCheck(workspace: LocalWorkspace, run: Settings, where: string): Promise<string[]> {
  const { values, workDir, shard } = run;
  const known = (await workspace.listStacks()).map((s) => s.name);
  const sameStack = (a: string, b: string) => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
  let names: string[];
  if (values["all-stacks"]) {
    names = known;
    if (names.length === 0) throw new Error(`no stacks in the project of ${workDir} on ${where}`);
  } else {
    const asked =
      values.stack ?? [process.env.PULUMI_STACK ?? (await workspace.stack())?.name].filter((s) => !!s);
    if (asked.length === 0) throw new Error(`no --stack given and no stack selected in ${workDir}`);
    for (const name of asked as string[]) {
      if (!known.some((k) => sameStack(k, name)))
        throw new Error(
          `no stack named '${name}' found in project of ${workDir} on ${where}${known.length ? ` (stacks: ${known.join(", ")})` : ""}`,
        );
    }
    names = asked as string[];
  }
  if (shard) {
    const all = names.length;
    names = shardOf(names, shard);
    progress(`shard ${shard.k}/${shard.n}: ${names.length} of ${all} stacks`);
  }
  return names;
}

/** A stack and the accounts its config reaches, or why its config could not be read. */
type StackAccounts =
  | { name: string; stack: Stack; accounts: Map<string, NamedAccount>; keys: string[]; error?: undefined }
  | { name: string; stack?: undefined; error: string };

/**
 * Which accounts each stack reaches, read from its config within the same bound; a stack whose
 * config cannot be read is reported failed, and the others are still checked.
 */
function stacksWithAccounts(
  workspace: LocalWorkspace,
  names: string[],
  concurrency: number,
): Promise<StackAccounts[]> {
  return runFleet(
    names.map((name) => ({
      keys: [],
      run: async (): Promise<StackAccounts> => {
        try {
          const stack = await Stack.select(name, workspace);
          const config = Object.fromEntries(
            Object.entries(await stack.getAllConfig()).map(([k, v]) => [k, v.value]),
          );
          const accounts = accountsOf(config, process.env);
          return { name, stack, accounts, keys: [...new Set([...accounts.values()].map((a) => a.key))] };
        } catch (err) {
          return { name, error: `its configuration could not be read: ${cliError(err)}` };
        }
      },
    })),
    concurrency,
  );
}

/**
 * Every stack checked, stacks of one account taking turns, what an earlier run left first; the
 * reports in the stacks' order. What each check leaves for the next run goes into `leftNow`.
 */
async function checkFleet(
  stacks: StackAccounts[],
  run: Settings,
  where: string,
  fleet: boolean,
  leftNow: Record<string, string[]>,
): Promise<StackReport[]> {
  const { leftBefore } = run;
  const budgets = new AccountBudgets(run.share, run.shard?.n);
  const tasks = stacks.map((s) => {
    const say = (line: string) => progress(fleet ? `[${s.name}] ${line}` : line);
    if (!s.stack) {
      const failed: StackReport = { stack: s.name, checked: 0, drift: false, resources: [], error: s.error };
      return { keys: [], run: async () => failed };
    }
    const stack = s.stack;
    return {
      keys: s.keys,
      run: () => {
        say(`refresh preview of stack ${s.name} on ${where} (nothing is changed)`);
        const pacing = {
          budgets,
          accounts: s.accounts,
          leftBefore: new Set(leftBefore[s.name] ?? []),
          leave: (urns: string[]) => {
            leftNow[s.name] = urns;
          },
        };
        return checkStack(stack, !!run.values["run-program"], pacing, say);
      },
    };
  });
  // what an earlier run left goes first: stacks of one account take turns in this order
  const leftover = (i: number) => ((leftBefore[stacks[i]!.name]?.length ?? 0) > 0 ? 0 : 1);
  const order = tasks.map((_, i) => i).sort((x, y) => leftover(x) - leftover(y));
  const ran = await runFleet(
    order.map((i) => tasks[i]!),
    run.concurrency,
  );
  return tasks.map((_, i) => ran[order.indexOf(i)]!);
}

runMain(main, progress, cliError);
