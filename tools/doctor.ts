#!/usr/bin/env node
// mediahost-doctor: a safe first contact with the real service. It reads the account the way the
// provider will and prints, for each fact docs/api.md marks [likely] or [unknown], what the
// service answered and whether the provider handles it (naming the emulator variant that plays
// that answer). Read-only unless --write-probe names a folder to make and remove. Never prints a
// secret. Exit 0: every fact observed holds or is handled; 1: one is not, or the service could not
// be asked; 2: a usage error; 130/143: interrupted by SIGINT/SIGTERM (after cleaning up).
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { credentialsFor, resolveAccounts } from "../provider/for-tools";
import { Interrupted, runDoctor, UsageError } from "./lib/doctor-probe";
import { renderTable, Secrets } from "./lib/doctor-report";
import { locatePulumi } from "./lib/pulumi-cli";
import { runMain } from "./lib/run";

const USAGE = `Usage: mediahost-doctor [--base-url URL] [--client-id ID] [--client-secret-stdin]
                        [--stack NAME [--cwd DIR] [--pulumi PATH]] [--account NAME]
                        [--write-probe PREFIX] [--json]

Checks what the service answers against every fact docs/api.md marks [likely] or [unknown], and
prints one row per fact: what the docs expect, what the service answered, and whether the
provider handles it (naming the emulator variant that plays that answer). Read-only by default.

Credentials, as the provider finds them (a flag first, then the stack's config, then the
environment: MEDIAHOST_BASE_URL, MEDIAHOST_CLIENT_ID, MEDIAHOST_CLIENT_SECRET):
  --base-url URL          the service, e.g. https://api.example.com
  --client-id ID          the API client's ID
  --client-secret-stdin   read the client secret from stdin (else MEDIAHOST_CLIENT_SECRET; never
                          a flag's value, which other users see in \`ps\`)
  --stack NAME            read mediahost:baseUrl, clientId, clientSecret and accounts from this
                          stack's config (\`pulumi config --show-secrets\`; its secrets provider needs
                          what it always needs, e.g. PULUMI_CONFIG_PASSPHRASE)
  --cwd DIR               the stack's program directory, holding Pulumi.yaml (default: .)
  --pulumi PATH           the pulumi CLI (default: pulumi on PATH, then $PULUMI_HOME/bin, ~/.pulumi/bin)
  --account NAME          the account NAME of mediahost:accounts (default: the default account)

  --write-probe PREFIX    also make and remove one folder and one small file under PREFIX, an
                          absolute folder path that must not exist (its parent must): shows what
                          only a write shows. It removes what it made, also when interrupted.
  --json                  print the report as JSON (for CI)

Exit status: 0 every fact observed holds or is handled, 1 one is not (or the service could not be
asked), 2 a usage error, 130/143 interrupted (after removing what the probe made).`;

const secrets = new Secrets();
const progress = (line: string) => process.stderr.write(`mediahost-doctor: ${secrets.redact(line)}\n`);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** The stack's config as `pulumi config --json --show-secrets` prints it: key → value. */
async function stackConfig(
  stack: string,
  cwd: string,
  pulumi: string | undefined,
): Promise<Record<string, string>> {
  const cli = locatePulumi(pulumi);
  const { stdout } = await promisify(execFile)(
    cli.binary,
    ["config", "--json", "--show-secrets", "--stack", stack, "--cwd", cwd],
    { env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" }, maxBuffer: 16 * 1024 * 1024 },
  ).catch((err: { stderr?: string; message: string }) => {
    throw new Error(`pulumi config of stack ${stack}: ${(err.stderr ?? "").trim() || err.message}`);
  });
  const parsed = JSON.parse(stdout) as Record<string, { value?: unknown; objectValue?: unknown }>;
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(parsed)) {
    const value = entry.objectValue ?? entry.value;
    if (value !== undefined) out[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}

/** The folder --write-probe names: absolute, not the root, no `.` or `..`; without a trailing slash. */
function probePrefix(raw: string): string {
  const prefix = raw.replace(/\/+$/, "");
  if (!raw.startsWith("/"))
    throw new UsageError(`--write-probe: must be an absolute folder path, got "${raw}"`);
  if (prefix === "") throw new UsageError("--write-probe: must name a folder below /, never / itself");
  if (
    prefix
      .split("/")
      .slice(1)
      .some((p) => p === "" || p === "." || p === "..")
  )
    throw new UsageError(`--write-probe: must be a plain path without //, . or .., got "${raw}"`);
  return prefix;
}

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (err) {
    progress(`error: ${(err as Error).message} (see --help)`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let stopSignal: NodeJS.Signals | undefined;
  try {
    const prefix = values["write-probe"] === undefined ? undefined : probePrefix(values["write-probe"]);
    const stack = values.stack
      ? await stackConfig(values.stack, resolve(values.cwd ?? "."), values.pulumi)
      : {};
    if (!values.stack && (values.cwd || values.pulumi))
      throw new UsageError("--cwd and --pulumi go with --stack");
    const flags: Record<string, string | undefined> = {
      "mediahost:baseUrl": values["base-url"],
      "mediahost:clientId": values["client-id"],
      "mediahost:clientSecret": values["client-secret-stdin"] ? await readStdin() : undefined,
    };
    const config = (key: string) => flags[key] ?? stack[key];
    secrets.add(config("mediahost:clientSecret"));
    secrets.add(process.env.MEDIAHOST_CLIENT_SECRET);
    let credentials: ReturnType<typeof credentialsFor>;
    try {
      credentials = credentialsFor(resolveAccounts({ config, env: process.env }), values.account);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }

    // a signal stops the probe after its current call; it then removes what it made
    const onSignal = (signal: NodeJS.Signals) => {
      if (!prefix) process.exit(signal === "SIGINT" ? 130 : 143);
      if (stopSignal) return progress("still removing what the probe made");
      stopSignal = signal;
      progress(`${signal}: stopping, removing what the probe made`);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);

    const report = await runDoctor(
      { credentials, writeProbe: prefix, say: progress, stopping: () => !!stopSignal },
      secrets,
    );
    if (stopSignal) throw new Interrupted("interrupted");
    const out = values.json ? JSON.stringify(report, null, 2) : renderTable(report);
    process.stdout.write(`${secrets.redact(out)}\n`);
    return report.ok ? 0 : 1;
  } catch (err) {
    if (err instanceof Interrupted || stopSignal) {
      progress(`interrupted by ${stopSignal ?? "a signal"}`);
      return stopSignal === "SIGTERM" ? 143 : 130;
    }
    progress(`error: ${err instanceof Error ? err.message : String(err)}`);
    return err instanceof UsageError ? 2 : 1;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      "base-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret-stdin": { type: "boolean" },
      stack: { type: "string" },
      cwd: { type: "string" },
      pulumi: { type: "string" },
      account: { type: "string" },
      "write-probe": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
}

runMain(main, progress);
