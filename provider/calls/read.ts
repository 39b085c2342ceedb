// A refresh's read and an import: each one object that runs its steps in order. The lifecycle
// (provider/lifecycle.ts) hands it the call and shapes what fails.
import { ProviderError } from "../errors";
import {
  describe,
  importOf,
  type Kind,
  kindContext,
  propertiesOf,
  type State,
  type Stored,
} from "../resources/kind";
import { systemRefusal } from "../resources/schema";
import type { Session } from "../session";
import { Call, defined, orGone } from "./call";

type Props = Record<string, unknown>;

/** What a read finds: the outputs, and the inputs that declare them. */
export interface Found {
  outs: Props;
  inputs: Props;
}

/** What the object holds now (outputs, and the inputs that match them), or undefined when it is gone. */
export class Refresh extends Call {
  constructor(
    session: Session,
    kind: Kind,
    private readonly id: string,
    private readonly olds: Stored,
  ) {
    super(session, kind, describe(kind, olds));
  }

  async run(): Promise<Found | undefined> {
    const live = await this.readChecked();
    if (!live) return undefined;
    return found(this.kind, { ...this.olds, ...live });
  }

  /**
   * The kind's read, with the account checked: a read changes nothing, so it runs while the
   * account is checked (a round trip less before the first answer of a refresh), and its answer
   * counts only once the check has passed. A state without a recorded account checks first.
   */
  private async readChecked(): Promise<Props | undefined> {
    const { session, kind, id } = this;
    const recorded = this.olds.accountAlias;
    if (typeof recorded !== "string") {
      const { ctx, alias, olds } = await this.open(id, this.olds, this.olds.account, "now");
      return orGone(kind.read(kindContext(ctx, alias), olds));
    }
    session.seenInState(kind.name, id, this.olds);
    const ctx = session.context(this.olds.account);
    const olds: State = { ...this.olds, accountAlias: recorded };
    const [checked, read] = await Promise.allSettled([
      ctx.alias(recorded, this.resource),
      orGone(kind.read(kindContext(ctx, recorded), olds)),
    ]);
    if (checked.status === "rejected") throw checked.reason;
    if (read.status === "rejected") throw read.reason;
    return read.value;
  }
}

/**
 * An import (the native face): the object with id `id`, read whole, and the inputs that declare
 * it; undefined when there is none. A kind that cannot be imported says why.
 */
export class Import extends Call {
  constructor(
    session: Session,
    kind: Kind,
    private readonly id: string,
  ) {
    super(session, kind, `${kind.name} ${id}`);
  }

  async run(): Promise<Found | undefined> {
    const { kind, id } = this;
    const importing = importOf(kind);
    if ("refused" in importing) throw this.refused(importing.refused);
    const ctx = this.session.context(undefined);
    const alias = await ctx.alias(undefined, this.resource);
    const inputs = importing.identity(id);
    this.refuseSystemPath(inputs);
    const named = kind.id(inputs, alias);
    if (named !== id) {
      throw new ProviderError(
        `${this.resource}: the provider's credentials reach account "${alias}", whose ${kind.name} is ${named}`,
      );
    }
    const olds: State = { ...inputs, accountAlias: alias };
    const live = await orGone(kind.read(kindContext(ctx, alias), olds, "all"));
    if (!live) return undefined;
    // an object that stays the account's is taken in as adopted: a delete leaves it in place
    const kept = importing.accountOwned?.(inputs) ? { __adopted: {} } : {};
    return found(kind, { ...olds, ...live, ...kept });
  }

  /** The account's system folders are never the stack's (an image profile in /Profiles may be). */
  private refuseSystemPath(inputs: Props): void {
    const tree = this.kind.tree;
    const at = tree ? inputs[tree.location] : undefined;
    const refusal =
      typeof at === "string" ? systemRefusal(at, tree?.contains ? "folder" : "other") : undefined;
    if (refusal) throw this.refused(refusal);
  }

  private refused(why: string): ProviderError {
    return new ProviderError(`${this.resource} cannot be imported: ${why}`);
  }
}

/** The outputs a read found, and the kind's inputs picked out of them (outputs echo inputs). */
function found(kind: Kind, outs: Props): Found {
  const inputs = Object.fromEntries(
    propertiesOf(kind).flatMap((k) => (outs[k] === undefined ? [] : [[k, outs[k]]])),
  );
  return { outs: defined(outs), inputs: defined(inputs) };
}
