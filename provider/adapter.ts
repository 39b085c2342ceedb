// The adapter between Pulumi's dynamic-provider calls and the resource kinds. The serialized
// provider (sdk/provider.ts) only names a kind and forwards each call here, so all logic lives in
// the installed package and never in the state. The adapter owns the lifecycle every kind
// shares: input checks, the normalized diff, the account check, carrying `accountAlias`, read
// inputs derived from the schema, "not found" meaning gone, the stack journal (creates in flight,
// objects kept, objects taken over), holds between resources of one stack, and the shaping of
// errors. A kind (provider/resources/*) declares only its schema, its rules and its API calls.
import type { z } from "zod";
import type { AccountContext } from "./account/context";
import { MediahostError } from "./client";
import { canonical, containsUnknown, UNKNOWN } from "./diff";
import { ProviderError, shaped } from "./errors";
import { KIND_KEY, OWNER_KEY, PROVIDER_KEY } from "./hidden";
import { resetJournals, type StackJournal } from "./journal";
import { log } from "./log";
import { kindByName } from "./resources";
import type { CreateContext, DeleteContext, Kind, KindContext, Recorded } from "./resources/kind";
import { Session, type SessionConfig } from "./session";

type Props = Record<string, unknown>;

/** Keys the dynamic-provider machinery and the SDK add to inputs (provider/hidden.ts); never part of a diff. */
const HIDDEN = [PROVIDER_KEY, OWNER_KEY, KIND_KEY];

/** The lifecycle of this provider process (its session: provider/session.ts), and the config it came from. */
let current: { lifecycle: Lifecycle; configuredWith: string } | undefined;

/**
 * Reads credentials and settings from the stack config (`configure()` of the dynamic provider).
 * The engine calls it once per distinct serialized provider, with the same config: the session
 * (accounts, tokens, the account writer, what the run learned) is kept unless the config changed.
 */
export function configure(req: { config: { get(key: string): string | undefined } }): void {
  const keys = [
    "baseUrl",
    "clientId",
    "clientSecret",
    "accounts",
    "maxRateLimitWaitSeconds",
    "operationTimeoutSeconds",
  ];
  const raw = keys.map((k) => req.config.get(`mediahost:${k}`) ?? null);
  const configuredWith = JSON.stringify([
    raw,
    process.env.MEDIAHOST_BASE_URL,
    process.env.MEDIAHOST_CLIENT_ID,
    process.env.MEDIAHOST_CLIENT_SECRET,
  ]);
  if (current?.configuredWith === configuredWith) return;
  const session = createSession({ config: (key) => req.config.get(key), env: process.env });
  current = { lifecycle: new Lifecycle(session), configuredWith };
}

/** A session from the stack config: the settings the client takes from it are checked here. */
export function createSession(config: Omit<SessionConfig, "options">): Session {
  const maxWait = secondsSetting(config.config, "maxRateLimitWaitSeconds", 0);
  const deadline = secondsSetting(config.config, "operationTimeoutSeconds", 1);
  return new Session({
    ...config,
    options: {
      client: {
        ...(maxWait === undefined ? {} : { maxRateLimitWaitMs: maxWait * 1000 }),
        ...(deadline === undefined ? {} : { deadlineMs: deadline * 1000 }),
      },
    },
  });
}

/**
 * A number of seconds from the stack config: `mediahost:maxRateLimitWaitSeconds` (how long a call
 * may wait for an exhausted rate-limit counter, default 60, 0 never waits) and
 * `mediahost:operationTimeoutSeconds` (each API operation's deadline, retries included, default 30).
 */
function secondsSetting(config: (key: string) => string | undefined, name: string, min: number) {
  const raw = config(`mediahost:${name}`);
  if (raw === undefined || raw === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < min) {
    throw new ProviderError(`mediahost:${name}: must be a number of seconds >= ${min}, got "${raw}"`);
  }
  return seconds;
}

