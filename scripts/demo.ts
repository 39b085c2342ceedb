// `npm run demo`: the quickstart (examples/quickstart) with the real Pulumi CLI against the
// embedded emulator, end to end, in a throwaway stack:
//   provision the CLI -> start the emulator -> up -> outputs -> three out-of-band changes ->
//   drift check (resource, property, state value, account value) -> up --refresh -> destroy
// and a summary (resources, drift found and fixed, wall time, API calls by operation).
//
// Nothing outside a temporary directory is kept: the stack lives on a temporary file backend,
// and the per-stack config file the CLI writes beside the program is removed at the end.
// Exit code 0 only if every step succeeded and the drift was found and fixed.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import {
  type EngineEvent,
  LocalWorkspace,
  type OpType,
  PulumiCommand,
  type Stack,
} from "@pulumi/pulumi/automation";
import { startEmulator } from "mediahost-emulator";
import { MediahostClient } from "../provider/client";
import { observationsOf } from "../tools/lib/diff";

const repoRoot = resolve(__dirname, "../..");
const programDir = join(repoRoot, "examples/quickstart");
/** Public on purpose: the demo's state is thrown away at the end. */
const DEMO_PASSPHRASE = "mediahost-demo";
const CLIENT = { clientId: "demo-client", clientSecret: "demo-secret" };

export interface DriftEntry {
  resource: string;
  type: string;
  property: string;
  stateValue: string;
  accountValue: string;
}

export interface DemoSummary {
  resources: number;
  drift: DriftEntry[];
  fixed: number;
  wallSeconds: number;
  apiCalls: Record<string, number>;
}

export interface DemoOptions {
  /** Progress lines (default: stdout). */
  log?: (line: string) => void;
}

