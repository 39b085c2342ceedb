// Where credentials come from: the stack config read in the dynamic provider's `configure()`
// (never resource inputs, never the serialized provider), then the environment.
//
//   mediahost:baseUrl, mediahost:clientId, mediahost:clientSecret (secret)  -> account "default"
//   mediahost:accounts (secret object) { "<name>": { baseUrl?, clientId, clientSecret } }
//   MEDIAHOST_BASE_URL, MEDIAHOST_CLIENT_ID, MEDIAHOST_CLIENT_SECRET          -> fallback for "default"

import { ProviderError } from "./client/errors";

export const DEFAULT_ACCOUNT = "default";

export interface Credentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Reads one key of the stack config, as `configure()` and `pulumi.Config` both offer it. */
export type ConfigReader = (key: string) => string | undefined;

export interface CredentialSources {
  config: ConfigReader;
  env: NodeJS.ProcessEnv;
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
