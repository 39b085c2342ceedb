// The log of /v2 requests the control surface serves, so tests can count API calls by
// operation. A ring buffer: memory stays bounded however long the emulator runs.

export interface LogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  operation: string | null;
  status: number;
  account: string | null;
  /** Present when the connection was closed without an answer. */
  dropped?: true;
}

export const LOG_CAPACITY = 50_000;

export class RequestLog {
  private readonly ring: (LogEntry | undefined)[];
  private seq = 0;

  constructor(private readonly capacity = LOG_CAPACITY) {
    this.ring = new Array(capacity);
  }

  push(entry: Omit<LogEntry, "seq">): void {
    this.seq++;
    this.ring[this.seq % this.capacity] = { seq: this.seq, ...entry };
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
