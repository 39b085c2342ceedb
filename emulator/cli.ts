#!/usr/bin/env node
// mediahost-emulator: the local /v2 server on its own. Once ready it prints on stdout, first and
// on a line of its own, `listening on http://HOST:PORT` (tools parse it), then `console: <URL>`,
// and `control token: <token>` when the control surface requires one; SIGTERM or SIGINT stop it
// (exit 0).
import { parseArgs } from "node:util";
import type { Credentials } from "./accounts";
import { type EmulatorOptions, REAL_ACCOUNT_FILES, startEmulator } from "./index";
import { isVariant, VARIANT_NAMES, type VariantName, variantHelp } from "./variants";

const USAGE = `usage: mediahost-emulator [--host 127.0.0.1] [--port 0] [--client-id ID] [--client-secret SECRET]
  [--alias NAME] [--account ALIAS=ID:SECRET ...] [--data DIR] [--latency-ms N] [--latency-jitter-ms N]
  [--fault-rate P] [--drop-rate P] [--seed N] [--variant NAME ...] [--token-ttl S]
  [--allow-host NAME ...] [--control-token TOKEN] [--real-account FILES]
  (--aliases-update replace and --mkdir-exists 409 are the variants aliases-replace and mkdir-exists-409)`;

const HELP = `${USAGE}

--real-account FILES fills the default account with a real-size account of FILES files in nested
folders (${REAL_ACCOUNT_FILES} is the live sample account's size), a third with meta, some with points of
interest, options and meta on some folders (emulator/real-account.ts).

--variant NAME (repeatable) answers one fact that docs/api.md marks [likely] or [unknown] the other
way a real service plausibly could:
${variantHelp()}`;

function fail(message: string): never {
  process.stderr.write(`mediahost-emulator: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function number(
  name: string,
  raw: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    fail(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

function account(spec: string): Credentials {
  const m = /^([^=]+)=([^:]+):(.*)$/.exec(spec);
  if (!m) fail(`--account must look like ALIAS=ID:SECRET, got "${spec}"`);
  return { alias: m[1] as string, clientId: m[2] as string, clientSecret: m[3] as string };
}

function files(raw: string | undefined): number | undefined {
  const n = number("real-account", raw, 0, 1_000_000);
  if (n !== undefined && !Number.isInteger(n)) fail("--real-account must be a whole number of files");
  return n;
}

function controlToken(raw: string | undefined): string | undefined {
  if (raw !== undefined && !/^[\x21-\x7e]{16,}$/.test(raw))
    fail("--control-token must be at least 16 printable characters without spaces");
  return raw;
}

export function parseCli(argv: string[]): EmulatorOptions {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        alias: { type: "string" },
        account: { type: "string", multiple: true },
        data: { type: "string" },
        "latency-ms": { type: "string" },
        "latency-jitter-ms": { type: "string" },
        "fault-rate": { type: "string" },
        "drop-rate": { type: "string" },
        seed: { type: "string" },
        "aliases-update": { type: "string" },
        "mkdir-exists": { type: "string" },
        variant: { type: "string", multiple: true },
        "token-ttl": { type: "string" },
        "allow-host": { type: "string", multiple: true },
        "control-token": { type: "string" },
        "real-account": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const str = (k: string) => values[k] as string | undefined;
  const aliasesUpdate = str("aliases-update");
  if (aliasesUpdate !== undefined && aliasesUpdate !== "merge" && aliasesUpdate !== "replace") {
    fail("--aliases-update must be merge or replace");
  }
  const mkdirExists = str("mkdir-exists");
  if (mkdirExists !== undefined && mkdirExists !== "200" && mkdirExists !== "409") {
    fail("--mkdir-exists must be 200 or 409");
  }
  const variants = ((values.variant as string[] | undefined) ?? []).map((v): VariantName => {
    if (!isVariant(v)) fail(`--variant must be one of ${VARIANT_NAMES.join(", ")}; got "${v}"`);
    return v;
  });
  const options: EmulatorOptions = {
    host: str("host"),
    port: number("port", str("port"), 0, 65535),
    clientId: str("client-id"),
    clientSecret: str("client-secret"),
    alias: str("alias"),
    accounts: ((values.account as string[] | undefined) ?? []).map(account),
    dataDir: str("data"),
    latencyMs: number("latency-ms", str("latency-ms"), 0),
    latencyJitterMs: number("latency-jitter-ms", str("latency-jitter-ms"), 0),
    faultRate: number("fault-rate", str("fault-rate"), 0, 1),
    dropRate: number("drop-rate", str("drop-rate"), 0, 1),
    seed: number("seed", str("seed"), 0),
    aliasesUpdate: variants.includes("aliases-replace") ? "replace" : aliasesUpdate,
    mkdirExists: variants.includes("mkdir-exists-409") ? "409" : mkdirExists,
    variants: variants.length > 0 ? variants : undefined,
    tokenTtlSeconds: number("token-ttl", str("token-ttl"), 1),
    allowHosts: values["allow-host"] as string[] | undefined,
    controlToken: controlToken(str("control-token")),
    realAccount: files(str("real-account")),
  };
  // undefined means "the default": drop the keys not given
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as EmulatorOptions;
}

/** Starts the emulator with the process's arguments (bin/mediahost-emulator.js calls this). */
export async function main(): Promise<void> {
  const emulator = await startEmulator(parseCli(process.argv.slice(2))).catch((e: Error) => fail(e.message));
  // one write: the listening line first and whole, as tools read it
  const lines = [`listening on ${emulator.url}`, `console: ${emulator.consoleUrl}`];
  if (emulator.controlToken !== undefined) lines.push(`control token: ${emulator.controlToken}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    emulator.stop().then(
      () => process.exit(0),
      (e: Error) => {
        process.stderr.write(`mediahost-emulator: ${e.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (require.main === module) void main();
