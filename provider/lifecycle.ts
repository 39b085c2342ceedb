// The lifecycle every kind shares, for one provider process (one session), whichever face calls
// it: input checks, the normalized diff, the account check, carrying `accountAlias`, read inputs
// derived from the schema, "not found" meaning gone, the stack journal, takeovers between
// resources of one stack, and one-line errors. A face (provider/dynamic.ts, provider/native/)
// turns its protocol into these calls; a kind (provider/resources/*) declares only its schema, its
// rules and its API calls, and is handed a context (provider/resources/kind.ts).
//
// Properties here are a resource's own: no face's bookkeeping (the dynamic face's `__provider`,
// its kind and owner keys) reaches the lifecycle.
import type { z } from "zod";
import type { AccountContext } from "./account/context";
import { MediahostError } from "./client";
import { DEFAULT_ACCOUNT } from "./config";
import { Creation, Deletion } from "./contexts";
import { canonical, containsUnknown, UNKNOWN } from "./diff";
import { ProviderError, shaped } from "./errors";
import { log } from "./log";
import type { Kind, KindContext, Recorded } from "./resources/kind";
import type { Move, Session } from "./session";

type Props = Record<string, unknown>;
type State = Props & Recorded;

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface DiffResult {
  /** The changed properties, in the kind's order (`account` first). */
  changes: string[];
  /** Those of the changes that replace the object. */
  replaces: string[];
  /** Whether the old object must go before the new one is made. */
  deleteBeforeReplace: boolean;
}

/** The input properties of a kind: `account` and its schema's keys, in that order. */
export function propertiesOf(kind: Kind): string[] {
  return ["account", ...Object.keys(kind.inputs.shape)];
}

/** How messages name a resource's object, e.g. `Folder /a`. */
export function describe(kind: Kind, props: Props): string {
  try {
    return `${kind.name} ${kind.id(props as never)}`;
  } catch {
    return kind.name;
  }
}

/** The context a kind's calls get, for one account. */
export function kindContext(ctx: AccountContext, accountAlias: string): KindContext {
  return {
    client: ctx.client,
    account: ctx,
    accountAlias,
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
  };
}

export class Lifecycle {
  constructor(readonly session: Session) {}

  // ---- check and diff: no API call, preview included ---------------------------------------------

  /**
   * Validates `news` against the kind's schema. Failures name the property path and the rule;
   * values unknown during preview are not judged (they are checked again once known). An account
   * name that is not configured is bad input too, known before any API call.
   */
  check(kind: Kind, given: Props, olds?: Props): { inputs: Props; failures: CheckFailure[] } {
    const news = kind.normalize ? kind.normalize(given) : given;
    const result = checkInputs(kind, news);
    const intoItself = kind.movable && olds ? moveIntoItself(kind, olds, result.inputs) : undefined;
    if (intoItself) result.failures.push(intoItself);
    const account = news.account;
    if (account !== undefined && (typeof account !== "string" || account === "")) {
      if (account !== UNKNOWN)
        result.failures.push({ property: "account", reason: "must be a non-empty string" });
    } else if (account !== UNKNOWN) {
      try {
        this.session.credentials(account as string | undefined);
      } catch (err) {
        result.failures.push({ property: "account", reason: (err as Error).message });
      }
    }
    return result;
  }

  /**
   * Compares old outputs (which echo the inputs) with new inputs, property by property. An unknown
   * new value counts as a change; an input that was and stays absent is no change. A new `account`
   * name with the very same credentials reaches the same account: an update, not a replace.
   */
  diff(kind: Kind, id: string, olds: State, news: Props): DiffResult {
    this.seenInState(kind, id, olds);
    const changes = propertiesOf(kind).filter((key) => changed(kind, key, olds[key], news[key]));
    const replaceOn: string[] = [...kind.replaceOn];
    const accountMoves =
      changes.includes("account") &&
      (news.account === UNKNOWN || !this.session.sameCredentials(olds.account, news.account as string));
    if (accountMoves) replaceOn.push("account");
    let replaces = changes.filter((k) => replaceOn.includes(k));
    // a location the run's moves explain, or a move of the object's own, is not a replace
    if (!accountMoves && this.relocation(kind, olds, news, changes) !== "replace")
      replaces = replaces.filter((k) => k !== kind.location);
    if (replaces.length > 0) this.session.planReplacement(kind, id, olds, newIdOf(kind, news));
    return {
      changes,
      replaces,
      // a kind's own rule, for its own properties: a replace for an `account` name alone is create
      // first, so that the new resource can take over what the old one holds (the same account)
      deleteBeforeReplace:
        kind.deleteBeforeReplace === true && replaces.some((k) => kind.replaceOn.includes(k)),
    };
  }

