// When the account writer (provider/account/writer.ts) stops gathering changes and writes. The
// account-update counter allows 50 writes an hour, so one write should carry a whole wave of the
// engine's account steps; but every slot the wave holds waits for it, so it must not wait for
// changes that cannot come. Each rule below is one situation, with its unit test
// (test/unit/pacing.test.ts); the measurements behind the numbers are in docs/benchmark.md,
// "What dominates", and what was tried is in docs/benchmark-history.md.
import type { MediahostClient } from "../client";
import type { RemovalRule } from "./account-object";

const ACCOUNT_UPDATE_COUNTER = "rest:post:account";
/** At or below this many account updates left, the writer gathers changes for longer... */
const SCARCE_REMAINING = 10;
/** ...until none has come for this long... */
const SCARCE_QUIET_MS = 400;
/** ...but never longer than this. */
const SCARCE_MAX_WAIT_MS = 4_000;
/** Otherwise a write waits for a quiet spell, but never longer than this. */
const GATHER_MAX_WAIT_MS = 2_000;
/** The shortest quiet spell: the engine sends its next steps within a few ms of a result. */
const MIN_QUIET_MS = 25;
/** The quiet spell is this many times the gap seen between changes arriving together. */
const QUIET_PER_GAP = 3;
/** How often a gathering writer looks again (other operations may have finished). */
const POLL_MS = 10;
/** While other operations are at work, a change may follow the last one this many round trips later. */
const OTHERS_ROUND_TRIPS = 3;
/** For this many round trips of a gather, the end of another operation restarts the quiet spell... */
const FOLLOW_ROUND_TRIPS = 3;
/** ...and for this many in a run's first wave, or in a wave that holds few of the engine's slots. */
const FIRST_FOLLOW_ROUND_TRIPS = 8;

/** What the session tells the writer about the process (provider/session.ts), and the longest quiet spell. */
export interface PacingOptions {
  /** The longest quiet spell (no new change) the writer waits for before it reads and writes. */
  coalesceMs?: number;
  /**
   * How many operations of this provider process are under way (the session's count): those not
   * waiting for an account writer may still free the engine's slots for more account changes.
   */
  operationsUnderWay?: () => number;
  /** How many of them wait for an account writer, this one or another account's (default: this one's). */
  waitingOnWriters?: () => number;
  /** When the last operation of the process ended (ms since the epoch): the engine fills its slot next. */
  lastOperationEnd?: () => number;
  /** Whether the run has made nothing but deletes so far (a destroy): creates and updates follow none. */
  onlyDeletes?: () => boolean;
}

/** The most operations of the process seen under way at once (about the engine's `--parallel`), and since when. */
export interface Peak {
  underWay: number;
  since: number;
}

/** What a gather knows at one moment. Times are ms since the epoch. */
export interface Gathering extends Wave {
  now: number;
  /** When this gather began. */
  started: number;
  /** Few account updates are left this hour: gather longer, and no shortcut. */
  scarce: boolean;
  /** When the last change arrived. */
  lastChangeAt: number;
  /** When the last check resolved changes (their resources return; the engine sends more). */
  resolvedAt: number;
  /** When the last operation of the process ended (its slot goes to the engine's next step). */
  lastOperationEnd: number;
  /** Operations of the process under way, and those of them not waiting for an account writer. */
  underWay: number;
  othersAtWork: number;
  /** Whether the run has made nothing but deletes so far (a destroy). */
  onlyDeletes: boolean;
  /** The service's round trip, once an answer has measured it. */
  roundTripMs?: number;
  /** The writer's longest quiet spell. */
  coalesceMs: number;
  /** The gap seen between changes arriving together (smoothed), once seen. */
  arrivalGapMs?: number;
  /** Whether an account update has told how many are left this hour. */
  counterKnown: boolean;
}

/** Whether few account updates are left before the counter resets. */
export function isScarce(counter: { remaining: number; reset: number } | undefined, now: number): boolean {
  return !!counter && counter.remaining <= SCARCE_REMAINING && now < counter.reset * 1000;
}

/** The longest a gather lasts. */
function maxGatherMs(scarce: boolean): number {
  return scarce ? SCARCE_MAX_WAIT_MS : GATHER_MAX_WAIT_MS;
}

