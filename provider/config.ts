// The provider's configuration, the same for both faces: what the stack config (the dynamic
// provider's `configure()`, or the native provider's Configure RPC) and the environment say, read
// and checked once into a `Configuration`. Nothing below this module reads the stack config or the
// environment.
//
//   mediahost:baseUrl, mediahost:clientId, mediahost:clientSecret (secret)  -> account "default"
//   mediahost:accounts (secret object) { "<name>": { baseUrl?, clientId, clientSecret } }
//   MEDIAHOST_BASE_URL, MEDIAHOST_CLIENT_ID, MEDIAHOST_CLIENT_SECRET          -> fallback for "default"
//   mediahost:operationTimeoutSeconds, mediahost:maxRateLimitWaitSeconds       -> the client's deadlines
//   MEDIAHOST_OPERATION_TIMEOUT_SECONDS, MEDIAHOST_MAX_RATE_LIMIT_WAIT_SECONDS   -> fallback for those two
//   mediahost:rateBudgetPercent (else MEDIAHOST_RATE_BUDGET_PERCENT)          -> the run's share of each counter
//   MEDIAHOST_JOURNAL_DIR, else $PULUMI_HOME/mediahost/journal                  -> the stack journal
//   $XDG_CACHE_HOME (else ~/.cache)/pulumi-mediahost/tus-uploads.json          -> unfinished large uploads

import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { MediahostClient } from "./client";
import { ProviderError } from "./client/errors";
import { containsUnknown } from "./diff";
import { isExpected } from "./errors";

export const DEFAULT_ACCOUNT = "default";

export interface Credentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Reads one key of the stack config (`mediahost:<key>`), as `configure()` and `pulumi.Config` both offer it. */
export type ConfigReader = (key: string) => string | undefined;

export interface CredentialSources {
  config: ConfigReader;
  env: NodeJS.ProcessEnv;
}

/** The keys of the `mediahost` namespace the provider reads. */
export const CONFIG_KEYS = [
  "baseUrl",
  "clientId",
  "clientSecret",
  "accounts",
  "maxRateLimitWaitSeconds",
  "operationTimeoutSeconds",
  "rateBudgetPercent",
] as const;

/** Everything the provider takes from its configuration, checked. */
export interface Configuration {
  /** Every account the stack names; an account whose keys are missing is the error that says which. */
  readonly accounts: Map<string, Credentials | Error>;
  /**
   * The client's bounds (each operation's deadline, the longest wait for a rate-limit reset) and
   * where large uploads keep what resumes them in a later run.
   */
  readonly client: {
    deadlineMs?: number;
    maxRateLimitWaitMs?: number;
    rateBudgetPercent?: number;
    uploadResumeFile: string;
  };
  /** Where this machine keeps the stack journal (provider/journal.ts). */
  readonly journalDir: string;
  /** A digest of everything above: equal digests, equal configurations (never the secrets themselves). */
  readonly digest: string;
}

/** Reads and checks the configuration; a bad setting is an error naming its key and the rule. */
export function readConfiguration({ config, env }: CredentialSources): Configuration {
  const maxWait = secondsSetting(config, env, "maxRateLimitWaitSeconds", 0);
  const deadline = secondsSetting(config, env, "operationTimeoutSeconds", 1);
  const share = percentSetting(config, env, "rateBudgetPercent");
  const journalDir =
    env.MEDIAHOST_JOURNAL_DIR || join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "mediahost", "journal");
  const resumeFile = uploadResumeFile(env);
  const raw = [
    CONFIG_KEYS.map((k) => config(`mediahost:${k}`) ?? null),
    ENV_KEYS.map((k) => env[k] ?? null),
    journalDir,
    resumeFile,
  ];
  return {
    accounts: resolveAccounts({ config, env }),
    client: {
      ...(maxWait === undefined ? {} : { maxRateLimitWaitMs: maxWait * 1000 }),
      ...(deadline === undefined ? {} : { deadlineMs: deadline * 1000 }),
      ...(share === undefined ? {} : { rateBudgetPercent: share }),
      uploadResumeFile: resumeFile,
    },
    journalDir,
    digest: createHash("sha256").update(JSON.stringify(raw)).digest("hex"),
  };
}

