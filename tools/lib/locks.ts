// The locks of a DIY backend's stack, and whether one may be released. Pulumi's DIY backend takes a
// lock by writing `.pulumi/locks/organization/<project>/<stack>/<uuid>.json` holding its holder
// (`pid`, `username`, `hostname`, `timestamp`: `lockContent` in pkg/backend/diy/lock.go), and
// deletes it when the update ends; `pulumi cancel` deletes them all, a live update's too. Pure: no
// I/O, unit-tested (test/unit/tools-locks.test.ts).

export interface Lock {
  /** The lock's key in the backend. */
  key: string;
  pid?: number;
  username?: string;
  hostname?: string;
  /** When it was taken. */
  takenAt?: Date;
}

/** Where a stack's locks are, under the backend's root (the stack named without its project). */
export function lockDir(project: string, stack: string): string {
  return `.pulumi/locks/organization/${project}/${stack.split("/").pop()}/`;
}

/** A lock file's holder, as far as its JSON tells. */
export function parseLock(key: string, text: string): Lock {
  let raw: Record<string, unknown> = {};
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a lock whose holder cannot be read is judged by nothing but the bound
  }
  const at = typeof raw.timestamp === "string" ? new Date(raw.timestamp) : undefined;
  return {
    key,
    pid: typeof raw.pid === "number" ? raw.pid : undefined,
    username: typeof raw.username === "string" ? raw.username : undefined,
    hostname: typeof raw.hostname === "string" ? raw.hostname : undefined,
    takenAt: at && !Number.isNaN(at.getTime()) ? at : undefined,
  };
}

export type Verdict =
  /** Its holder was on this host and its process is gone: an interrupted update's lock. */
  | { release: true; why: "dead"; text: string }
  /** Nothing has moved for longer than the bound the user set: released though not shown dead. */
  | { release: true; why: "stale"; text: string }
  | { release: false; text: string };

export interface Observed {
  now: Date;
  /** This machine's host name. */
  host: string;
  /** Whether a process of this host is alive. */
  alive: (pid: number) => boolean;
  /** When the stack's state was last saved (the deployment's manifest time), if known. */
  savedAt?: Date;
  /** Locks whose holder shows no sign of life for longer than this are released. */
  boundMs: number;
}

const ago = (ms: number) =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 7_200_000
      ? `${Math.round(ms / 60_000)} min`
      : `${Math.round(ms / 3_600_000)} h`;

/**
 * Whether `lock` may be released: its holder shown dead (this host, its process gone), or quiet
 * (neither the lock nor a save of the state) for longer than the bound. A save of the state after
 * the lock was taken is the holder's sign of life.
 */
export function judge(lock: Lock, seen: Observed): Verdict {
  const holder = `${lock.username ?? "?"}@${lock.hostname ?? "?"} (pid ${lock.pid ?? "?"})`;
  const age = lock.takenAt ? seen.now.getTime() - lock.takenAt.getTime() : undefined;
  const taken = age === undefined ? "taken at an unknown time" : `taken ${ago(age)} ago`;
  const saved =
    lock.takenAt && seen.savedAt && seen.savedAt > lock.takenAt
      ? `, the state saved ${ago(seen.now.getTime() - seen.savedAt.getTime())} ago`
      : "";
  if (lock.hostname === seen.host && lock.pid !== undefined && !seen.alive(lock.pid))
    return { release: true, why: "dead", text: `by ${holder}, ${taken}: its process is gone` };
  const lastSign = Math.max(lock.takenAt?.getTime() ?? 0, saved ? (seen.savedAt?.getTime() ?? 0) : 0);
  const quietMs = seen.now.getTime() - lastSign;
  if (lock.takenAt && quietMs > seen.boundMs)
    return {
      release: true,
      why: "stale",
      text: `by ${holder}, ${taken}${saved}: quiet for ${ago(quietMs)}, past --lock-timeout (${ago(seen.boundMs)}); its holder was not shown dead`,
    };
  const where = lock.hostname === seen.host ? "alive on this host" : "on another host";
  return { release: false, text: `by ${holder}, ${where}, ${taken}${saved}` };
}
