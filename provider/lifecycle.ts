// The lifecycle every kind shares, for one provider process (one session), whichever face calls
// it: input checks, the normalized diff, the account check, carrying `accountAlias`, read inputs
// derived from the schema, "not found" meaning gone, the stack journal, takeovers between
// resources of one stack, and one-line errors. A face (provider/dynamic.ts, provider/native/, made
// by provider/face.ts) turns its protocol into these calls; check and diff run here, and each
// other call goes to one object that runs its steps (provider/calls/). A kind
// (provider/resources/*) declares only its schema, its rules and its API calls, and is handed a
// context (provider/resources/kind.ts).
//
// Properties here are a resource's own: no face's bookkeeping (the dynamic face's `__provider`,
// its kind and owner keys) reaches the lifecycle.
import type { z } from "zod";
import { accountName } from "./calls/call";
import { Creation } from "./calls/create";
import { Deletion } from "./calls/delete";
import { type Found, Import, Refresh } from "./calls/read";
import { Update } from "./calls/update";
import { MediahostError } from "./client";
import { DEFAULT_ACCOUNT } from "./config";
import { canonical, containsUnknown, UNKNOWN } from "./diff";
import { ProviderError, shaped } from "./errors";
import { log } from "./log";
import { describe, type Kind, propertiesOf, type Stored } from "./resources/kind";
import type { Session } from "./session";

type Props = Record<string, unknown>;

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

export class Lifecycle {
  constructor(readonly session: Session) {}

  // ---- check and diff: no API call, preview included ---------------------------------------------

  /**
   * Validates `news` against the kind's schema. Failures name the property path and the rule;
   * values unknown during preview are not judged (they are checked again once known). An account
   * name that is not configured is bad input too, known before any API call.
   */
  check(kind: Kind, given: Props, olds?: Props): { inputs: Props; failures: CheckFailure[] } {
    const normalize = kind.secrets?.normalize;
    const news = normalize ? normalize(given) : given;
    const result = checkInputs(kind, news);
    const intoItself = kind.tree?.moves && olds ? moveIntoItself(kind, olds, result.inputs) : undefined;
    if (intoItself) result.failures.push(intoItself);
    const account = news.account;
    if (account !== undefined && (typeof account !== "string" || account === "")) {
      if (account !== UNKNOWN)
        result.failures.push({ property: "account", reason: "must be a non-empty string" });
    } else if (account !== UNKNOWN) {
      try {
        this.session.credentials(account);
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
  diff(kind: Kind, id: string, olds: Stored, news: Props): DiffResult {
    this.session.seenInState(kind.name, id, olds);
    const changes = propertiesOf(kind).filter((key) => changed(kind, key, olds[key], news[key]));
    const replaceOn: string[] = [...kind.replaceOn];
    const account = typeof news.account === "string" ? news.account : undefined;
    const accountMoves =
      changes.includes("account") &&
      (account === UNKNOWN || !this.session.sameCredentials(olds.account, account));
    if (accountMoves) replaceOn.push("account");
    let replaces = changes.filter((k) => replaceOn.includes(k));
    // a location the run's moves explain, or a move of the object's own, is not a replace
    if (!accountMoves && this.relocation(kind, olds, news, changes) !== "replace")
      replaces = replaces.filter((k) => k !== kind.tree?.location);
    if (replaces.length > 0) this.session.plan.planReplacement(kind, id, olds, newIdOf(kind, news));
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
    olds: Stored,
    news: Props,
    changes: string[],
  ): "none" | "follows" | "moves" | "replace" {
    const prop = kind.tree?.location;
    const from = prop === undefined ? undefined : olds[prop];
    if (prop === undefined || !changes.includes(prop) || typeof from !== "string") return "none";
    // a state without a recorded alias is carried by no move of this run
    const alias = olds.accountAlias ?? "";
    const movable = kind.tree?.moves !== undefined;
    const plan = this.session.plan;
    const where = plan.locate(alias, kind, from);
    const to = news[prop];
    if (to === UNKNOWN) return where.location !== from ? "follows" : movable ? "moves" : "replace";
    if (where.location === to) return "follows";
    if (!movable || typeof to !== "string") return "replace";
    plan.planMove(kind, alias, from, to);
    log.info(
      `${kind.name} ${from}: moves to ${to} with everything in it (one rename: nothing is deleted or uploaded again)`,
    );
    return "moves";
  }

  // ---- create, read, import, update, delete: each one object running its steps -------------------

  async create(kind: Kind, inputs: Props): Promise<{ id: string; outs: Props }> {
    return this.step(kind, inputs, "change", () => new Creation(this.session, kind, inputs).run());
  }

  /** What the object holds now (outputs, and the inputs that match them), or undefined when it is gone. */
  async read(kind: Kind, id: string, olds: Stored): Promise<Found | undefined> {
    return this.step(kind, olds, "refresh", () => new Refresh(this.session, kind, id, olds).run());
  }

  /** An import (the native face): the object with id `id`, read whole; undefined when there is none. */
  async import(kind: Kind, id: string): Promise<Found | undefined> {
    const call = new Import(this.session, kind, id);
    return this.step(kind, call.resource, "refresh", () => call.run());
  }

  async update(kind: Kind, id: string, olds: Stored, news: Props): Promise<Props> {
    return this.step(kind, olds, "change", () => new Update(this.session, kind, id, olds, news).run());
  }

  async delete(kind: Kind, id: string, olds: Stored): Promise<void> {
    return this.step(kind, olds, "delete", () => new Deletion(this.session, kind, id, olds).run());
  }

  // ---- what every method shares -----------------------------------------------------------------

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
      const account = typeof about === "string" ? undefined : accountName(about);
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
  const prop = kind.tree?.location;
  if (prop === undefined) return undefined;
  const from = olds[prop];
  const to = news[prop];
  if (typeof from !== "string" || typeof to !== "string" || from === to) return undefined;
  // with another account it is no move but a replace
  if (olds.account !== news.account) return undefined;
  if (!kind.tree?.contains?.(from, kind.name, to)) return undefined;
  return {
    property: prop,
    reason: `cannot move ${from} to ${to}, which is inside it (a folder cannot be moved into itself)`,
  };
}

/** The id the new inputs give, when they are known. */
function newIdOf(kind: Kind, news: Props): string | undefined {
  if (containsUnknown(news)) return undefined;
  try {
    return kind.id(news);
  } catch {
    return undefined;
  }
}