  /**
   * How a changed location comes about: the object follows the move of a container (its new
   * location is where that move takes it), it moves itself (a movable kind: planned here, done by
   * its update), or it is replaced. Known during preview too, so that it says which.
   */
  private relocation(
    kind: Kind,
    olds: State,
    news: Props,
    changes: string[],
  ): "none" | "follows" | "moves" | "replace" {
    const prop = kind.location;
    if (!prop || !changes.includes(prop) || typeof olds[prop] !== "string") return "none";
    const from = olds[prop] as string;
    const where = this.session.locate(olds.accountAlias, kind, from);
    const to = news[prop];
    if (to === UNKNOWN) return where.location !== from ? "follows" : kind.movable ? "moves" : "replace";
    if (where.location === to) return "follows";
    if (!kind.movable || typeof to !== "string") return "replace";
    this.session.planMove(kind, olds.accountAlias, from, to);
    log.info(
      `${kind.name} ${from}: moves to ${to} with everything in it (one rename: nothing is deleted or uploaded again)`,
    );
    return "moves";
  }

  // ---- create, read, update, delete --------------------------------------------------------------

  async create(kind: Kind, inputs: Props): Promise<{ id: string; outs: Props }> {
    return this.step(kind, inputs, "change", async () => {
      const ctx = this.session.context(inputs.account as string | undefined);
      const creation = new Creation(this.session, kind, ctx, inputs);
      const made = (await creation.takeFromReplaced()) ?? (await this.make(creation, kind, inputs));
      return { id: made.id, outs: defined(made.outs) };
    });
  }

  /** The kind's create, for an object no resource of this run holds. */
  private async make(creation: Creation, kind: Kind, inputs: Props) {
    await creation.learnAccount();
    const extra = await kind.create(creation, inputs as never);
    return creation.finish(extra);
  }

  /** What the object holds now (outputs, and the inputs that match them), or undefined when it is gone. */
  async read(kind: Kind, id: string, olds: State): Promise<{ outs: Props; inputs: Props } | undefined> {
    return this.step(kind, olds, "refresh", async () => {
      const live = await this.readChecked(kind, id, olds);
      if (!live) return undefined;
      const outs = { ...olds, ...live };
      return { outs: defined(outs), inputs: defined(inputsOf(kind, outs)) };
    });
  }

  /**
   * The kind's read, with the account checked: a read changes nothing, so it runs while the
   * account is checked (a round trip less before the first answer of a refresh), and its answer
   * counts only once the check has passed. A state without a recorded account checks first.
   */
  private async readChecked(kind: Kind, id: string, olds: State): Promise<Props | undefined> {
    const recorded = olds.accountAlias;
    if (typeof recorded !== "string") {
      const { ctx, alias } = await this.open(kind, id, olds, olds.account, "now");
      return orGone(kind.read(kindContext(ctx, alias), olds as never));
    }
    this.seenInState(kind, id, olds);
    const ctx = this.session.context(olds.account);
    const [checked, read] = await Promise.allSettled([
      ctx.alias(recorded, describe(kind, olds)),
      orGone(kind.read(kindContext(ctx, recorded), olds as never)),
    ]);
    if (checked.status === "rejected") throw checked.reason;
    if (read.status === "rejected") throw read.reason;
    return read.value;
  }

  /**
   * An import (the native face): the object with id `id`, read whole, and the inputs that
   * declare it; undefined when there is none. A kind that cannot be read says why.
   */
  async import(kind: Kind, id: string): Promise<{ outs: Props; inputs: Props } | undefined> {
    return this.step(kind, `${kind.name} ${id}`, "refresh", async () => {
      if ("refused" in kind.importing)
        throw new ProviderError(`${kind.name} ${id} cannot be imported: ${kind.importing.refused}`);
      const ctx = this.session.context(undefined);
      const alias = await ctx.alias(undefined, `${kind.name} ${id}`);
      const inputs = kind.importing.identity(id);
      const named = kind.id(inputs as never, alias);
      if (named !== id) {
        throw new ProviderError(
          `${kind.name} ${id}: the provider's credentials reach account "${alias}", whose ${kind.name} is ${named}`,
        );
      }
      const olds = { ...inputs, accountAlias: alias } as State;
      const live = await orGone(kind.read(kindContext(ctx, alias), olds as never, "all"));
      if (!live) return undefined;
      const outs = { ...olds, ...live };
      return { outs: defined(outs), inputs: defined(inputsOf(kind, outs)) };
    });
  }

