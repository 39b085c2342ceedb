// What the calls on a resource share (provider/calls/*: each call one object running its named
// steps): the opening of a call on a resource in the state, where this run's moves put an object,
// what a "not found" means, and outputs the engine can carry. Each call's own steps stay in the
// one place that runs them.
import type { AccountContext } from "../account/context";
import { MediahostError } from "../client";
import { ProviderError } from "../errors";
import { log } from "../log";
import { describe, type Kind, type KindContext, type State, type Stored } from "../resources/kind";
import type { Move } from "../run-plan";
import type { Session } from "../session";

type Props = Record<string, unknown>;

/** What a call on an object opens: the account's context, the alias its credentials reach, and the state there. */
export interface Opened {
  ctx: AccountContext;
  alias: string;
  /** The state, with the alias the call checked (or the recorded one the writer checks). */
  olds: State;
}

/** One call on a resource of `kind`: the session it runs in, and what its messages call the resource. */
export abstract class Call {
  constructor(
    protected readonly session: Session,
    protected readonly kind: Kind,
    readonly resource: string,
  ) {}

  /**
   * The opening of every call on a resource in the state: it is seen in the state (the journal
   * forgets its create in flight), and its account — the context of its account name, and the
   * alias its credentials reach, checked against the recorded one now, or (`"byWriter"`, for
   * kinds that write through the account writer) on the writer's own read before it writes. A
   * state without a recorded alias learns it now either way.
   */
  protected async open(
    id: string,
    olds: Stored,
    accountName: string | undefined,
    check: "now" | "byWriter" = this.kind.viaAccountWriter ? "byWriter" : "now",
  ): Promise<Opened> {
    this.session.seenInState(this.kind.name, id, olds);
    const ctx = this.session.context(accountName);
    const recorded = olds.accountAlias;
    const alias =
      check === "byWriter" && recorded !== undefined
        ? recorded
        : await ctx.alias(recorded, describe(this.kind, olds));
    return { ctx, alias, olds: { ...olds, accountAlias: alias } };
  }

  /**
   * The state with its location where the object is now: after the moves of this run that carry
   * it (waited for; a failed one fails this step too), or where its own move starts.
   */
  protected async whereNow(alias: string, olds: State, move?: Move): Promise<State> {
    const prop = this.kind.tree?.location;
    const recorded = prop === undefined ? undefined : olds[prop];
    if (prop === undefined || typeof recorded !== "string") return olds;
    const where = move?.from ?? this.session.plan.locate(alias, this.kind, recorded);
    if (where.location === recorded) return olds;
    try {
      await where.after;
    } catch (err) {
      throw new ProviderError(
        `${recorded} did not move: the folder holding it failed to move (${(err as Error).message})`,
      );
    }
    return { ...olds, [prop]: where.location };
  }

  /**
   * What a "not found" on a create or update of an object that belongs to a folder or file (the
   * kind's `tree.belongsTo`: options, meta, points) means: that path is missing. The error says
   * which, and what to do, instead of the operation that met it.
   */
  protected parentMissing(err: unknown, inputs: Props, alias: string | undefined): unknown {
    const belongsTo = this.kind.tree?.belongsTo;
    if (!(err instanceof MediahostError && err.isNotFound) || belongsTo === undefined) return err;
    const path = inputs[belongsTo];
    if (typeof path !== "string") return err;
    const where = alias === undefined ? "" : ` in account "${alias}"`;
    return new ProviderError(
      `${path} does not exist${where}; it must exist first: create it, or declare it in this program ` +
        "(a Folder or File resource, and pass its `path` output here so it is created first)",
      { cause: err },
    );
  }
}

/** A call that is itself the context its kind is handed (a create, a delete): the account, once known, and the log. */
export abstract class ContextCall extends Call implements KindContext {
  protected ctx?: AccountContext;
  protected alias?: string;

  get client() {
    return this.account.client;
  }

  get account(): AccountContext {
    if (!this.ctx) throw new Error(`${this.resource}: the account is not open yet`);
    return this.ctx;
  }

  get accountAlias(): string {
    if (this.alias === undefined)
      throw new Error(`${this.resource}: the account is not known yet (landed() first)`);
    return this.alias;
  }

  info(message: string): void {
    log.info(message);
  }

  warn(message: string): void {
    log.warn(message);
  }
}

/** The account name the properties give (`account`), if any: check refused any other value. */
export function accountName(props: Props): string | undefined {
  return typeof props.account === "string" ? props.account : undefined;
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
export async function orGone<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof MediahostError && (err.isNotFound || err.isNotADirectory)) return undefined;
    throw err;
  }
}