const short = (urn: string) => urn.split("::").pop() ?? urn;
const typeOf = (type: string) =>
  type.replace(/^pulumi-nodejs:dynamic\//, "").replace(/^mediahost:/, "mediahost:");

const isSecret = (v: unknown) =>
  v === "[secret]" || (!!v && typeof v === "object" && "4dabf18193072939515e22adb298388d" in v);

/** Renders a state value for the drift table; secrets stay masked. */
function show(value: unknown): string {
  if (value === undefined) return "(absent)";
  return isSecret(value) ? "[secret]" : JSON.stringify(value);
}

/** Leaf properties (dotted paths) whose values differ between a and b. */
export function changedPaths(a: unknown, b: unknown, prefix = ""): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> =>
    !!v && typeof v === "object" && !Array.isArray(v) && !isSecret(v);
  // a secret's value is not in the engine's events: it cannot be compared, so it is not reported
  if (isSecret(a) || isSecret(b)) return [];
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((k) => k !== "__provider")
      .sort();
    return keys.flatMap((k) => changedPaths(a[k], b[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}

function at(value: unknown, path: string): unknown {
  let v = value;
  for (const k of path.split("."))
    v = v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

async function provisionToolchain(log: (line: string) => void): Promise<string[]> {
  const script = join(repoRoot, "scripts/toolchain/provision.sh");
  log(
    "provisioning the Pulumi CLI (cached after the first run; a cold build from Go source takes ~8 minutes)",
  );
  const started = Date.now();
  const ticker = setInterval(
    () => log(`  ...still provisioning (${Math.round((Date.now() - started) / 1000)}s)`),
    30_000,
  );
  try {
    const stdout = await new Promise<string>((res, rej) => {
      const child = execFile("bash", [script], { cwd: repoRoot, maxBuffer: 64 << 20 }, (err, out) =>
        err ? rej(new Error(`${script} failed: ${err.message.split("\n")[0]}`)) : res(out),
      );
      child.stderr?.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString().split("\n")) if (line.trim()) log(`  ${line}`);
      });
    });
    return stdout.trim().split(delimiter).filter(Boolean);
  } finally {
    clearInterval(ticker);
  }
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoSummary> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const t0 = Date.now();
  const step = (n: number, text: string) =>
    log(`\n[${n}/8] ${text}  (+${((Date.now() - t0) / 1000).toFixed(1)}s)`);

  step(1, "toolchain");
  const binDirs = await provisionToolchain(log);
  const pulumiDir =
    binDirs.find((d) => existsSync(join(d, "pulumi"))) ??
    (process.env.PATH ?? "").split(delimiter).find((d) => d && existsSync(join(d, "pulumi")));
  if (!pulumiDir) throw new Error("no pulumi CLI after provisioning");

  const tmp = await mkdtemp(join(tmpdir(), "mediahost-demo-"));
  const stackName = `demo-${randomBytes(3).toString("hex")}`;
  const stackConfigFile = join(programDir, `Pulumi.${stackName}.yaml`);
  const emulator = await startEmulator({ log: () => {} });
  // Ctrl-C: leave no stack config file in the example directory
  const onSignal = () => {
    rmSync(stackConfigFile, { force: true });
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let stack: Stack | undefined;
  try {
    // PulumiCommand wants <root>/bin/pulumi
    let root = dirname(pulumiDir);
    if (basename(pulumiDir) !== "bin") {
      root = join(tmp, "cli");
      await mkdir(join(root, "bin"), { recursive: true });
      await symlink(join(pulumiDir, "pulumi"), join(root, "bin", "pulumi"));
    }
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    await mkdir(join(tmp, "state"));
    await mkdir(join(tmp, "home"));
    Object.assign(env, {
      PATH: [...binDirs, join(repoRoot, "node_modules/.bin"), process.env.PATH ?? ""].join(delimiter),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_BACKEND_URL: `file://${join(tmp, "state")}`,
      PULUMI_HOME: join(tmp, "home"),
      PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
    });
    delete env.PULUMI_ACCESS_TOKEN;

    step(2, `emulator listening on ${emulator.url}; stack ${stackName} on a temporary file backend`);
    log(`  console: ${emulator.consoleUrl} (open it to watch the account and the calls while the demo runs)`);
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: programDir },
      { pulumiCommand: await PulumiCommand.get({ root }), envVars: env },
    );
    const originPassword = randomBytes(12).toString("hex");
    await stack.setAllConfig({
      "mediahost:baseUrl": { value: emulator.url },
      "mediahost:clientId": { value: CLIENT.clientId },
      "mediahost:clientSecret": { value: CLIENT.clientSecret, secret: true },
      originPassword: { value: originPassword, secret: true },
    });
    log(
      "  config: mediahost:baseUrl, mediahost:clientId, mediahost:clientSecret (secret), originPassword (secret)",
    );

    step(3, "pulumi up (examples/quickstart)");
    const onEvent = (verb: Partial<Record<OpType, string>>) => (e: EngineEvent) => {
      const m = e.resOutputsEvent?.metadata;
      if (m && verb[m.op] && m.type.startsWith("pulumi-nodejs:dynamic/")) {
        counted[m.op] = (counted[m.op] ?? 0) + 1;
        log(`  ${verb[m.op]} ${typeOf(m.type).padEnd(26)} ${short(m.urn)}`);
      }
    };
    const counted: Partial<Record<OpType, number>> = {};
    const up = await stack.up({ onEvent: onEvent({ create: "created", update: "updated" }) });
    const resources = counted.create ?? 0;
    log(`  ${up.summary.result}: ${resources} resources`);

    step(4, "outputs");
    for (const [k, v] of Object.entries(up.outputs))
      log(`  ${k.padEnd(14)} ${v.secret ? "[secret]" : JSON.stringify(v.value)}`);

    step(5, "three changes out of band, through the API (as a colleague in the web console would)");
    const api = new MediahostClient({ baseUrl: emulator.url, ...CLIENT });
    await api.ops.updateAccount({ body: { minify: { enabled: false } } });
    log("  account settings: minify turned off");
    await api.ops.setTitle({ query: { filename: "/products/shoes" }, body: { title: "Boots" } });
    log('  folder /products/shoes: title set to "Boots"');
    await api.ops.upload({
      query: { filename: "/assets/watermark.png" },
      body: { bytes: new TextEncoder().encode("not the watermark"), contentType: "image/png" },
    });
    log("  file /assets/watermark.png: overwritten with other content");

    step(6, "drift check: pulumi preview --refresh, state compared with the account per property");
    const drift = await driftCheck(stack);
    if (drift.length === 0) throw new Error("the drift check found nothing, but three things were changed");
    const w = ["resource", "property", "state-value", "account-value"].map((h, i) =>
      Math.max(
        h.length,
        ...drift.map((d) => [d.resource, d.property, d.stateValue, d.accountValue][i]!.length),
      ),
    );
    const row = (cells: string[]) => log(`  ${cells.map((c, i) => c.padEnd(w[i]!)).join("  ")}`.trimEnd());
    row(["resource", "property", "state-value", "account-value"]);
    for (const d of drift) row([d.resource, d.property, d.stateValue, d.accountValue]);
    const drifted = new Set(drift.map((d) => d.resource)).size;
    log(`  drift: ${drift.length} propert${drift.length === 1 ? "y" : "ies"} in ${drifted} resource(s)`);

    step(7, "pulumi up --refresh puts them back");
    await stack.up({ refresh: true, onEvent: onEvent({ update: "restored" }) });
    const fixed = counted.update ?? 0;
    const after = await driftCheck(stack);
    if (after.length > 0) throw new Error(`still drifted after up --refresh: ${JSON.stringify(after)}`);
    const account = emulator.control.state() as { account: { minify?: { enabled?: boolean } } };
    log(
      `  ${fixed} resource(s) updated; account minify is ${JSON.stringify(account.account.minify)}; a new drift check is clean`,
    );

    step(8, "pulumi destroy");
    const destroyed = await stack.destroy({ onEvent: onEvent({ delete: "deleted" }) });
    const deleted = counted.delete ?? 0;
    log(`  ${destroyed.summary.result}: ${deleted} resources deleted`);
    if (deleted !== resources) throw new Error(`created ${resources} resources but deleted ${deleted}`);
    await stack.workspace.removeStack(stackName);

    const apiCalls: Record<string, number> = {};
    for (const r of emulator.control.requests(0).requests) {
      const op = r.operation ?? "unknown";
      apiCalls[op] = (apiCalls[op] ?? 0) + 1;
    }
    const summary: DemoSummary = {
      resources,
      drift,
      fixed,
      wallSeconds: (Date.now() - t0) / 1000,
      apiCalls,
    };
    const total = Object.values(apiCalls).reduce((a, b) => a + b, 0);
    log("\n== summary ==");
    log(`  resources      ${resources} created, ${deleted} destroyed`);
    log(
      `  drift          ${drift.length} properties in ${drifted} resources found (${[...new Set(drift.map((d) => `${d.resource}.${d.property}`))].join(", ")}), ${fixed} resources fixed`,
    );
    log(`  wall time      ${summary.wallSeconds.toFixed(1)}s`);
    log(
      `  API calls      ${total} in all (the emulator's request log, the demo's own out-of-band calls included)`,
    );
    for (const [op, n] of Object.entries(apiCalls).sort((a, b) => b[1] - a[1]))
      log(`    ${op.padEnd(20)} ${n}`);
    return summary;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (stack) await stack.workspace.removeStack(stackName, { force: true }).catch(() => {});
    await rm(stackConfigFile, { force: true });
    await emulator.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * `pulumi preview --refresh`, then per resource the properties whose refreshed value (what the
 * account holds) differs from the state's, for every resource the preview would update or replace.
 */
async function driftCheck(stack: Stack): Promise<DriftEntry[]> {
  const before = await stack.exportStack();
  const state = new Map<string, Record<string, unknown>>();
  for (const r of (before.deployment?.resources ?? []) as {
    urn: string;
    outputs?: Record<string, unknown>;
  }[])
    state.set(r.urn, r.outputs ?? {});
  const changed: { urn: string; type: string; refreshed: Record<string, unknown> }[] = [];
  await stack.preview({
    refresh: true,
    onEvent: (e) => {
      const m = e.resourcePreEvent?.metadata;
      if (!m || !["update", "replace", "create-replacement"].includes(m.op)) return;
      changed.push({
        urn: m.urn,
        type: typeOf(m.type),
        refreshed: (m.old?.outputs ?? {}) as Record<string, unknown>,
      });
    },
  });
  const entries: DriftEntry[] = [];
  for (const c of changed) {
    const old = state.get(c.urn) ?? {};
    // what a kind records as seen (a file's mtime, size, hash) is not drift: a change of content
    // shows once, as its input (`contentSha256`), as mediahost-drift reports it
    const observed = new Set(observationsOf(c.urn));
    for (const property of changedPaths(old, c.refreshed)) {
      if (observed.has(property.split(".")[0] as string)) continue;
      entries.push({
        resource: `${c.type} ${short(c.urn)}`,
        type: c.type,
        property,
        stateValue: show(at(old, property)),
        accountValue: show(at(c.refreshed, property)),
      });
    }
  }
  return entries;
}

if (require.main === module) {
  runDemo().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(
        `\ndemo FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