  async update(kind: Kind, id: string, olds: State, news: Props): Promise<Props> {
    return this.step(kind, olds, "change", async () => {
      const { ctx, alias } = await this.open(kind, id, olds, news.account as string | undefined);
      const move = this.ownMove(kind, alias, olds, news);
      // the object is where this run's moves took it (the kind's update then finds nothing to move,
      // or, for its own move, moves it from there)
      const current = await this.whereNow(kind, alias, olds, move);
      try {
        const extra = await kind.update(kindContext(ctx, alias), current as never, news as never);
        move?.settle();
        const carried = { accountAlias: olds.accountAlias, __adopted: olds.__adopted, __claim: olds.__claim };
        return defined({ ...olds, ...news, ...extra, ...carried });
      } catch (err) {
        move?.settle(err);
        throw err;
      }
    });
  }

  async delete(kind: Kind, id: string, olds: State): Promise<void> {
    return this.step(kind, olds, "delete", async () => {
      const { ctx, alias } = await this.open(kind, id, olds, olds.account);
      if (this.claimedByAnother(kind, id, ctx, alias, olds)) {
        log.info(
          `${describe(kind, olds)}: another resource of this stack holds the object now; leaving it in place`,
        );
        return;
      }
      const deletion = new Deletion(this.session, kind, id, ctx, alias);
      // a container's move in this run carried it: it is deleted where it went
      const current = await this.whereNow(kind, alias, olds).catch(() => olds);
      await orGone(kind.delete(deletion, current as never));
      if (deletion.keptBecause !== undefined) return;
      const journal = this.session.journal(ctx, alias);
      journal?.forget(kind.name, id);
      if (kind.contains) journal?.forgetHeld((k, other) => kind.contains!(id, k, other));
    });
  }

  // ---- what every method shares -----------------------------------------------------------------

  /**
   * The opening of every call on a resource in the state: it is seen in the state (the journal
   * forgets its create in flight), and its account — the context of its account name, and the
   * alias its credentials reach, checked against the recorded one now, or (`"byWriter"`, for
   * kinds that write through the account writer) on the writer's own read before it writes.
   */
  private async open(
    kind: Kind,
    id: string,
    olds: State,
    accountName: string | undefined,
    check: "now" | "byWriter" = kind.viaAccountWriter ? "byWriter" : "now",
  ): Promise<{ ctx: AccountContext; alias: string }> {
    this.seenInState(kind, id, olds);
    const ctx = this.session.context(accountName);
    const alias =
      check === "byWriter" ? olds.accountAlias : await ctx.alias(olds.accountAlias, describe(kind, olds));
    return { ctx, alias };
  }

  /** The move this update carries out itself (planned at diff), if the object moves. */
  private ownMove(kind: Kind, alias: string, olds: State, news: Props): Move | undefined {
    const prop = kind.location;
    if (!prop || !kind.movable || olds[prop] === news[prop]) return undefined;
    const from = olds[prop] as string;
    const to = news[prop] as string;
    return this.session.plannedMove(kind, alias, from, to) ?? this.session.planMove(kind, alias, from, to);
  }

  /**
   * The state with its location where the object is now: after the moves of this run that carry
   * it (waited for; a failed one fails this step too), or where its own move starts.
   */
  private async whereNow(kind: Kind, alias: string, olds: State, move?: Move): Promise<State> {
    const prop = kind.location;
    if (!prop || typeof olds[prop] !== "string") return olds;
    const where = move?.from ?? this.session.locate(alias, kind, olds[prop] as string);
    if (where.location === olds[prop]) return olds;
    try {
      await where.after;
    } catch (err) {
      throw new ProviderError(
        `${olds[prop]} did not move: the folder holding it failed to move (${(err as Error).message})`,
      );
    }
    return { ...olds, [prop]: where.location };
  }

  /** The object is in the stack's state: a journal note of its create in flight is no longer needed. */
  private seenInState(kind: Kind, id: string, olds: State): void {
    if (!this.session.owner || !id || typeof olds.accountAlias !== "string") return;
    try {
      const ctx = this.session.context(olds.account);
      this.session.journal(ctx, olds.accountAlias)?.created(kind.name, id);
    } catch {
      // an account no longer configured: its operations report that themselves
    }
  }

  /** Whether another resource of this stack took the object over (in this run, or an earlier one). */
  private claimedByAnother(kind: Kind, id: string, ctx: AccountContext, alias: string, olds: State): boolean {
    const note = this.session.journal(ctx, alias)?.note(kind.name, id);
    const claim =
      this.session.claimOf(ctx.client.baseUrl, alias, kind.name, id) ??
      (note?.state === "claimed" ? note.token : undefined);
    return claim !== undefined && claim !== olds.__claim;
  }

