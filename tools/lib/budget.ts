// A check planned against the hour's rate budget. Every counter of docs/api.md#rate-limits counts a
// rolling hour (rest:global: 7,000 calls), and a refresh of a large stack can need more than is
// left: a call facing a used-up counter waits `maxRateLimitWaitSeconds` and then fails, midway.
// So before a stack is checked, mediahost-drift reads each account's counters, prices the
// refresh (each kind's `refreshReads`, each operation's counters from the contract) and checks
// all of it, the part that fits, or nothing, saying which in one line before it starts.
import { GLOBAL_COUNTER, type OperationName, operations } from "mediahost-contract";
import {
  ACCOUNT_READ,
  DEFAULT_ACCOUNT,
  kindByName,
  type RefreshRead,
  storedState,
} from "../../provider/for-tools";
import { kindOfUrn } from "./diff";

/** Calls by counter. */
export type Calls = Record<string, number>;

/** A counter as `GET /v2/account/limits` answers it (`reset` in Unix seconds). */
export interface Counter {
  count: number;
  limit: number;
  remaining: number;
  reset: number;
}

/** A resource of this provider in a stack's state: what its refresh reads, and from which account. */
export interface Checked {
  urn: string;
  /** The account name the resource names (`default` when none). */
  account: string;
  reads: readonly RefreshRead[];
}

/**
 * Calls kept back from every counter: the check's own last read of the counters, and room for
 * what the plan cannot see (entries of the stack's folders that it does not manage add listing
 * pages; a file whose size or mtime changed is downloaded).
 */
export const reserveOf = (limit: number) => 5 + Math.ceil(limit / 100);

/** The counters one call of `operation` counts (docs/api.md#rate-limits). */
export function countersOf(operation: OperationName): string[] {
  const spec = operations[operation] as { counters?: (input: object) => string[] };
  return [GLOBAL_COUNTER, ...(spec.counters?.({}) ?? [])];
}

/** The resources of this provider in an exported state, with what their refresh reads. */
export function checkedOf(
  resources: readonly { urn: string; type?: string; outputs?: Record<string, unknown> }[],
): Checked[] {
  return resources.flatMap((r) => {
    const kind = kindByName(kindOfUrn(r.urn));
    if (!kind || !r.type?.includes("mediahost")) return [];
    const state = storedState(r.outputs ?? {});
    return [{ urn: r.urn, account: state.account ?? DEFAULT_ACCOUNT, reads: kind.refreshReads(state) }];
  });
}

/**
 * The calls of a refresh of some resources, added one at a time: resources that share a read
 * (siblings in one listing page, the points of one file) pay for it once a batch.
 */
export class CallPlan {
  private readonly shared = new Map<string, number>();
  /** Calls by account, then by counter. */
  readonly calls = new Map<string, Calls>();

  /** The calls adding `r` would add, by counter. */
  costOf(r: Checked): Calls {
    const cost: Calls = {};
    const seen = new Map<string, number>();
    for (const read of this.runReads(r)) {
      const key = sharedKey(r.account, read);
      const n = (seen.get(key) ?? this.shared.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (callsFor(n, read.batch) > callsFor(n - 1, read.batch))
        for (const c of countersOf(read.operation)) cost[c] = (cost[c] ?? 0) + 1;
    }
    return cost;
  }

  add(r: Checked): void {
    const cost = this.costOf(r);
    for (const read of this.runReads(r)) {
      const key = sharedKey(r.account, read);
      this.shared.set(key, (this.shared.get(key) ?? 0) + 1);
    }
    const calls = this.calls.get(r.account) ?? {};
    for (const [c, n] of Object.entries(cost)) calls[c] = (calls[c] ?? 0) + n;
    this.calls.set(r.account, calls);
  }

  /** The resource's reads, and the account read every run makes for its account check. */
  private runReads(r: Checked): readonly RefreshRead[] {
    return [ACCOUNT_READ, ...r.reads];
  }
}

const sharedKey = (account: string, read: RefreshRead) => `${account}\0${read.operation}\0${read.key}`;
const callsFor = (n: number, batch = 1) => (n === 0 ? 0 : batch === Infinity ? 1 : Math.ceil(n / batch));

/** The calls a refresh of all of `resources` makes, by account and counter. */
export function callsOf(resources: readonly Checked[]): Map<string, Calls> {
  const plan = new CallPlan();
  for (const r of resources) plan.add(r);
  return plan.calls;
}

/**
 * What may be spent now, by account and counter: what is left, less the reserve, and with a
 * `--budget` share, no more than that share of the hour's limit less what this run has spent
 * already (a fleet shares one budget per account).
 */
export function allowanceOf(counters: Record<string, Counter>, share?: number, spent: Calls = {}): Calls {
  return Object.fromEntries(
    Object.entries(counters).map(([name, c]) => {
      const left = c.remaining - reserveOf(c.limit);
      const cap = share === undefined ? left : Math.floor((c.limit * share) / 100) - (spent[name] ?? 0);
      return [name, Math.max(0, Math.min(left, cap))];
    }),
  );
}

export interface Selection {
  /** URNs to check now, in the order given. */
  now: string[];
  /** URNs left for the next run. */
  left: string[];
  /** The calls checking `now` makes, by account and counter. */
  calls: Map<string, Calls>;
}

/**
 * The resources that fit the allowances, in order: each is taken when what it adds fits every
 * counter it counts on (a resource sharing a read already paid for adds nothing), else left.
 */
export function select(resources: readonly Checked[], allowance: Map<string, Calls>): Selection {
  const plan = new CallPlan();
  const now: string[] = [];
  const left: string[] = [];
  for (const r of resources) {
    const cost = plan.costOf(r);
    const spent = plan.calls.get(r.account) ?? {};
    const room = allowance.get(r.account) ?? {};
    const fits = Object.entries(cost).every(([c, n]) => (spent[c] ?? 0) + n <= (room[c] ?? Infinity));
    if (fits) {
      plan.add(r);
      now.push(r.urn);
    } else left.push(r.urn);
  }
  return { now, left, calls: plan.calls };
}
