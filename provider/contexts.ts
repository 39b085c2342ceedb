// A create and a delete, each one object that runs its own steps in order, and is itself the
// context the kind is handed (CreateContext and DeleteContext, provider/resources/kind.ts). The
// lifecycle (provider/lifecycle.ts) hands each call to one of them and shapes what fails.
//
// A Creation decides whether the new resource may take over an object that exists already:
//
// - `adopt: true`: yes, and what the object held is recorded to put back on delete;
// - the stack journal noted this create before (an interrupted earlier run of this stack made
//   it), or noted the object as this stack's own ("kept" after a refused delete): yes;
// - a resource this run replaces holds the same object (an `account` rename that reaches the same
//   account): the new resource takes it over as an update, and records a "claim" so that the old
//   resource's delete leaves it;
// - otherwise: no, with an error saying how to adopt it.
import type { AccountContext } from "./account/context";
import type { MediahostClient } from "./client";
import { ProviderError } from "./errors";
import type { StackJournal } from "./journal";
import { log } from "./log";
import {
  type CreateContext,
  type DeleteContext,
  describe,
  type Kind,
  kindContext,
  type Recorded,
} from "./resources/kind";
import type { Session } from "./session";
import { defined, openRecorded, orGone, parentMissing, whereNow } from "./steps";

type Props = Record<string, unknown>;
type State = Props & Recorded;

/** The message of a create that found the object there already. */
export function adoptHint(what: string, account: string): string {
  return (
    `${what} already exists in account "${account}". To manage the existing one, ` +
    `set \`adopt: true\` on this resource (it then takes over the object as it is, applies the ` +
    "declared properties, and on delete puts back what it found); to keep it unmanaged, choose " +
    "another name. If an interrupted `pulumi up` of this stack made it (the CLI reported pending " +
    "operations), run `npx mediahost-recover` once before `pulumi up` instead: it takes in what that " +
    "run made, on any machine that shares the stack's backend."
  );
}

/** What the context of a create and of a delete share: the account, once known, and the log. */
abstract class StepContext {
  protected ctx?: AccountContext;
  protected alias?: string;

  constructor(protected readonly resource: string) {}