/**
 * The gap between changes arriving together, smoothed; a gap longer than the longest quiet spell
 * starts a new burst.
 */
export function nextArrivalGap(
  gapMs: number | undefined,
  lastChangeAt: number,
  now: number,
  coalesceMs: number,
): number | undefined {
  const gap = now - lastChangeAt;
  if (lastChangeAt > 0 && gap < coalesceMs) return gapMs === undefined ? gap : (gapMs + gap) / 2;
  return gapMs;
}

/** A few times the gap seen between changes arriving together: how soon the engine sends the next one. */
export function paceMs(arrivalGapMs: number | undefined, coalesceMs: number): number {
  return Math.min(coalesceMs, Math.max(MIN_QUIET_MS, QUIET_PER_GAP * (arrivalGapMs ?? 0)));
}

/**
 * The quiet spell after which no more change is expected: the pace; the longest until a gap has
 * been seen and a write has told how many account updates are left (the counter comes back only
 * on an account update), as a first wave may be the hour's last writes; longer when few are left.
 */
export function quietMs(g: Gathering): number {
  if (g.scarce) return SCARCE_QUIET_MS;
  if (g.arrivalGapMs === undefined || !g.counterKnown) return g.coalesceMs;
  return paceMs(g.arrivalGapMs, g.coalesceMs);
}

/** The round trip, or before the first answer the shortest quiet spell standing for it. */
function roundTrip(g: Gathering): number {
  return g.roundTripMs ?? MIN_QUIET_MS;
}

/** How old a read may be and still be the base of a write: a round trip of the service. */
export function freshMs(roundTripMs: number | undefined): number {
  return Math.max(MIN_QUIET_MS, roundTripMs ?? 0);
}

/** The peak after seeing `underWay` operations at `now`. */
function notePeak(peak: Peak, underWay: number, now: number): Peak {
  return underWay > peak.underWay ? { underWay, since: now } : peak;
}

// ---- the rules: each says whether to write now ------------------------------------------------------

/**
 * A lone removal: a run's first alias removal goes with those that came together with it, not
 * with the whole wave. If its check shows the service keeps removed aliases, no other removal
 * needs a write at all, and those waiting meanwhile return at once.
 */
export function firstRemovalGoes(g: Gathering): boolean {
  return !g.scarce && g.learnsRemovalRule && g.now - g.lastChangeAt >= MIN_QUIET_MS;
}

/**
 * A run of deletes (a destroy), once removals need no write: what can still come is settings
 * resets, none worth holding the other steps' slots for, so a reset goes at the engine's pace.
 */
export function runOfDeletesGoes(g: Gathering): boolean {
  return (
    !g.scarce &&
    g.removalRule === "ignored" &&
    g.onlyDeletes &&
    g.now - g.lastChangeAt >= paceMs(g.arrivalGapMs, g.coalesceMs)
  );
}

/**
 * Full slots: every slot of the engine waits for a writer — as many operations under way as the
 * most ever seen, a most that has held a while (the engine's `--parallel`, not a wave still
 * arriving), none at other work. The engine sends nothing more before this wave returns, so
 * only a slot just freed and being filled is waited for, at the engine's own pace.
 */
export function fullSlotsGo(g: Gathering, peak: Peak): boolean {
  return (
    !g.scarce &&
    g.underWay > 0 &&
    g.underWay === peak.underWay &&
    g.now - peak.since >= g.coalesceMs &&
    g.othersAtWork === 0 &&
    g.now - Math.max(g.lastChangeAt, g.resolvedAt, g.lastOperationEnd) >= paceMs(g.arrivalGapMs, g.coalesceMs)
  );
}

/**
 * How long, from the start of a gather, the end of another operation counts as a change still
 * coming (it freed a slot whose next step may be one). Longer in the first wave, which the engine
 * started among its other steps in no order of ours, and for a wave of few changes among many
 * slots (a lone change): the engine's queue may hold the next account steps a few steps behind,
 * and waiting costs little then, while a wave split costs an account update.
 */
export function followMs(g: Gathering, peak: Peak): number {
  const fewOfMany = g.queued * 2 <= peak.underWay;
  return (!g.wroteBefore || fewOfMany ? FIRST_FOLLOW_ROUND_TRIPS : FOLLOW_ROUND_TRIPS) * roundTrip(g);
}

