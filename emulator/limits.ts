// Rate-limit counters of docs/api.md#rate-limits, each counted over a rolling 60 minutes. Requests are
// kept as per-second buckets, so a window holds at most 3,600 entries whatever the traffic.
import { counterLimits } from "mediahost-contract";

export const WINDOW_SECONDS = 3600;

export interface CounterState {
  count: number;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted request leaves the window (now when none). */
  reset: number;
}

class Window {
  private seconds: number[] = [];
  private counts: number[] = [];
  private head = 0;
  private total = 0;

  private prune(now: number): void {
    while (this.head < this.seconds.length && (this.seconds[this.head] as number) <= now - WINDOW_SECONDS) {
      this.total -= this.counts[this.head] as number;
      this.head++;
    }
    // drop the consumed prefix now and then instead of shifting on every request
    if (this.head > 512 && this.head * 2 > this.seconds.length) {
      this.seconds = this.seconds.slice(this.head);
      this.counts = this.counts.slice(this.head);
      this.head = 0;
    }
  }

  count(now: number): number {
    this.prune(now);
    return this.total;
  }

  add(now: number, n: number): void {
    this.prune(now);
    const last = this.seconds.length - 1;
    if (last >= this.head && this.seconds[last] === now)
      this.counts[last] = (this.counts[last] as number) + n;
    else {
      this.seconds.push(now);
      this.counts.push(n);
    }
    this.total += n;
  }

  reset(now: number): number {
    this.prune(now);
    return this.head < this.seconds.length ? (this.seconds[this.head] as number) + WINDOW_SECONDS : now;
  }

  clear(): void {
    this.seconds = [];
    this.counts = [];
    this.head = 0;
    this.total = 0;
  }
}

/** One account's counters. Times are Unix seconds. */
export class Limiter {
  private readonly windows = new Map<string, Window>();
  private readonly limits = new Map<string, number>();

  private window(counter: string): Window {
    let w = this.windows.get(counter);
    if (!w) {
      w = new Window();
      this.windows.set(counter, w);
    }
    return w;
  }

  limitOf(counter: string): number {
    return this.limits.get(counter) ?? counterLimits[counter] ?? Number.POSITIVE_INFINITY;
  }

  /** The first of `counters` that has no room left for one more request, if any. */
  exceeded(counters: readonly string[], now: number): string | undefined {
    return counters.find((c) => this.window(c).count(now) >= this.limitOf(c));
  }

  consume(counters: readonly string[], now: number): void {
    for (const c of counters) this.window(c).add(now, 1);
  }

  state(counter: string, now: number): CounterState {
    const w = this.window(counter);
    const count = w.count(now);
    const limit = this.limitOf(counter);
    return { count, limit, remaining: Math.max(0, limit - count), reset: w.reset(now) };
  }

  /** Every counter docs/api.md#rate-limits reports (plus any a test has set), for GET /v2/account/limits. */
  all(now: number): Record<string, CounterState> {
    const names = new Set([...Object.keys(counterLimits), ...this.limits.keys()]);
    const out: Record<string, CounterState> = {};
    for (const name of names) out[name] = this.state(name, now);
    return out;
  }

  setLimit(counter: string, limit: number): void {
    this.limits.set(counter, limit);
  }

  /** Replaces the window's content by `used` requests counted at `now`. */
  setUsed(counter: string, used: number, now: number): void {
    const w = this.window(counter);
    w.clear();
    if (used > 0) w.add(now, used);
  }
}