  get client(): MediahostClient {
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

export class Creation extends StepContext implements CreateContext {
  readonly id: string;
  private hasLanded = false;
  private journal?: StackJournal;
  /** An earlier run of this stack noted this create and never saw it saved. */
  private earlier = false;
  private takeover?: { adopted: boolean; prior?: unknown };

  constructor(
    private readonly session: Session,
    private readonly kind: Kind,
    private readonly inputs: Props,
  ) {
    super(describe(kind, inputs));
    this.ctx = session.context(inputs.account as string | undefined);
    this.id = kind.id(inputs as never);
  }

  /**
   * The create, in order: an object a resource this run replaces holds is taken from it;
   * otherwise the account is learned, the kind creates the object, and the outputs are recorded.
   */
  async run(): Promise<{ id: string; outs: Props }> {
    const made = (await this.takeFromReplaced()) ?? (await this.make());
    return { id: made.id, outs: defined(made.outs) };
  }

  /** The kind's create, for an object no resource of this run holds. */
  private async make(): Promise<{ id: string; outs: Props }> {
    await this.learnAccount();
    const extra = await this.kind
      .create(this, this.inputs as never)
      .catch((err: unknown) => Promise.reject(parentMissing(this.kind, err, this.inputs, this.alias)));
    return this.finish(extra);
  }

  // ---- the context the kind sees (with StepContext's) ---------------------------------------------

  landed(accountAlias: string): void {
    if (this.hasLanded) return;
    this.hasLanded = true;
    this.alias = accountAlias;
    this.journal = this.session.journal(this.account, accountAlias);
    this.earlier = this.journal?.beginCreate(this.kind.name, this.id) ?? false;
  }

  found(what: string, prior?: unknown): void {
    const alias = this.accountAlias;
    if (this.inputs.adopt === true) {
      this.takeover = { adopted: true, prior };
      return;
    }
    const note = this.journal?.note(this.kind.name, this.id);
    if (this.earlier || note?.state === "kept") {
      const why = this.earlier
        ? "an interrupted earlier run of this stack created it (it was never saved in the state)"
        : "it is this stack's own, left in place earlier";
      log.info(`${this.resource}: ${what} exists already; ${why}: taking it over`);
      this.takeover = { adopted: false };
      return;
    }
    this.journal?.forget(this.kind.name, this.id);
    throw new ProviderError(adoptHint(what, alias));
  }

  get tookOver(): boolean {
    return this.takeover !== undefined;
  }

  // ---- the steps of `run` --------------------------------------------------------------------------

  /**
   * Learns the account the create lands in, unless the kind writes through the account writer,
   * which learns it on the read it makes just before writing (and calls `landed`).
   */
  private async learnAccount(): Promise<void> {
    if (!this.kind.viaAccountWriter) this.landed(await this.account.alias(undefined, this.resource));
  }

  /**
   * When a resource this run replaces holds the same object (the same account under another
   * name), the new resource takes it over as an update: its outputs, or undefined otherwise.
   */
  private async takeFromReplaced(): Promise<{ id: string; outs: Props } | undefined> {
    if (!this.session.replacing(this.kind, this.id)) return undefined;
    const alias = this.alias ?? (await this.account.alias(undefined, this.resource));
    const holder = this.session.replacedHolder(this.kind, this.id, this.account, alias);
    if (!holder) return undefined;
    const extra = await this.kind.update(
      kindContext(this.account, alias),
      holder as never,
      this.inputs as never,
    );
    const claim = this.claim(alias);
    const outs = {
      ...this.inputs,
      ...extra,
      accountAlias: alias,
      __adopted: holder.__adopted,
      __claim: claim,
    };
    return { id: this.id, outs };
  }

  /** The resource's id and outputs once the kind's create has returned `extra`. */
  private finish(extra: object): { id: string; outs: Props } {
    const alias = this.accountAlias;
    const outs: Props = { ...this.inputs, ...extra, accountAlias: alias };
    const id = this.kind.id(this.inputs as never, alias);
    const contains = this.kind.contains?.bind(this.kind);
    // made anew: nothing noted about what it contains is this stack's any more
    if (!this.takeover && contains) {
      this.journal?.forgetHeld((k, other) => contains(id, k, other), { kind: this.kind.name, id: this.id });
    }
    if (this.takeover) {
      if (this.takeover.adopted) {
        outs.__adopted = this.takeover.prior === undefined ? {} : { prior: this.takeover.prior };
      }
      // another resource of the stack may still hold it (a pending delete of an undone move)
      outs.__claim = this.claim(alias);
    }
    return { id, outs };
  }

  /** Records that this resource now holds the object, for this run and (in the journal) later ones. */
  private claim(alias: string): string {
    const token = this.session.claim(this.account.client.baseUrl, alias, this.kind.name, this.id);
    this.session.journal(this.account, alias)?.claim(this.kind.name, this.id, token);
    return token;
  }
}

/**
 * One delete: whether another resource of the stack holds the object now, whether an object that
 * contains this one is leaving in this run, and whether the kind chose to leave the object in
 * place as this stack's ("kept").
 */
export class Deletion extends StepContext implements DeleteContext {
  private leaving = false;
  /** Why the kind left the object in place, if it did. */
  keptBecause?: string;

  constructor(
    private readonly session: Session,
    private readonly kind: Kind,
    private readonly id: string,
    private readonly olds: State,
  ) {
    super(describe(kind, olds));
  }

  /**
   * The delete, in order: the account is opened; an object another resource of the stack holds
   * now is left alone; the kind deletes the object where this run's moves put it; the journal
   * forgets it (and, for a container, what it noted about the objects inside).
   */
  async run(): Promise<void> {
    const { kind, id, olds } = this;
    const { ctx, alias } = await openRecorded(this.session, kind, id, olds, olds.account);
    this.ctx = ctx;
    this.alias = alias;
    if (this.claimedByAnother()) {
      log.info(`${this.resource}: another resource of this stack holds the object now; leaving it in place`);
      return;
    }
    this.leaving = this.session.containerLeaving(this.accountAlias, kind, id);
    // a container's move in this run carried it: it is deleted where it went
    const current = await whereNow(this.session, kind, this.accountAlias, olds).catch(() => olds);
    await orGone(kind.delete(this, current as never));
    if (this.keptBecause === undefined) this.forget();
  }

  // ---- the context the kind sees -------------------------------------------------------------------

  get containerLeaving(): boolean {
    return this.leaving;
  }

  keep(reason: string): void {
    this.keptBecause = reason;
    this.session.journal(this.account, this.accountAlias)?.keep(this.kind.name, this.id, reason);
  }

  // ---- the steps of `run` --------------------------------------------------------------------------

  /** Whether another resource of this stack took the object over (in this run, or an earlier one). */
  private claimedByAnother(): boolean {
    const note = this.session.journal(this.account, this.accountAlias)?.note(this.kind.name, this.id);
    const claim =
      this.session.claimOf(this.client.baseUrl, this.accountAlias, this.kind.name, this.id) ??
      (note?.state === "claimed" ? note.token : undefined);
    return claim !== undefined && claim !== this.olds.__claim;
  }

  /** The object is gone: the journal forgets it, and a container what it noted of the objects inside. */
  private forget(): void {
    const journal = this.session.journal(this.account, this.accountAlias);
    journal?.forget(this.kind.name, this.id);
    const contains = this.kind.contains?.bind(this.kind);
    if (contains) journal?.forgetHeld((k, other) => contains(this.id, k, other));
  }
}
