// Rate-limit counters as the service reports them in response headers. Two header variants
// exist (docs/api.md) and both are read: `x-ratelimit-*` with a `type` naming the counter, and
// `x-global-ratelimit-*` for the global REST counter. The earlier variant sends `x-ratelimit-*`
// with type `rest:global`, which lands in the same place.
import { counterLimits, GLOBAL_COUNTER } from "mediahost-contract";

export interface CounterState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the counter's window frees up. */
  reset: number;
  /** When this reading was taken (ms since epoch). */
  seenAt: number;
}

type Headers = Record<string, string | string[] | undefined>;

function num(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function str(headers: Headers, name: string): string | undefined {
  const raw = headers[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** Every header a counter reading may come in (both variants), for answers read outside `call`. */
export const RATE_LIMIT_HEADERS = ["x-global-ratelimit", "x-ratelimit"]
  .flatMap((prefix) => ["limit", "remaining", "reset"].map((k) => `${prefix}-${k}`))
  .concat("x-ratelimit-type");

/** Reads every counter a response reports. */
export function countersFromHeaders(headers: Headers, now = Date.now()): Map<string, CounterState> {
  const out = new Map<string, CounterState>();
  const read = (prefix: string, name: string | undefined) => {
    const limit = num(headers, `${prefix}-limit`);
    const remaining = num(headers, `${prefix}-remaining`);
    const reset = num(headers, `${prefix}-reset`);
    if (name && limit !== undefined && remaining !== undefined && reset !== undefined) {
      out.set(name, { limit, remaining, reset, seenAt: now });
    }
  };
  read("x-global-ratelimit", GLOBAL_COUNTER);
  read("x-ratelimit", str(headers, "x-ratelimit-type") ?? GLOBAL_COUNTER);
  return out;
}

/**
 * What a 429 says about when to come back: the reset of the counter named in the headers, or
 * failing that the time written in the message ("... may resume at <time>").
 */
export function rateLimitFrom(
  headers: Headers,
  message: string | undefined,
  now = Date.now(),
): { counter?: string; resetAt?: Date } {
  const counters = countersFromHeaders(headers, now);
  const type = str(headers, "x-ratelimit-type");
  const exhausted =
    [...counters.entries()].find(([, c]) => c.remaining <= 0) ??
    (type ? [type, counters.get(type)] : undefined) ??
    [...counters.entries()][0];
  const fromMessage = message?.match(/rate limit exceeded for ([\w:.-]+)/i)?.[1];
  const counter = exhausted?.[0] ?? fromMessage;
  if (exhausted?.[1]) return { counter, resetAt: new Date(exhausted[1].reset * 1000) };
  const iso = message?.match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z?/)?.[0];
  const parsed = iso ? Date.parse(iso) : Number.NaN;
  return { counter, resetAt: Number.isNaN(parsed) ? undefined : new Date(parsed) };
}

/**
 * How long a `Retry-After` header asks to wait (RFC 9110: delay seconds, or an HTTP date), in
 * ms from `now`; undefined when there is none or it cannot be read.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = str(headers, "retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A share of each counter's hourly limit one run may spend (`mediahost:rateBudgetPercent`): a
 * refresh of a large stack stops at it, with one line, before it takes the hour the account's
 * other writers (CI, other stacks, the console) need. The limit is the one the service's headers
 * report, else docs/api.md's.
 */
export class RunBudget {
  private readonly spent = new Map<string, number>();

  constructor(readonly percent: number) {}

  /** Why a call counting on `counters` may not go out now, or undefined when it may. */
  refusal(counters: readonly string[], seen: ReadonlyMap<string, CounterState>): string | undefined {
    for (const counter of counters) {
      const limit = seen.get(counter)?.limit ?? counterLimits[counter];
      if (limit === undefined) continue;
      const allowed = Math.floor((limit * this.percent) / 100);
      const spent = this.spent.get(counter) ?? 0;
      if (spent < allowed) continue;
      const state = seen.get(counter);
      const left = state
        ? ` (${state.remaining.toLocaleString("en-US")} left on the account until ${new Date(state.reset * 1000).toISOString().replace(/\.\d+Z$/, "Z")})`
        : "";
      return (
        `this run has spent ${spent.toLocaleString("en-US")} ${counter} calls, the ${this.percent}% of the hour's ` +
        `${limit.toLocaleString("en-US")} that mediahost:rateBudgetPercent allows${left}`
      );
    }
    return undefined;
  }

  /** A call the service counted. */
  spend(counters: readonly string[]): void {
    for (const counter of counters) this.spent.set(counter, (this.spent.get(counter) ?? 0) + 1);
  }
}
