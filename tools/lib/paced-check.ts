// A stack's check paced to its accounts' rate budgets (tools/lib/budget.ts prices it): the
// counters read before (GET /v2/account/limits), the plan told in one line before the check
// begins, and the calls the check cost read from the same counters after it.
import { MediahostClient } from "../../provider/for-tools";
import {
  allowanceOf,
  type Calls,
  type Checked,
  type Counter,
  callsOf,
  reserveOf,
  type Selection,
  select,
} from "./budget";
import type { NamedAccount } from "./fleet";
import type { CounterSpend } from "./reports";

/** What this run may spend and has spent, per account, shared by every stack of the run. */
export class AccountBudgets {
  private readonly clients = new Map<string, MediahostClient>();
  private readonly spent = new Map<string, Calls>();

  /**
   * `share`: `--budget`, the percent of each counter's hourly limit the run may spend.
   * `shards`: runners that check the same accounts at once (`--shard K/N`), each taking its part.
   */
  constructor(
    readonly share: number | undefined,
    private readonly shards = 1,
  ) {}

  /** The account's counters now (one call, counted on `rest:global` like any other). */
  async counters(account: NamedAccount): Promise<Record<string, Counter>> {
    let client = this.clients.get(account.key);
    if (!client) {
      // a plan is worth one quick try: a service that does not answer is the refresh's to report
      const once = { maxRateLimitWaitMs: 0, maxAttempts: 1, deadlineMs: 10_000 };
      client = new MediahostClient({ ...account.credentials, ...once });
      this.clients.set(account.key, client);
    }
    return client.ops.getLimits();
  }

  /** What a stack of this account may spend now, by counter. */
  allowance(key: string, counters: Record<string, Counter>): Calls {
    const mine = Object.fromEntries(
      Object.entries(counters).map(([name, c]) => [
        name,
        { ...c, remaining: Math.floor(c.remaining / this.shards), limit: Math.floor(c.limit / this.shards) },
      ]),
    );
    return allowanceOf(mine, this.share, this.spent.get(key));
  }

  /** The calls counted between two readings of the account's counters, kept as this run's. */
  record(
    key: string,
    before: Record<string, Counter>,
    after: Record<string, Counter>,
  ): Record<string, CounterSpend> {
    const spent = this.spent.get(key) ?? {};
    const out: Record<string, CounterSpend> = {};
    for (const [name, c] of Object.entries(after)) {
      const calls = Math.max(0, c.count - (before[name]?.count ?? 0));
      if (calls === 0) continue;
      spent[name] = (spent[name] ?? 0) + calls;
      out[name] = { calls, limit: c.limit };
    }
    this.spent.set(key, spent);
    return out;
  }
}

export interface StackPlan {
  /** The URNs to check, or undefined for the whole stack. */
  targets?: string[];
  /** URNs left for a later run. */
  left: string[];
  /** Why nothing is checked, in one line. */
  refusal?: string;
  /** What the plan is, in one line, for the progress. */
  line: string;
  /** When the first counter that held the check back frees up again. */
  resumeAfter?: string;
  /** Each account's counters as read before the check, by account key. */
  before: Map<string, Record<string, Counter>>;
}

const n = (x: number) => x.toLocaleString("en-US");
const at = (reset: number) => new Date(reset * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/**
 * Reads the counters of every account the resources reach, and plans their check: all of it when
 * it fits; else, with a `--budget`, the part that fits (what the last run left first), or without
 * one, nothing, with the one line that says why. An account whose counters cannot be read is
 * checked without a plan (with a `--budget`: not at all).
 */
export async function planStack(
  resources: readonly Checked[],
  accounts: Map<string, NamedAccount>,
  budgets: AccountBudgets,
  leftBefore: ReadonlySet<string>,
): Promise<StackPlan> {
  // a resource's account by key: two names of one account share its budget
  const byKey = resources.map((r) => ({ ...r, account: accounts.get(r.account)?.key ?? r.account }));
  const ordered = [
    ...byKey.filter((r) => leftBefore.has(r.urn)),
    ...byKey.filter((r) => !leftBefore.has(r.urn)),
  ];
  const before = new Map<string, Record<string, Counter>>();
  const allowance = new Map<string, Calls>();
  for (const account of new Map([...accounts.values()].map((a) => [a.key, a])).values()) {
    if (!byKey.some((r) => r.account === account.key)) continue;
    try {
      const counters = await budgets.counters(account);
      before.set(account.key, counters);
      allowance.set(account.key, budgets.allowance(account.key, counters));
    } catch (err) {
      const why = "the account's rate-limit counters could not be read";
      if (budgets.share !== undefined) {
        const refusal = `${why} (${(err as Error).message}): --budget cannot be kept`;
        return { left: byKey.map((r) => r.urn), refusal, line: why, before };
      }
      return { left: [], line: `warning: ${why}: checking without a plan`, before };
    }
  }
  const needed = callsOf(ordered);
  const short = shortfalls(needed, allowance, before);
  const total = (calls: Map<string, Calls>) =>
    [...calls.values()].reduce((sum, c) => sum + (c["rest:global"] ?? 0), 0);
  if (short.length === 0)
    return { left: [], line: `planned ${n(total(needed))} rest:global calls: within the budget`, before };
  const first = short[0]!;
  const why =
    `the check needs ${n(first.needed)} ${first.counter} calls and ${n(first.allowed)} may be spent now` +
    ` (${n(first.remaining)} left, ${n(first.reserve)} kept back${budgets.share === undefined ? "" : `, --budget ${budgets.share}%`})` +
    ` until ${at(first.reset)}`;
  if (budgets.share === undefined)
    return {
      left: ordered.map((r) => r.urn),
      refusal: `${why}: nothing was checked; run again after the reset, or with --budget PERCENT to check part of it now`,
      line: why,
      resumeAfter: at(first.reset),
      before,
    };
  const chosen: Selection = select(ordered, allowance);
  return {
    targets: chosen.now,
    left: chosen.left,
    line: `${why}: checking ${n(chosen.now.length)} of ${n(ordered.length)} resources (${n(total(chosen.calls))} calls), the rest left for the next run`,
    resumeAfter: at(first.reset),
    before,
  };
}

interface Shortfall {
  counter: string;
  needed: number;
  allowed: number;
  remaining: number;
  reserve: number;
  reset: number;
}

/** Every counter of every account whose need goes past what may be spent, the soonest reset first. */
function shortfalls(
  needed: Map<string, Calls>,
  allowance: Map<string, Calls>,
  before: Map<string, Record<string, Counter>>,
): Shortfall[] {
  const out: Shortfall[] = [];
  for (const [key, calls] of needed) {
    const room = allowance.get(key);
    const counters = before.get(key);
    if (!room || !counters) continue;
    for (const [counter, need] of Object.entries(calls)) {
      const c = counters[counter];
      const allowed = room[counter];
      if (!c || allowed === undefined || need <= allowed) continue;
      out.push({
        counter,
        needed: need,
        allowed,
        remaining: c.remaining,
        reserve: reserveOf(c.limit),
        reset: c.reset,
      });
    }
  }
  return out.sort((a, b) => a.reset - b.reset);
}
