// A delete: one object that runs its steps in order, and is itself the context the kind is handed
// (DeleteContext, provider/resources/kind.ts). The lifecycle (provider/lifecycle.ts) hands it the
// call and shapes what fails.
import { log } from "../log";
import { type DeleteContext, describe, type Kind, type Stored } from "../resources/kind";
import type { Session } from "../session";
import { ContextCall, orGone } from "./call";

/**
 * One delete: whether another resource of the stack holds the object now, whether an object that
 * contains this one is leaving in this run, and whether the kind chose to leave the object in
 * place as this stack's ("kept").
 */
export class Deletion extends ContextCall implements DeleteContext {
  private leaving = false;
  /** Why the kind left the object in place, if it did. */
  keptBecause?: string;

  constructor(
    session: Session,
    kind: Kind,
    private readonly id: string,
    private readonly olds: Stored,
  ) {
    super(session, kind, describe(kind, olds));
  }

  /**
   * The delete, in order: the account is opened; an object another resource of the stack holds
   * now is left alone; the kind deletes the object where this run's moves put it; the journal
   * forgets it (and, for a container, what it noted about the objects inside).
   */
  async run(): Promise<void> {
    const { kind, id } = this;
    const { ctx, alias, olds } = await this.open(id, this.olds, this.olds.account);
    this.ctx = ctx;
    this.alias = alias;
    if (this.claimedByAnother()) {
      log.info(`${this.resource}: another resource of this stack holds the object now; leaving it in place`);
      return;
    }
    this.leaving = this.session.plan.containerLeaving(alias, kind, id);
    // a container's move in this run carried it: it is deleted where it went
    const current = await this.whereNow(alias, olds).catch(() => olds);
    await orGone(kind.delete(this, current));
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
      this.session.plan.claimOf(this.client.baseUrl, this.accountAlias, this.kind.name, this.id) ??
      (note?.state === "claimed" ? note.token : undefined);
    return claim !== undefined && claim !== this.olds.__claim;
  }

  /** The object is gone: the journal forgets it, and a container what it noted of the objects inside. */
  private forget(): void {
    const journal = this.session.journal(this.account, this.accountAlias);
    journal?.forget(this.kind.name, this.id);
    const contains = this.kind.tree?.contains?.bind(this.kind.tree);
    if (contains) journal?.forgetHeld((k, other) => contains(this.id, k, other));
  }
}
