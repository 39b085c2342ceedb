// The provider's configuration, the same for both faces: what the stack config (the dynamic
// provider's `configure()`, or the native provider's Configure RPC) and the environment say, read
// and checked once into a `Configuration`. Nothing below this module reads the stack config or the
// environment.
//
//   mediahost:baseUrl, mediahost:clientId, mediahost:clientSecret (secret)  -> account "default"
//   mediahost:accounts (secret object) { "<name>": { baseUrl?, clientId, clientSecret } }
//   MEDIAHOST_BASE_URL, MEDIAHOST_CLIENT_ID, MEDIAHOST_CLIENT_SECRET          -> fallback for "default"
//   mediahost:operationTimeoutSeconds, mediahost:maxRateLimitWaitSeconds       -> the client's deadlines
//   MEDIAHOST_JOURNAL_DIR, else $PULUMI_HOME/mediahost/journal                  -> the stack journal

import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { ProviderError } from "./client/errors";

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
] as const;

/** Everything the provider takes from its configuration, checked. */
export interface Configuration {
  /** Every account the stack names; an account whose keys are missing is the error that says which. */
  readonly accounts: Map<string, Credentials | Error>;
  /** The client's bounds: each operation's deadline and the longest wait for a rate-limit reset. */
  readonly client: { deadlineMs?: number; maxRateLimitWaitMs?: number };
  /** Where this machine keeps the stack journal (provider/journal.ts). */
  readonly journalDir: string;
  /** A digest of everything above: equal digests, equal configurations (never the secrets themselves). */
  readonly digest: string;
}

/** Reads and checks the configuration; a bad setting is an error naming its key and the rule. */
export function readConfiguration({ config, env }: CredentialSources): Configuration {
  const maxWait = secondsSetting(config, "maxRateLimitWaitSeconds", 0);
  const deadline = secondsSetting(config, "operationTimeoutSeconds", 1);
  const journalDir =
    env.MEDIAHOST_JOURNAL_DIR || join(env.PULUMI_HOME || join(homedir(), ".pulumi"), "mediahost", "journal");
  const raw = [
    CONFIG_KEYS.map((k) => config(`mediahost:${k}`) ?? null),
    env.MEDIAHOST_BASE_URL,
    env.MEDIAHOST_CLIENT_ID,
    env.MEDIAHOST_CLIENT_SECRET,
    journalDir,
  ];
  return {
    accounts: resolveAccounts({ config, env }),
    client: {
      ...(maxWait === undefined ? {} : { maxRateLimitWaitMs: maxWait * 1000 }),
      ...(deadline === undefined ? {} : { deadlineMs: deadline * 1000 }),
    },
    journalDir,
    digest: createHash("sha256").update(JSON.stringify(raw)).digest("hex"),
  };
}

/**
 * A number of seconds from the stack config: `mediahost:maxRateLimitWaitSeconds` (how long a call
 * may wait for an exhausted rate-limit counter, default 60, 0 never waits) and
 * `mediahost:operationTimeoutSeconds` (each API operation's deadline, retries included, default 30).
 */
function secondsSetting(config: ConfigReader, name: string, min: number): number | undefined {
  const raw = config(`mediahost:${name}`);
  if (raw === undefined || raw === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < min) {
    throw new ProviderError(`mediahost:${name}: must be a number of seconds >= ${min}, got "${raw}"`);
  }
  return seconds;
}

/** Every account the stack names, by name. Errors name the config key at fault, never a value. */
export function resolveAccounts({ config, env }: CredentialSources): Map<string, Credentials | Error> {
  const accounts = new Map<string, Credentials | Error>();
  const baseUrl = config("mediahost:baseUrl") ?? env.MEDIAHOST_BASE_URL;
  const clientId = config("mediahost:clientId") ?? env.MEDIAHOST_CLIENT_ID;
  const clientSecret = config("mediahost:clientSecret") ?? env.MEDIAHOST_CLIENT_SECRET;
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