/** The environment variable each configuration key falls back to. */
export const ENV_FALLBACK = {
  baseUrl: "MEDIAHOST_BASE_URL",
  clientId: "MEDIAHOST_CLIENT_ID",
  clientSecret: "MEDIAHOST_CLIENT_SECRET",
  operationTimeoutSeconds: "MEDIAHOST_OPERATION_TIMEOUT_SECONDS",
  maxRateLimitWaitSeconds: "MEDIAHOST_MAX_RATE_LIMIT_WAIT_SECONDS",
  rateBudgetPercent: "MEDIAHOST_RATE_BUDGET_PERCENT",
} as const satisfies Partial<Record<(typeof CONFIG_KEYS)[number], string>>;
const ENV_KEYS = Object.values(ENV_FALLBACK);

/** Where large uploads keep the URLs that resume them in a later run (tus-js-client's file store). */
export function uploadResumeFile(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-mediahost", "tus-uploads.json");
}

/**
 * A number of seconds from the stack config, else its environment variable:
 * `mediahost:maxRateLimitWaitSeconds` (how long a call may wait for an exhausted rate-limit
 * counter, default 60, 0 never waits) and `mediahost:operationTimeoutSeconds` (each API
 * operation's deadline, retries included, default 30).
 */
function secondsSetting(
  config: ConfigReader,
  env: NodeJS.ProcessEnv,
  name: "maxRateLimitWaitSeconds" | "operationTimeoutSeconds",
  min: number,
): number | undefined {
  const fromConfig = config(`mediahost:${name}`);
  const raw = fromConfig ?? env[ENV_FALLBACK[name]];
  if (raw === undefined || raw === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < min) {
    const where = fromConfig === undefined ? ENV_FALLBACK[name] : `mediahost:${name}`;
    throw new ProviderError(`${where}: must be a number of seconds >= ${min}, got "${raw}"`);
  }
  return seconds;
}

/** Every account the stack names, by name. Errors name the config key at fault, never a value. */
export function resolveAccounts({ config, env }: CredentialSources): Map<string, Credentials | Error> {
  const accounts = new Map<string, Credentials | Error>();
  const baseUrl = config("mediahost:baseUrl") ?? env[ENV_FALLBACK.baseUrl];
  const clientId = config("mediahost:clientId") ?? env[ENV_FALLBACK.clientId];
  const clientSecret = config("mediahost:clientSecret") ?? env[ENV_FALLBACK.clientSecret];
  accounts.set(DEFAULT_ACCOUNT, completeOrError("mediahost", { baseUrl, clientId, clientSecret }));

  const raw = config("mediahost:accounts");
  if (raw !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ProviderError("mediahost:accounts: must be a JSON object of account names");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new ProviderError("mediahost:accounts: must be an object keyed by account name");
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      const entry = (value ?? {}) as Record<string, unknown>;
      const str = (k: string) => (typeof entry[k] === "string" ? (entry[k] as string) : undefined);
      accounts.set(
        name,
        completeOrError(`mediahost:accounts.${name}`, {
          baseUrl: str("baseUrl") ?? baseUrl,
          clientId: str("clientId"),
          clientSecret: str("clientSecret"),
        }),
      );
    }
  }
  return accounts;
}

function completeOrError(where: string, c: Partial<Credentials>): Credentials | Error {
  const missing = (["baseUrl", "clientId", "clientSecret"] as const).filter((k) => !c[k]);
  if (missing.length === 0) return c as Credentials;
  const hint =
    where === "mediahost"
      ? " (set them with `pulumi config set mediahost:<key>`, clientSecret with --secret, or MEDIAHOST_BASE_URL, MEDIAHOST_CLIENT_ID, MEDIAHOST_CLIENT_SECRET)"
      : "";
  return new ProviderError(`${missing.map((k) => `${where}.${k}`).join(", ")}: not set${hint}`);
}