/** Forgets the session, as a new provider process starts without one (tests, tools). */
export function resetSession(): void {
  current = undefined;
  resetJournals();
}

/** Before Pulumi 3.139 there is no `configure()`: the same config is in PULUMI_CONFIG. */
function lifecycle(): Lifecycle {
  if (!current) {
    const raw = JSON.parse(process.env.PULUMI_CONFIG ?? "{}") as Record<string, string>;
    configure({ config: { get: (key) => raw[key] ?? raw[key.replace(":", ":config:")] } });
  }
  return current!.lifecycle;
}

// What the serialized shims call (sdk/provider.ts; a contract with every stack: docs/upgrading.md).
export const check = (kind: string | undefined, olds: Props, news: Props) =>
  lifecycle().check(kind, olds, news);
export const diff = (kind: string | undefined, id: string, olds: Props, news: Props) =>
  lifecycle().diff(kind, id, olds, news);
export const create = (kind: string | undefined, inputs: Props) => lifecycle().create(kind, inputs);
export const read = (kind: string | undefined, id: string, props: Props) => lifecycle().read(kind, id, props);
export const update = (kind: string | undefined, id: string, olds: Props, news: Props) =>
  lifecycle().update(kind, id, olds, news);
export const remove = (kind: string | undefined, id: string, props: Props) =>
  lifecycle().remove(kind, id, props);

/** The kind a call is for: named by the shim, or, for the shim shared by every kind, by the props. */
function kindOf(name: string | undefined, props: Props): Kind {
  const named = name ?? (props[KIND_KEY] as string | undefined);
  const kind = named === undefined ? undefined : kindByName(named);
  if (!kind) {
    throw new Error(
      `pulumi-mediahost: unknown resource kind "${named}" (is the installed package older than the program?)`,
    );
  }
  return kind;
}

function strip(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !HIDDEN.includes(k)));
}

function hidden(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => HIDDEN.includes(k) && k !== PROVIDER_KEY));
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

/** The input properties of a kind: `account` and its schema's keys, in that order. */
function propertiesOf(kind: Kind): string[] {
  return ["account", ...Object.keys(kind.inputs.shape)];
}

/** Picks the input properties of a kind out of outputs (outputs echo inputs). */
function inputsOf(kind: Kind, outs: Props): Props {
  return Object.fromEntries(propertiesOf(kind).flatMap((k) => (outs[k] === undefined ? [] : [[k, outs[k]]])));
}

/** How messages name a resource's object, e.g. `Folder /a`. */
function describe(kind: Kind, props: Props): string {
  try {
    return `${kind.name} ${kind.id(props as never)}`;
  } catch {
    return kind.name;
  }
}

/** Runs a lifecycle step; expected failures reach the engine as one line naming the resource. */
async function step<T>(kind: Kind, props: Props, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw shaped(err, describe(kind, props));
  }
}

// ---- check and diff: no API call, preview included -----------------------------------------------

interface CheckFailure {
  property: string;
  reason: string;
}

