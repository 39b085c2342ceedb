// The log of /v2 requests the control surface serves, so tests can count API calls by
// operation and the console can show them as they arrive. A ring buffer: memory stays bounded
// however long the emulator runs. Entries carry no body, and their query is masked
// (emulator/secrets.ts) before it is stored.

export interface LogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  /** The query string as sent (URL-encoded), credentials masked; absent when there was none. */
  query?: string;
  operation: string | null;
  status: number;
  account: string | null;
  /** The rate-limit counter the answer named (`x-ratelimit-type`), or null. */
  counter: string | null;
  /** Milliseconds from the request's arrival to its answer (injected latency included). */
  latencyMs: number;
  /** Present when the connection was closed without an answer. */
  dropped?: true;
  /** Present for a hand change made in the console (it goes through /v2 like any call). */
  via?: "console";
}

export const LOG_CAPACITY = 50_000;

export type LogListener = (entry: LogEntry) => void;

export class RequestLog {
  private readonly ring: (LogEntry | undefined)[];
  private seq = 0;
  private readonly listeners = new Set<LogListener>();

  constructor(private readonly capacity = LOG_CAPACITY) {
    this.ring = new Array(capacity);
  }

  push(entry: Omit<LogEntry, "seq">): void {
    this.seq++;
    const logged = { seq: this.seq, ...entry };
    this.ring[this.seq % this.capacity] = logged;
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(logged);
  }

  /** Calls `listener` with every entry pushed from now on; returns the unsubscribe function. */
  subscribe(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The seq of the newest entry (0 before the first). */
  get last(): number {
    return this.seq;
  }

  /** Entries with seq > `since`, oldest first; seq keeps growing across clears. */
  since(since: number): { requests: LogEntry[]; next: number } {
    const first = Math.max(since + 1, this.seq - this.capacity + 1, 1);
    const requests: LogEntry[] = [];
    for (let s = first; s <= this.seq; s++) {
      const e = this.ring[s % this.capacity];
      if (e && e.seq === s) requests.push(e);
    }
    return { requests, next: Math.max(since, this.seq) };
  }

  clear(): void {
    this.ring.fill(undefined);
  }
}
