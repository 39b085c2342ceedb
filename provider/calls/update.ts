// An update: one object that runs its steps in order. The lifecycle (provider/lifecycle.ts) hands
// it the call and shapes what fails.
import { describe, type Kind, kindContext, type State, type Stored } from "../resources/kind";
import type { Move } from "../run-plan";
import type { Session } from "../session";
import { accountName, Call, defined } from "./call";

type Props = Record<string, unknown>;

export class Update extends Call {
  constructor(
    session: Session,
    kind: Kind,
    private readonly id: string,
    private readonly stored: Stored,
    private readonly news: Props,
  ) {
    super(session, kind, describe(kind, stored));
  }

  /**
   * The update, in order: the account is opened (under the new account name); the object is
   * where this run's moves took it (the kind's update then finds nothing to move, or, for its own
   * move, moves it from there); the kind updates it; its own move, if any, is settled; the outputs
   * keep what the lifecycle recorded.
   */
  async run(): Promise<Props> {
    const { kind, news } = this;
    const { ctx, alias, olds } = await this.open(this.id, this.stored, accountName(news));
    const move = this.ownMove(alias, olds);
    const current = await this.whereNow(alias, olds, move);
    try {
      const extra = await kind
        .update(kindContext(ctx, alias), current, news)
        .catch((err: unknown) => Promise.reject(this.parentMissing(err, news, alias)));
      move?.settle();
      return defined({ ...this.stored, ...news, ...extra, ...this.carried() });
    } catch (err) {
      move?.settle(err);
      throw err;
    }
  }

  /** The move this update carries out itself (planned at diff), if the object moves. */
  private ownMove(alias: string, olds: State): Move | undefined {
    const prop = this.kind.tree?.location;
    if (prop === undefined || !this.kind.tree?.moves || olds[prop] === this.news[prop]) return undefined;
    const from = olds[prop];
    const to = this.news[prop];
    if (typeof from !== "string" || typeof to !== "string") return undefined;
    const plan = this.session.plan;
    return plan.plannedMove(this.kind, alias, from, to) ?? plan.planMove(this.kind, alias, from, to);
  }

  /** What the lifecycle recorded, carried as it was. */
  private carried(): Props {
    const { accountAlias, __adopted, __claim } = this.stored;
    return { accountAlias, __adopted, __claim };
  }
}