/**
 * The quiet spell a gather waits for: the writer's own, or, while others are at work, a few round
 * trips (one of them may still end and free a slot).
 */
function waitForQuietMs(g: Gathering): number {
  const quiet = quietMs(g);
  return g.othersAtWork > 0 ? Math.max(quiet, OTHERS_ROUND_TRIPS * roundTrip(g)) : quiet;
}

/**
 * One look of a gather: "write", or how long to sleep before looking again, and the peak as it
 * stands after this look.
 */
export function gatherStep(g: Gathering, peak: Peak): { next: "write" | number; peak: Peak } {
  if (firstRemovalGoes(g) || runOfDeletesGoes(g)) return { next: "write", peak };
  const seen = notePeak(peak, g.underWay, g.now);
  if (fullSlotsGo(g, seen)) return { next: "write", peak: seen };
  const following = g.now - g.started < followMs(g, seen);
  const quietFor = g.now - Math.max(g.lastChangeAt, g.resolvedAt, following ? g.lastOperationEnd : 0);
  const left = maxGatherMs(g.scarce) - (g.now - g.started);
  if (left <= 0) return { next: "write", peak: seen };
  const waitMs = waitForQuietMs(g);
  if (quietFor >= waitMs && !(following && g.othersAtWork > 0)) return { next: "write", peak: seen };
  return { next: Math.min(Math.max(1, waitMs - quietFor), POLL_MS, left), peak: seen };
}

/** What the writer's queue says of the wave it gathers, at each look. */
export interface Wave {
  /** Changes queued for this write. */
  queued: number;
  /** Whether this writer has written before in this run (later waves start together, on a check). */
  wroteBefore: boolean;
  removalRule: RemovalRule;
  /** Whether the next write teaches the removal rule: a removal waits, and the rule is unknown. */
  learnsRemovalRule: boolean;
}

/** The pace of one account writer: what it has seen of the engine's steps, and its gathers. */
export class Pacer {
  private lastChangeAt = 0;
  /** The gap between changes arriving together, as last seen (smoothed); undefined until seen. */
  private arrivalGapMs?: number;
  /** When the last check resolved changes: their resources return, and the engine sends more. */
  private resolvedAt = 0;
  private peak: Peak = { underWay: 0, since: 0 };

  constructor(
    private readonly client: Pick<MediahostClient, "counters" | "roundTripMs">,
    private readonly options: Required<PacingOptions> & { sleep: (ms: number) => Promise<void> },
  ) {}

  /** A change arrived at `now`. */
  arrived(now: number): void {
    this.arrivalGapMs = nextArrivalGap(this.arrivalGapMs, this.lastChangeAt, now, this.options.coalesceMs);
    this.lastChangeAt = now;
  }

  /** A check resolved changes at `now`. */
  resolved(now: number): void {
    this.resolvedAt = now;
  }

  /** Waits until the rules above say the wave is whole: one write carries what the engine can send. */
  async gather(wave: () => Wave): Promise<void> {
    const scarce = isScarce(this.client.counters.get(ACCOUNT_UPDATE_COUNTER), Date.now());
    const started = Date.now();
    for (;;) {
      const { next, peak } = gatherStep(this.look(started, scarce, wave()), this.peak);
      this.peak = peak;
      if (next === "write") return;
      await this.options.sleep(next);
    }
  }

  /** What a gather started at `started` knows now. */
  private look(started: number, scarce: boolean, wave: Wave): Gathering {
    const { options } = this;
    const underWay = options.operationsUnderWay();
    return {
      ...wave,
      now: Date.now(),
      started,
      scarce,
      lastChangeAt: this.lastChangeAt,
      resolvedAt: this.resolvedAt,
      lastOperationEnd: options.lastOperationEnd(),
      underWay,
      othersAtWork: Math.max(0, underWay - options.waitingOnWriters()),
      onlyDeletes: options.onlyDeletes(),
      roundTripMs: this.client.roundTripMs,
      coalesceMs: options.coalesceMs,
      arrivalGapMs: this.arrivalGapMs,
      counterKnown: this.client.counters.has(ACCOUNT_UPDATE_COUNTER),
    };
  }
}