function isUnderUnknown(root: unknown, path: PropertyKey[]): boolean {
  let v = root;
  for (const key of path) {
    if (v === UNKNOWN) return true;
    if (v === null || typeof v !== "object") return false;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return containsUnknown(v);
}

/**
 * Validates `news` against the kind's schema. Failures name the property path and the rule; values
 * unknown during preview are not judged (they are checked again once known). Returns the
 * normalized inputs — property by property when some are still unknown, so that a known path
 * with a trailing slash is normalized even beside an unknown tag list.
 */
function checkInputs(kind: Kind, news: Props): { inputs: Props; failures: CheckFailure[] } {
  const inputs = strip(news);
  const { account, ...own } = inputs;
  const result = kind.inputs.safeParse(own);
  if (result.success) {
    return {
      inputs: { ...(account === undefined ? {} : { account }), ...result.data, ...hidden(news) },
      failures: [],
    };
  }
  const failures = result.error.issues
    .filter((issue) => !isUnderUnknown(own, issue.path))
    .map((issue) => ({ property: issue.path.map(String).join(".") || "(inputs)", reason: issue.message }));
  const normalized: Props = { ...inputs };
  for (const [key, schema] of Object.entries(kind.inputs.shape as Record<string, z.ZodType>)) {
    if (own[key] === undefined || containsUnknown(own[key])) continue;
    const one = schema.safeParse(own[key]);
    if (one.success) normalized[key] = one.data;
  }
  return { inputs: { ...normalized, ...hidden(news) }, failures };
}

function kindContext(ctx: AccountContext, accountAlias: string): KindContext {
  return {
    client: ctx.client,
    account: ctx,
    accountAlias,
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
  };
}

/** The message of a create that found the object there already. */
function adoptHint(what: string, account: string): string {
  return (
    `${what} already exists in account "${account}". To manage the existing one, ` +
    `set \`adopt: true\` on this resource (it then takes over the object as it is, applies the ` +
    "declared properties, and on delete puts back what it found); to keep it unmanaged, choose " +
    "another name. (An interrupted run, or a failed move, of this same stack is recognised on " +
    "the machine that ran it; elsewhere `adopt: true` is the way.)"
  );
}

/** Whether a read error means the object is gone: not found, or (for a path) no longer a folder. */
function meansGone(err: unknown): boolean {
  return err instanceof MediahostError && (err.isNotFound || err.isNotADirectory);
}

function claimedIn(note: ReturnType<StackJournal["note"]>): string | undefined {
  return note?.state === "claimed" ? note.token : undefined;
}

/**
 * The lifecycle of every kind, for one provider process (one session). The module's functions
 * below are what the serialized shims call; tests make a Lifecycle per simulated process.
 */
export class Lifecycle {
  constructor(readonly session: Session) {}

  private noteOwner(props: Props): void {
    if (typeof props[OWNER_KEY] === "string") this.session.owner = props[OWNER_KEY] as string;
  }

  async check(kindName: string | undefined, _olds: Props, news: Props) {
    const kind = kindOf(kindName, news);
    this.noteOwner(news);
    const result = checkInputs(kind, news);
    const account = news.account;
    if (account !== undefined && (typeof account !== "string" || account === "")) {
      if (account !== UNKNOWN)
        result.failures.push({ property: "account", reason: "must be a non-empty string" });
    } else if (account !== UNKNOWN) {
      // an account name that is not configured is bad input too, and is known before any API call
      try {
        this.session.credentials(account as string | undefined);
      } catch (err) {
        result.failures.push({ property: "account", reason: (err as Error).message });
      }
    }
    const inputs: Props = { ...result.inputs, [PROVIDER_KEY]: news[PROVIDER_KEY] };
    return { inputs, failures: result.failures };
  }

  /**
   * Compares old outputs (which echo the inputs) with new inputs, property by property. An unknown
   * new value counts as a change; an input that was and stays absent is no change. A new `account`
   * name with the very same credentials reaches the same account: an update, not a replace.
   */
  async diff(kindName: string | undefined, id: string, olds: Props, news: Props) {
    const kind = kindOf(kindName, news);
    this.noteOwner(news);
    this.seenInState(kind, id, olds);
    const changes: string[] = [];
    for (const key of propertiesOf(kind)) {
      const a = olds[key];
      const b = news[key];
      if (containsUnknown(b)) changes.push(key);
      else if (!(kind.equivalent?.[key]?.(a, b) ?? canonical(a) === canonical(b))) changes.push(key);
    }
    const replaceOn: string[] = [...kind.replaceOn];
    const accountMoves =
      changes.includes("account") &&
      (news.account === UNKNOWN ||
        !this.session.sameCredentials(olds.account as string, news.account as string));
    if (accountMoves) replaceOn.push("account");
    const replaces = changes.filter((k) => replaceOn.includes(k));
    if (replaces.length > 0) {
      let newId: string | undefined;
      if (!containsUnknown(strip(news))) {
        try {
          newId = kind.id(strip(news) as never);
        } catch {
          newId = undefined;
        }
      }
      this.session.planReplacement(kind, olds as Props & Recorded, newId);
    }
    return {
      changes: changes.length > 0,
      /** The changed properties, for tests and tools (the engine reads the three other fields). */
      diffs: changes,
      replaces,
      // a kind's own rule, for its own properties: a replace for an `account` name alone is create
      // first, so that the new resource can take over what the old one holds (the same account)
      deleteBeforeReplace:
        kind.deleteBeforeReplace === true && replaces.some((k) => kind.replaceOn.includes(k)),
    };
  }

  /** The object is in the stack's state: a journal note of its create in flight is no longer needed. */
  private seenInState(kind: Kind, id: string, olds: Props): void {
    if (!this.session.owner || !id || typeof olds.accountAlias !== "string") return;
    try {
      const ctx = this.session.context(olds.account as string | undefined);
      this.session.journal(ctx, olds.accountAlias)?.created(kind.name, id);
    } catch {
      // an account no longer configured: its operations report that themselves
    }
  }

  // ---- create, read, update, delete ----------------------------------------------------------------

  async create(kindName: string | undefined, inputs: Props) {
    const kind = kindOf(kindName, inputs);
    this.noteOwner(inputs);
    const props = strip(inputs);
    const s = this.session;
    return step(kind, props, async () => {
      const ctx = s.context(props.account as string | undefined);
      const id = kind.id(props as never);
      const resource = `${kind.name} ${id}`;
      let accountAlias = kind.viaAccountWriter ? undefined : await ctx.alias(undefined, resource);

      // the same object, held by a resource this run replaces (an `account` rename that reaches the
      // same account): the new resource takes it over as an update, and the old one's delete leaves it
      const holder = s.replacing(kind, id)
        ? s.replacedHolder(kind, id, ctx, accountAlias ?? (await ctx.alias(undefined, resource)))
        : undefined;
      if (holder) {
        accountAlias = holder.accountAlias;
        const extra = await kind.update(kindContext(ctx, accountAlias), holder as never, props as never);
        const token = s.claim(ctx.client.baseUrl, accountAlias, kind.name, id);
        s.journal(ctx, accountAlias)?.claim(kind.name, id, token);
        return {
          id,
          outs: defined({
            ...props,
            ...extra,
            accountAlias,
            __adopted: holder.__adopted,
            __claim: token,
            ...hidden(inputs),
          }),
        };
      }

      let journal: StackJournal | undefined;
      let earlier = false;
      let takeover: { adopted: boolean; prior?: unknown } | undefined;
      let landed = false;
      const createCtx: CreateContext = {
        ...kindContext(ctx, accountAlias ?? ""),
        get accountAlias() {
          if (accountAlias === undefined)
            throw new Error(`${resource}: the account is not known yet (landed() first)`);
          return accountAlias;
        },
        landed(alias) {
          if (landed) return;
          landed = true;
          accountAlias = alias;
          journal = s.journal(ctx, alias);
          earlier = journal?.beginCreate(kind.name, id) ?? false;
        },
        found(what, prior) {
          const alias = this.accountAlias;
          if (props.adopt === true) {
            takeover = { adopted: true, prior };
            return;
          }
          const note = journal?.note(kind.name, id);
          if (earlier || note?.state === "kept") {
            const why = earlier
              ? "an interrupted earlier run of this stack created it (it was never saved in the state)"
              : "it is this stack's own, left in place earlier";
            log.info(`${resource}: ${what} exists already; ${why}: taking it over`);
            takeover = { adopted: false };
            return;
          }
          journal?.forget(kind.name, id);
          throw new ProviderError(adoptHint(what, alias));
        },
        get tookOver() {
          return takeover !== undefined;
        },
        replacing: s.replaced(kind, id),
      };
      if (accountAlias !== undefined) createCtx.landed(accountAlias);
      const extra = await kind.create(createCtx, props as never);
      const alias = createCtx.accountAlias;
      const outs: Props = { ...props, ...extra, accountAlias: alias, ...hidden(inputs) };
      const finalId = kind.id(props as never, alias);
      // made anew: nothing noted under it is this stack's any more
      if (!takeover && kind.contains) journal?.forgetUnder(finalId, { kind: kind.name, id });
      if (takeover) {
        if (takeover.adopted) outs.__adopted = takeover.prior === undefined ? {} : { prior: takeover.prior };
        // another resource of the stack may still hold it (a pending delete of an undone move)
        outs.__claim = s.claim(ctx.client.baseUrl, alias, kind.name, id);
        journal?.claim(kind.name, id, outs.__claim as string);
      }
      return { id: finalId, outs: defined(outs) };
    });
  }

  async read(kindName: string | undefined, id: string, props: Props) {
    const kind = kindOf(kindName, props);
    this.noteOwner(props);
    const olds = strip(props) as Props & Recorded;
    this.seenInState(kind, id, olds);
    return step(kind, olds, async () => {
      const ctx = this.session.context(olds.account);
      const alias = await ctx.alias(olds.accountAlias, describe(kind, olds));
      let live: Props | undefined;
      try {
        live = await kind.read(kindContext(ctx, alias), olds as never);
      } catch (err) {
        if (!meansGone(err)) throw err;
      }
      // an empty id tells the engine the object is gone
      if (!live) return { id: "", props: {} };
      const outs = { ...olds, ...live };
      return {
        id,
        props: defined({ ...outs, ...hidden(props) }),
        inputs: defined({ ...inputsOf(kind, outs), ...hidden(props) }),
      };
    });
  }

  async update(kindName: string | undefined, id: string, olds: Props, news: Props) {
    const kind = kindOf(kindName, news);
    this.noteOwner(news);
    const previous = strip(olds) as Props & Recorded;
    this.seenInState(kind, id, previous);
    const next = strip(news);
    return step(kind, previous, async () => {
      const ctx = this.session.context(next.account as string | undefined);
      const alias = kind.viaAccountWriter
        ? previous.accountAlias
        : await ctx.alias(previous.accountAlias, describe(kind, previous));
      const extra = await kind.update(kindContext(ctx, alias), previous as never, next as never);
      const carried = {
        accountAlias: previous.accountAlias,
        __adopted: previous.__adopted,
        __claim: previous.__claim,
      };
      return { outs: defined({ ...previous, ...next, ...extra, ...carried, ...hidden(news) }) };
    });
  }

  async remove(kindName: string | undefined, id: string, props: Props) {
    const kind = kindOf(kindName, props);
    this.noteOwner(props);
    const olds = strip(props) as Props & Recorded;
    this.seenInState(kind, id, olds);
    const s = this.session;
    return step(kind, olds, async () => {
      const ctx = s.context(olds.account);
      const resource = describe(kind, olds);
      const alias = kind.viaAccountWriter ? olds.accountAlias : await ctx.alias(olds.accountAlias, resource);
      const journal = s.journal(ctx, alias);
      // another resource of this stack took the object over (in this run, or an earlier one): leave it
      const holder =
        s.claimOf(ctx.client.baseUrl, alias, kind.name, id) ?? claimedIn(journal?.note(kind.name, id));
      if (holder !== undefined && holder !== olds.__claim) {
        log.info(`${resource}: another resource of this stack holds the object now; leaving it in place`);
        return;
      }
      let kept = false;
      const deleteCtx: DeleteContext = {
        ...kindContext(ctx, alias),
        folderLeaving: (path) => s.folderLeaving(alias, path),
        keep(reason) {
          kept = true;
          journal?.keep(kind.name, id, reason);
        },
      };
      try {
        await kind.delete(deleteCtx, olds as never);
      } catch (err) {
        if (!meansGone(err)) throw err;
      }
      if (!kept) journal?.forget(kind.name, id);
      if (!kept && kind.contains) journal?.forgetUnder(id);
    });
  }
}
