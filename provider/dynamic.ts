// The thin adapter between Pulumi's dynamic-provider calls and the resource kinds. The
// serialized provider (sdk/provider.ts) only names a kind and forwards each call here, so all
// logic lives in this installed package and never in the state.

import { TokenCache } from "./client";
import { type Credentials, credentialsFor, resolveAccounts } from "./config";
import { type AccountContext, ContextRegistry } from "./context";
import { OWNER_KEY, resetJournals } from "./journal";
import { accountSettings } from "./resources/account-settings";
import { alias } from "./resources/alias";
import {
  type CommonOutputs,
  checkInputs,
  diffInputs,
  PROVIDER_KEY,
  type ResourceKind,
  UNKNOWN,
} from "./resources/common";
import { customDomain } from "./resources/custom-domain";
import { folder } from "./resources/folder";
import { folderMeta } from "./resources/folder-meta";
import { folderOptions } from "./resources/folder-options";
import { subAccount } from "./resources/sub-account";

// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input and output types
type AnyKind = ResourceKind<any, any>;

export const kinds: Record<string, AnyKind> = Object.fromEntries(
  [accountSettings, alias, customDomain, subAccount, folder, folderOptions, folderMeta].map((k) => [
    k.name,
    k,
  ]),
);

let accounts: Map<string, Credentials | Error> | undefined;
let registry: ContextRegistry | undefined;

let configuredWith: string | undefined;

/**
 * Reads credentials from the stack config (`configure()` of the dynamic provider). The engine
 * calls it once per resource kind, with the same config: the contexts (account cache, writer,
 * token) are kept unless the credentials really changed, so every kind shares them.
 */
export function configure(req: { config: { get(key: string): string | undefined } }): void {
  const resolved = resolveAccounts({ config: (key) => req.config.get(key), env: process.env });
  const fingerprint = JSON.stringify(
    [...resolved].map(([name, c]) => [
      name,
      c instanceof Error ? c.message : TokenCache.key(c.baseUrl, c.clientId, c.clientSecret),
    ]),
  );
  const maxWait = rateLimitWaitBound(req.config.get("mediahost:maxRateLimitWaitSeconds"));
  const key = `${fingerprint}|${maxWait}`;
  if (registry && key === configuredWith) return;
  accounts = resolved;
  configuredWith = key;
  registry = new ContextRegistry((name) => credentialsFor(accounts!, name), {
    client: maxWait === undefined ? {} : { maxRateLimitWaitMs: maxWait * 1000 },
  });
}

/**
 * `mediahost:maxRateLimitWaitSeconds`: the longest the provider waits for an exhausted rate-limit
 * counter to reset before it fails the operation naming the counter and the reset time
 * (default 60; 0 never waits).
 */
export function rateLimitWaitBound(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`mediahost:maxRateLimitWaitSeconds: must be a number of seconds >= 0, got "${raw}"`);
  }
  return seconds;
}

/** Forgets every account context, as a new provider process starts without them (tests, tools). */
export function resetContexts(): void {
  registry = undefined;
  configuredWith = undefined;
  owner = undefined;
  resetJournals();
}

/** The stack this process works for, from the SDK's hidden input (one stack per provider process). */
let owner: string | undefined;

function noteOwner(props: Props): void {
  if (typeof props[OWNER_KEY] === "string") owner = props[OWNER_KEY] as string;
}

function contextFor(account: string | undefined): AccountContext {
  const ctx = contexts().get(account);
  ctx.owner ??= owner;
  return ctx;
}

/** The object is in the stack's state: a journal note of its create is no longer needed. */
function seenInState(kindName: string, id: string, olds: Props): void {
  if (!owner || !id || typeof olds.accountAlias !== "string") return;
  try {
    contextFor(olds.account as string | undefined)
      .journal(olds.accountAlias)
      ?.forget(kindName, id);
  } catch {
    // an account no longer configured: its operations report that themselves
  }
}

/** Before Pulumi 3.139 there is no `configure()`: the same config is in PULUMI_CONFIG. */
function contexts(): ContextRegistry {
  if (!registry) {
    const raw = JSON.parse(process.env.PULUMI_CONFIG ?? "{}") as Record<string, string>;
    configure({ config: { get: (key) => raw[key] ?? raw[key.replace(":", ":config:")] } });
  }
  return registry!;
}

type Props = Record<string, unknown>;

function strip(props: Props): Props {
  const { [PROVIDER_KEY]: _provider, [OWNER_KEY]: _owner, ...rest } = props;
  return rest;
}

/** Drops `undefined` (at any depth): the engine's protobuf Struct cannot carry it. */
function defined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(defined) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, defined(v)]),
    ) as T;
  }
  return value;
}

function kindOf(name: string): AnyKind {
  const kind = kinds[name];
  if (!kind)
    throw new Error(
      `pulumi-mediahost: unknown resource kind "${name}" (is the installed package older than the program?)`,
    );
  return kind;
}

export async function check(kindName: string, _olds: Props, news: Props) {
  const kind = kindOf(kindName);
  noteOwner(news);
  const result = checkInputs(kind.schema, news);
  // an account name that is not configured is bad input too, and is known before any API call
  const account = news.account;
  if ((typeof account === "string" && account !== UNKNOWN) || account === undefined) {
    contexts();
    try {
      credentialsFor(accounts!, account);
    } catch (err) {
      result.failures.push({ property: "account", reason: (err as Error).message });
    }
  }
  return result;
}

export async function diff(kindName: string, id: string, olds: Props, news: Props) {
  noteOwner(news);
  seenInState(kindName, id, olds);
  const { changes, replaces, deleteBeforeReplace } = diffInputs(kindOf(kindName).diff, olds, news);
  return { changes, replaces, deleteBeforeReplace };
}

export async function create(kindName: string, inputs: Props) {
  noteOwner(inputs);
  const props = strip(inputs);
  const kind = kindOf(kindName);
  const { id, outs } = await kind.create(contextFor(props.account as string | undefined), props);
  return { id, outs: defined(outs) };
}

export async function read(kindName: string, id: string, props: Props) {
  const olds = strip(props) as Props & CommonOutputs;
  seenInState(kindName, id, olds);
  const result = await kindOf(kindName).read(contextFor(olds.account), id, olds);
  // an empty id tells the engine the object is gone
  return result
    ? { id: result.id, props: defined(result.outs), inputs: defined(result.inputs) }
    : { id: "", props: {} };
}

export async function update(kindName: string, id: string, olds: Props, news: Props) {
  noteOwner(news);
  const previous = strip(olds) as Props & CommonOutputs;
  seenInState(kindName, id, previous);
  const outs = await kindOf(kindName).update(contextFor(previous.account), id, previous, strip(news));
  return { outs: defined(outs) };
}

export async function remove(kindName: string, id: string, props: Props) {
  const olds = strip(props) as Props & CommonOutputs;
  seenInState(kindName, id, olds);
  await kindOf(kindName).delete(contextFor(olds.account), id, olds);
}
