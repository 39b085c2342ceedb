// Fault injection for tests and benchmarks: latency with jitter, a share of answers replaced by
// 500, 503 or a dropped connection, lost responses after an operation was applied, and a window
// of maintenance (every call refused with 503 and a `Retry-After`). Every random choice comes
// from one seeded generator, so a run is repeatable.
import { generator } from "./random";

export interface FaultSettings {
  /** Share (0..1) of /v2 requests answered with 500, 503 or a dropped connection. */
  faultRate: number;
  /** Further share (0..1) of /v2 requests whose connection is dropped without an answer. */
  dropRate: number;
  latencyMs: number;
  /** Up to this many milliseconds are added at random to `latencyMs`. */
  latencyJitterMs: number;
  /** Overrides the lifetime of every token issued from now on. */
  tokenTtlSeconds?: number;
  seed: number;
}

export type Fault = { kind: "status"; status: 500 | 503 } | { kind: "drop" };

/** POSTs that change nothing of an account: no write opens a window on them. */
const READING_POSTS = new Set(["token", "search", "searchScroll", "searchEvents"]);

/**
 * A window in which every /v2 call is refused with 503 before the service sees it, with a
 * `Retry-After` that names the window's end as seconds or as an HTTP date (or none). It opens on
 * the next call (`on: "any"`) or the next write (`on: "write"`: not a GET, a token or a search).
 */
export interface Unavailable {
  seconds: number;
  retryAfter: "seconds" | "date" | "none";
  on: "any" | "write";
}

export class Faults {
  settings: FaultSettings;
  private random: () => number;
  private readonly dropAfter = new Map<string, number>();
  /** Calls a gateway in front answers with 502 before the service sees them, per operation. */
  private readonly badGateway = new Map<string, number>();
  /** A window armed to open on its next call, or open until `until` (ms since epoch). */
  private unavailable?: Unavailable & { until?: number };

  constructor(settings: Partial<FaultSettings> = {}) {
    this.settings = { faultRate: 0, dropRate: 0, latencyMs: 0, latencyJitterMs: 0, seed: 1, ...settings };
    this.random = generator(this.settings.seed);
  }

  update(
    change: Partial<FaultSettings> & {
      dropAfterApply?: { operation: string; count: number };
      unavailable?: Partial<Unavailable> & { seconds: number };
      badGateway?: { operation: string; count: number };
    },
  ): void {
    const { dropAfterApply, unavailable, badGateway, ...rest } = change;
    if (badGateway) this.badGateway.set(badGateway.operation, badGateway.count);
    this.settings = { ...this.settings, ...rest };
    if (rest.seed !== undefined) this.random = generator(rest.seed);
    if (dropAfterApply) this.dropAfter.set(dropAfterApply.operation, dropAfterApply.count);
    if (unavailable)
      this.unavailable =
        unavailable.seconds > 0 ? { retryAfter: "seconds", on: "any", ...unavailable } : undefined;
  }

  /**
   * While a window of unavailability is open (opening it if this call is the one it waits for):
   * the `Retry-After` to answer with ("" for none); undefined outside a window.
   */
  refusal(method: string, operation: string | null, now = Date.now()): string | undefined {
    const window = this.unavailable;
    if (!window) return undefined;
    if (window.until === undefined) {
      if (window.on === "write" && (method === "GET" || READING_POSTS.has(operation ?? ""))) return undefined;
      window.until = now + window.seconds * 1000;
    }
    if (now >= window.until) {
      this.unavailable = undefined;
      return undefined;
    }
    if (window.retryAfter === "none") return "";
    if (window.retryAfter === "date") return new Date(window.until).toUTCString();
    return String(Math.ceil((window.until - now) / 1000));
  }

  /** Milliseconds to hold a request before handling it. */
  delay(): number {
    const { latencyMs, latencyJitterMs } = this.settings;
    if (latencyMs <= 0 && latencyJitterMs <= 0) return 0;
    return latencyMs + Math.floor(this.random() * latencyJitterMs);
  }

  /** The fault that replaces this request's answer, if any. */
  roll(): Fault | undefined {
    const { faultRate, dropRate } = this.settings;
    if (faultRate > 0 && this.random() < faultRate) {
      const pick = Math.floor(this.random() * 3);
      return pick === 2 ? { kind: "drop" } : { kind: "status", status: pick === 0 ? 500 : 503 };
    }
    if (dropRate > 0 && this.random() < dropRate) return { kind: "drop" };
    return undefined;
  }

  /** True when this applied call of `operation` must lose its response. */
  takeDropAfterApply(operation: string): boolean {
    return take(this.dropAfter, operation);
  }

  /** True when a gateway must answer this call of `operation` with 502 before the service sees it. */
  takeBadGateway(operation: string | null): boolean {
    return operation !== null && take(this.badGateway, operation);
  }

  /** What POST /_emulator/faults answers: the settings in force, pending lost responses included. */
  view(): Record<string, unknown> {
    const window = this.unavailable;
    return {
      ...this.settings,
      dropAfterApply: Object.fromEntries(this.dropAfter),
      badGateway: Object.fromEntries(this.badGateway),
      ...(window
        ? {
            unavailable: {
              seconds: window.seconds,
              retryAfter: window.retryAfter,
              on: window.on,
              until: window.until === undefined ? null : new Date(window.until).toISOString(),
            },
          }
        : {}),
    };
  }
}

/** Counts one of `operation`'s calls off `counts`: true while some were left. */
function take(counts: Map<string, number>, operation: string): boolean {
  const left = counts.get(operation);
  if (!left) return false;
  if (left <= 1) counts.delete(operation);
  else counts.set(operation, left - 1);
  return true;
}