/** The credentials of `name`, or an error that says which config keys to set. */
export function credentialsFor(
  accounts: Map<string, Credentials | Error>,
  name: string | undefined,
): Credentials {
  const key = name ?? DEFAULT_ACCOUNT;
  const found = accounts.get(key);
  if (!found) {
    const known = [...accounts.keys()].filter((k) => k !== DEFAULT_ACCOUNT);
    throw new ProviderError(
      `account: "${key}" is not configured under mediahost:accounts` +
        (known.length ? ` (configured: ${known.join(", ")})` : ""),
    );
  }
  if (found instanceof Error) throw found;
  return found;
}

/**
 * `mediahost:rateBudgetPercent`: the share of each rate-limit counter's hourly limit one run may
 * spend, above 0 and at most 100 (default: no bound but the service's).
 */
function percentSetting(
  config: ConfigReader,
  env: NodeJS.ProcessEnv,
  name: "rateBudgetPercent",
): number | undefined {
  const fromConfig = config(`mediahost:${name}`);
  const raw = fromConfig ?? env[ENV_FALLBACK[name]];
  if (raw === undefined || raw === "") return undefined;
  const percent = Number(raw);
  if (!Number.isFinite(percent) || percent <= 0 || percent > 100) {
    const where = fromConfig === undefined ? ENV_FALLBACK[name] : `mediahost:${name}`;
    throw new ProviderError(`${where}: must be a percent above 0 and at most 100, got "${raw}"`);
  }
  return percent;
}

/** A config key's value as this module reads config, from a provider's arguments: strings, objects as JSON. */
export function readerOf(args: Record<string, unknown>): ConfigReader {
  return (key) => {
    const value = args[key.replace(/^mediahost:/, "")];
    if (value === undefined || value === null) return undefined;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
}

/** A configuration key that is wrong, and why. */
export interface ConfigFailure {
  property: string;
  reason: string;
}

/**
 * What is wrong with a provider's configuration, key by key, before anything runs (a preview):
 * unknown keys, bad settings, an account whose credentials cannot make a client, and a
 * configuration that reaches no account at all. Values still unknown (a preview of a provider
 * whose arguments come from other resources) are judged once known, at Configure.
 */
export function configFailures(news: Record<string, unknown>): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  const known = new Set<string>([...CONFIG_KEYS, "version"]);
  for (const key of Object.keys(news)) {
    if (!known.has(key)) {
      failures.push({
        property: key,
        reason: `unknown configuration key mediahost:${key} (known: ${CONFIG_KEYS.join(", ")})`,
      });
    }
  }
  const settled = Object.fromEntries(Object.entries(news).filter(([, v]) => !containsUnknown(v)));
  let configuration: Configuration;
  try {
    configuration = readConfiguration({ config: readerOf(settled), env: process.env });
  } catch (err) {
    if (!isExpected(err)) throw err;
    const message = (err as Error).message;
    const key = /mediahost:(\w+)/.exec(message)?.[1] ?? "accounts";
    return [...failures, { property: key, reason: message }];
  }
  let usable = 0;
  for (const [name, credentials] of configuration.accounts) {
    // the key the account's credentials come from: the top-level ones, or its entry under accounts
    const property = name === DEFAULT_ACCOUNT ? undefined : "accounts";
    if (credentials instanceof Error) {
      // not every provider uses its top-level credentials (an `accounts` map may be all it has)
      if (property) failures.push({ property, reason: credentials.message });
      continue;
    }
    try {
      // the client an account's resources would use refuses what it cannot work with
      new MediahostClient({ ...credentials, ...configuration.client });
      usable++;
    } catch (err) {
      if (!isExpected(err)) throw err;
      const reason = (err as Error).message;
      failures.push({ property: property ?? /^(\w+)/.exec(reason)?.[1] ?? "baseUrl", reason });
    }
  }
  const unknownCredentials = ["baseUrl", "clientId", "clientSecret", "accounts"].some(
    (k) => k in news && !(k in settled),
  );
  if (usable === 0 && failures.length === 0 && !unknownCredentials) {
    const missing = configuration.accounts.get(DEFAULT_ACCOUNT);
    const reason = missing instanceof Error ? missing.message : "no account is configured";
    failures.push({ property: /mediahost\.(\w+)/.exec(reason)?.[1] ?? "clientId", reason });
  }
  return failures;
}
