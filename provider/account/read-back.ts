// When to read back a whole-object write (the alias map, a folder's option set). A competing
// writer like this provider (another stack, a CI job) whose read came just before our write lands
// its write, made from that older read, about one round trip after its read: read back sooner and
// its write undoes ours after we looked. So the read that verifies a write waits one write's
// round trip after it (docs/reliability.md).

/** The least pause, for a service that answers at once. */
const MIN_PAUSE_MS = 50;
/** The most: a slow service is no reason to hold every write longer. */
const MAX_PAUSE_MS = 2_000;

/** The pause between a write that took `writeTookMs` to return and the read that verifies it. */
export function readBackPause(writeTookMs: number): number {
  return Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, writeTookMs));
}

/** The jittered pause before writing again what another writer undid (50 to 300 ms). */
export function rewritePause(random: () => number): number {
  return 50 + Math.floor(random() * 250);
}
