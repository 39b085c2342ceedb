// A create: one object that runs its steps in order, and is itself the context the kind is handed
// (CreateContext, provider/resources/kind.ts). The lifecycle (provider/lifecycle.ts) hands it the
// call and shapes what fails.
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
import { ProviderError } from "../errors";
import type { StackJournal } from "../journal";
import { log } from "../log";
import { type CreateContext, describe, type Kind, kindContext } from "../resources/kind";
import type { Session } from "../session";
import { accountName, ContextCall, defined } from "./call";

type Props = Record<string, unknown>;

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

export class Creation extends ContextCall implements CreateContext {
  readonly id: string;
  private hasLanded = false;
  private journal?: StackJournal;
  /** An earlier run of this stack noted this create and never saw it saved. */
  private earlier = false;
  private takeover?: { adopted: boolean; prior?: unknown };

  constructor(
    session: Session,
    kind: Kind,
    private readonly inputs: Props,
  ) {
    super(session, kind, describe(kind, inputs));
    this.ctx = session.context(accountName(inputs));
    this.id = kind.id(inputs);
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
      .create(this, this.inputs)
      .catch((err: unknown) => Promise.reject(this.parentMissing(err, this.inputs, this.alias)));
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
    const plan = this.session.plan;
    if (!plan.replacing(this.kind, this.id)) return undefined;
    const alias = this.alias ?? (await this.account.alias(undefined, this.resource));
    const baseUrl = this.account.client.baseUrl;
    const holder = plan.replacedHolder(
      this.kind,
      this.id,
      (olds) => olds.accountAlias === alias && this.session.baseUrlOf(olds.account) === baseUrl,
    );
    if (!holder) return undefined;
    const olds = { ...holder, accountAlias: alias };
    const extra = await this.kind.update(kindContext(this.account, alias), olds, this.inputs);
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
    const id = this.kind.id(this.inputs, alias);
    const contains = this.kind.tree?.contains?.bind(this.kind.tree);
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
    const token = this.session.plan.claim(this.account.client.baseUrl, alias, this.kind.name, this.id);
    this.session.journal(this.account, alias)?.claim(this.kind.name, this.id, token);
    return token;
  }
}
