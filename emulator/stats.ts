// Statistics computed from what the emulator itself served and stored, by UTC day. Kept in
// memory (they start empty at each start), bounded to the last KEEP_DAYS days.
const DAY = 86_400_000;
const KEEP_DAYS = 400;

interface Traffic {
  requests: number;
  bytes: number;
}

export interface Range {
  from: number;
  to: number;
}

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOfDay = (time: number) => Math.floor(time / DAY) * DAY;

/** docs/api.md#bounds defaults: HTTP and storage stats cover one month ago (start of day) to today's end. */
export function monthRange(from: string | undefined, to: string | undefined, now: number): Range {
  const month = new Date(now);
  month.setUTCMonth(month.getUTCMonth() - 1);
  return {
    from: from ? Date.parse(from) : startOfDay(month.getTime()),
    to: to ? Date.parse(to) : startOfDay(now) + DAY - 1,
  };
}

/** Spin views default to the last day. */
export function dayRange(from: string | undefined, to: string | undefined, now: number): Range {
  return { from: from ? Date.parse(from) : now - DAY, to: to ? Date.parse(to) : now };
}

/** The days of a range, clamped to the days statistics can exist for. */
function* days(range: Range): Generator<string> {
  const now = Date.now();
  const end = Math.min(range.to, startOfDay(now) + DAY - 1);
  for (let t = Math.max(startOfDay(range.from), startOfDay(now - KEEP_DAYS * DAY)); t <= end; t += DAY) {
    yield dayOf(t);
  }
}

function add(into: Traffic, bytes: number): void {
  into.requests++;
  into.bytes += bytes;
}

export class TrafficStats {
  private readonly traffic = new Map<string, Traffic & { byType: Map<string, Traffic> }>();
  private readonly storage = new Map<string, { used: number; files: number }>();
  private readonly spins = new Map<string, Map<string, number>>();

  constructor(private readonly current: () => { used: number; files: number }) {}

  /** A file delivered (CDN or download): counts toward HTTP, traffic and spin-view stats. */
  delivered(time: number, path: string, bytes: number, contentType: string): void {
    const day = dayOf(time);
    let t = this.traffic.get(day);
    if (!t) {
      t = { requests: 0, bytes: 0, byType: new Map() };
      this.traffic.set(day, t);
      this.prune(time);
    }
    add(t, bytes);
    let byType = t.byType.get(contentType);
    if (!byType) {
      byType = { requests: 0, bytes: 0 };
      t.byType.set(contentType, byType);
    }
    add(byType, bytes);
    if (path.endsWith(".spin")) {
      let views = this.spins.get(day);
      if (!views) {
        views = new Map();
        this.spins.set(day, views);
      }
      views.set(path, (views.get(path) ?? 0) + 1);
    }
  }

  /** Records the storage in use now as the value of today (the last sample of a day wins). */
  sampleStorage(time: number): void {
    this.storage.set(dayOf(time), this.current());
  }

  http(range: Range): Record<string, unknown> {
    const total = { requests: 0, bytes: 0 };
    const list = [...days(range)].map((date) => {
      const t = this.traffic.get(date);
      total.requests += t?.requests ?? 0;
      total.bytes += t?.bytes ?? 0;
      return { date, requests: t?.requests ?? 0, bytes: t?.bytes ?? 0 };
    });
    return { ...iso(range), total, days: list };
  }

  aggregatedTraffic(range: Range): Record<string, unknown> {
    const total = { requests: 0, bytes: 0 };
    const byContentType: Record<string, Traffic> = {};
    for (const date of days(range)) {
      for (const [type, t] of this.traffic.get(date)?.byType ?? []) {
        const into = byContentType[type] ?? { requests: 0, bytes: 0 };
        into.requests += t.requests;
        into.bytes += t.bytes;
        byContentType[type] = into;
        total.requests += t.requests;
        total.bytes += t.bytes;
      }
    }
    return { ...iso(range), total, byContentType };
  }

  storageHistory(range: Range, now: number): Record<string, unknown> {
    this.sampleStorage(now);
    const sampled = [...this.storage.keys()].sort();
    const list: { date: string; used: number; files: number }[] = [];
    let last: { used: number; files: number } | undefined;
    // a day without a sample carries the previous day's value forward
    for (const date of days({ from: Math.min(range.from, Date.parse(sampled[0] as string)), to: range.to })) {
      last = this.storage.get(date) ?? last;
      if (last && Date.parse(date) + DAY > range.from) list.push({ date, ...last });
    }
    return { ...iso(range), days: list };
  }

  spinViews(range: Range): Record<string, unknown> {
    const views = new Map<string, number>();
    for (const date of days(range)) {
      for (const [path, n] of this.spins.get(date) ?? []) views.set(path, (views.get(path) ?? 0) + n);
    }
    const spins = [...views]
      .map(([filename, n]) => ({ filename, views: n }))
      .sort((a, b) => b.views - a.views);
    return { ...iso(range), total: spins.reduce((s, v) => s + v.views, 0), spins };
  }

  private prune(now: number): void {
    const oldest = dayOf(now - KEEP_DAYS * DAY);
    for (const map of [this.traffic, this.storage, this.spins]) {
      for (const day of map.keys()) if (day < oldest) map.delete(day);
    }
  }
}

function iso(range: Range): { from: string; to: string } {
  return { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };
}