  /**
   * Runs a step; expected failures reach the engine as one line naming the resource. `purpose`:
   * a refresh's read reports refused credentials its own way; a create or update ("change") tells
   * the account writer the run is not a destroy.
   */
  private async step<T>(
    kind: Kind,
    about: Props | string,
    purpose: "change" | "refresh" | "delete",
    work: () => Promise<T>,
  ): Promise<T> {
    const refresh = purpose === "refresh";
    try {
      return await this.session.operation(work, purpose === "change");
    } catch (err) {
      const account = typeof about === "string" ? undefined : (about.account as string | undefined);
      const name = typeof about === "string" ? about : describe(kind, about);
      throw shaped(credentialsRefused(err, account, refresh) ?? err, name);
    }
  }
}

/**
 * The service refused an account's credentials (its token request answered 401): the error that
 * names the account, the config key, and — for a refresh, which runs with the provider
 * configuration recorded at the last `pulumi up` — the command that records the current one.
 */
function credentialsRefused(
  err: unknown,
  account: string | undefined,
  refresh: boolean,
): ProviderError | undefined {
  if (!(err instanceof MediahostError && err.operation === "token" && err.status === 401)) return undefined;
  const name = account ?? DEFAULT_ACCOUNT;
  const key = account === undefined ? "mediahost:clientSecret" : `mediahost:accounts.${account}.clientSecret`;
  const fix = refresh
    ? "A refresh without the program uses the credentials recorded at the last `pulumi up`: if they were " +
      "rotated since, run `pulumi up` without `--refresh` (or `pulumi refresh --run-program`) once to record the " +
      `current ones; otherwise check \`${key}\`.`
    : `Check \`${key}\` (and its client id): the stack config must hold the account's current credentials.`;
  return new ProviderError(
    `account "${name}": the service refused its credentials (${err.serviceMessage ?? "HTTP 401"}). ${fix}`,
    { cause: err },
  );
}

// ---- helpers of check and diff ---------------------------------------------------------------------

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
 * The normalized inputs and the failures of `news`: property by property when some are still
 * unknown, so that a known path with a trailing slash is normalized even beside an unknown tag list.
 */
function checkInputs(kind: Kind, news: Props): { inputs: Props; failures: CheckFailure[] } {
  const { account, ...own } = news;
  const result = kind.inputs.safeParse(own);
  if (result.success) {
    return { inputs: { ...(account === undefined ? {} : { account }), ...result.data }, failures: [] };
  }
  const failures = result.error.issues
    .filter((issue) => !isUnderUnknown(own, issue.path))
    .map((issue) => ({ property: issue.path.map(String).join(".") || "(inputs)", reason: issue.message }));
  const normalized: Props = { ...news };
  for (const [key, schema] of Object.entries(kind.inputs.shape as Record<string, z.ZodType>)) {
    if (own[key] === undefined || containsUnknown(own[key])) continue;
    const one = schema.safeParse(own[key]);
    if (one.success) normalized[key] = one.data;
  }
  return { inputs: normalized, failures };
}

function changed(kind: Kind, key: string, a: unknown, b: unknown): boolean {
  if (containsUnknown(b)) return true;
  return !(kind.equivalent?.[key]?.(a, b) ?? canonical(a) === canonical(b));
}

/** A move into the object itself (a folder into a folder under it) is refused before anything is written. */
function moveIntoItself(kind: Kind, olds: Props, news: Props): CheckFailure | undefined {
  const prop = kind.location;
  const from = prop ? olds[prop] : undefined;
  const to = prop ? news[prop] : undefined;
  if (typeof from !== "string" || typeof to !== "string" || from === to) return undefined;
  // with another account it is no move but a replace
  if (olds.account !== news.account) return undefined;
  if (!kind.contains?.(from, kind.name, to)) return undefined;
  return {
    property: prop as string,
    reason: `cannot move ${from} to ${to}, which is inside it (a folder cannot be moved into itself)`,
  };
}

/** The id the new inputs give, when they are known. */
function newIdOf(kind: Kind, news: Props): string | undefined {
  if (containsUnknown(news)) return undefined;
  try {
    return kind.id(news as never);
  } catch {
    return undefined;
  }
}

/** Picks the input properties of a kind out of outputs (outputs echo inputs). */
function inputsOf(kind: Kind, outs: Props): Props {
  return Object.fromEntries(propertiesOf(kind).flatMap((k) => (outs[k] === undefined ? [] : [[k, outs[k]]])));
}

/** Drops `undefined` (at any depth): the engine's protobuf Struct cannot carry it. */
export function defined<T>(value: T): T {
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

/**
 * What `work` gives, or undefined when it fails because the object is gone: not found, or (for a
 * path) no longer a folder.
 */
async function orGone<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof MediahostError && (err.isNotFound || err.isNotADirectory)) return undefined;
    throw err;
  }
}
