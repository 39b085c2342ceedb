// The thin adapter between Pulumi's dynamic-provider calls and the resource kinds. The
// serialized provider (sdk/provider.ts) only names a kind and forwards each call here, so all
// logic lives in this installed package and never in the state.

import { TokenCache } from "./client";
import { type Credentials, credentialsFor, resolveAccounts } from "./config";
import { ContextRegistry } from "./context";
import { attachToEngine } from "./log";
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
  attachToEngine();
  const resolved = resolveAccounts({ config: (key) => req.config.get(key), env: process.env });
  const fingerprint = JSON.stringify(
    [...resolved].map(([name, c]) => [
      name,
      c instanceof Error ? c.message : TokenCache.key(c.baseUrl, c.clientId, c.clientSecret),
    ]),
  );
  if (registry && fingerprint === configuredWith) return;
  accounts = resolved;
  configuredWith = fingerprint;
  registry = new ContextRegistry((name) => credentialsFor(accounts!, name));
}

/** Forgets every account context, as a new provider process starts without them (tests, tools). */
export function resetContexts(): void {
  registry = undefined;
  configuredWith = undefined;
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
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
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

export async function diff(kindName: string, _id: string, olds: Props, news: Props) {
  const { changes, replaces, deleteBeforeReplace } = diffInputs(kindOf(kindName).diff, olds, news);
  return { changes, replaces, deleteBeforeReplace };
}

export async function create(kindName: string, inputs: Props) {
  const props = strip(inputs);
  const kind = kindOf(kindName);
  const { id, outs } = await kind.create(contexts().get(props.account as string | undefined), props);
  return { id, outs: defined(outs) };
}

export async function read(kindName: string, id: string, props: Props) {
  const olds = strip(props) as Props & CommonOutputs;
  const result = await kindOf(kindName).read(contexts().get(olds.account), id, olds);
  // an empty id tells the engine the object is gone
  return result
    ? { id: result.id, props: defined(result.outs), inputs: defined(result.inputs) }
    : { id: "", props: {} };
}

export async function update(kindName: string, id: string, olds: Props, news: Props) {
  const previous = strip(olds) as Props & CommonOutputs;
  const outs = await kindOf(kindName).update(contexts().get(previous.account), id, previous, strip(news));
  return { outs: defined(outs) };
}

export async function remove(kindName: string, id: string, props: Props) {
  const olds = strip(props) as Props & CommonOutputs;
  await kindOf(kindName).delete(contexts().get(olds.account), id, olds);
}

/** Account updates, token requests and calls by operation of this process, for tests and the benchmark. */
export function usage() {
  return (registry?.all() ?? []).map((ctx) => ({
    account: ctx.name,
    writes: ctx.writes,
    ...ctx.client.stats,
  }));
}
