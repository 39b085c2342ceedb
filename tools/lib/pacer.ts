// Reads paced to an account's rate budget, for a tool whose work can need more calls than the hour
// holds (mediahost-generate --files reads 3 calls a file: its meta, its points and its bytes, and
// docs/api.md offers no bulk read of either; 6,537 files need ~20,000 calls of rest:global's 7,000).
// It says up front what the work needs and what is left, spends what is left less a reserve,
// then waits for the counter to free up, reading it again, instead of meeting a 429.
import { GLOBAL_COUNTER } from "mediahost-contract";
import type { MediahostClient } from "../../provider/for-tools";
import type { Counter } from "./budget";
import { reserveOf } from "./budget";

/** A piece of work and the rest:global calls it makes. */
export interface PacedWork {
  calls: number;
  run(): Promise<void>;
}

export interface PacerOptions {
  /** Pieces in flight at most. */
  concurrency: number;
  /** Without it, work that does not fit what is left is refused before it begins. */
  wait: boolean;
  say(line: string): void;
  /** Longest pause between two readings of the counter while waiting (ms). */
  pollMs?: number;
}

const n = (x: number) => x.toLocaleString("en-US");
const at = (reset: number) => new Date(reset * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/** The one line that says what the work needs against what is left. */
export function budgetLine(needed: number, c: Counter): string {
  const hours = needed / c.limit;
  return (
    `the reads need ${n(needed)} ${GLOBAL_COUNTER} calls (${(100 * hours).toFixed(0)}% of the hour's ` +
    `${n(c.limit)}) and ${n(Math.max(0, c.remaining - reserveOf(c.limit)))} may be spent now ` +
    `(${n(c.remaining)} left, ${n(reserveOf(c.limit))} kept back) until ${at(c.reset)}`
  );
}

/** Runs `work` within the account's rest:global budget (see the module comment). */
export async function runPaced(
  client: MediahostClient,
  work: PacedWork[],
  options: PacerOptions,
): Promise<void> {
  const needed = work.reduce((sum, w) => sum + w.calls, 0);
  if (needed === 0) return;
  const read = async () => (await client.ops.getLimits())[GLOBAL_COUNTER];
  let counter: Counter | undefined;
  try {
    counter = await read();
  } catch (err) {
    options.say(`warning: the account's rate-limit counters could not be read (${(err as Error).message})`);
  }
  if (!counter) {
    // nothing to plan with: the reads go as they always did
    await inFlight(work, options.concurrency);
    return;
  }
  const line = budgetLine(needed, counter);
  const room = (c: Counter) => c.remaining - reserveOf(c.limit);
  if (needed <= room(counter)) {
    options.say(`${line}: within the budget`);
    await inFlight(work, options.concurrency);
    return;
  }
  if (!options.wait)
    throw new Error(
      `${line}: nothing more was read; run again with --wait-for-budget to read at the service's pace ` +
        `(about ${Math.ceil(needed / counter.limit)} h), or read less (--depth, --max-file-size)`,
    );
  options.say(`${line}: reading at the service's pace, waiting for the counter as it frees up`);
  let done = 0;
  let next = 0;
  while (next < work.length) {
    let allowed = room(counter);
    if (allowed <= 0) {
      options.say(
        `  ${n(done)} of ${n(needed)} calls made; waiting for ${GLOBAL_COUNTER} until ${at(counter.reset)}`,
      );
      const pause = Math.min(options.pollMs ?? 30_000, Math.max(1_000, counter.reset * 1000 - Date.now()));
      await new Promise((r) => setTimeout(r, pause));
      counter = (await read()) ?? counter;
      continue;
    }
    const batch: PacedWork[] = [];
    while (next < work.length && (batch.length === 0 || work[next]!.calls <= allowed)) {
      const w = work[next++]!;
      batch.push(w);
      allowed -= w.calls;
      done += w.calls;
    }
    await inFlight(batch, options.concurrency);
    counter = (await read()) ?? counter;
  }
}

/** Runs every piece, at most `concurrency` at once. */
async function inFlight(work: PacedWork[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < work.length) await work[next++]!.run();
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, work.length) }, worker));
}
