// Statistics computed from what the emulator itself served and stored, by UTC day. Kept in
// memory (they start empty at each start), bounded to the last KEEP_DAYS days.
import { schemas } from "mediahost-contract";

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

/** Who viewed a spin, from the CDN request (docs/api.md#statistics). */
export interface Viewer {
  referer?: string;
  userAgent?: string;
  /** The query of the request, kept in the event's origin. */
  query?: string;
  /** What the viewer reports once ready: the spin's frames and its size (emulator/cdn.ts). */
  spin?: SpinData;
}

/** `event.data` of a view: rows and columns of frames, and the viewer's size in pixels. */
export interface SpinData {
  rows: number;
  columns: number;
  viewerSize: { width: number; height: number };
}

interface SpinView {
  time: number;
  path: string;
  viewer: Viewer;
}

/** Spin view events kept per day: bounded memory under load tests. */
const MAX_VIEWS_PER_DAY = 10_000;

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOfDay = (time: number) => Math.floor(time / DAY) * DAY;

/** docs/api.md#statistics defaults: HTTP and storage stats cover one month ago (start of day) to today's end. */
export function monthRange(from: string | undefined, to: string | undefined, now: number): Range {
  const month = new Date(now);
  month.setUTCMonth(month.getUTCMonth() - 1);
  return {
    from: from ? schemas.statsTime(from) : startOfDay(month.getTime()),
    to: to ? schemas.statsTime(to) : startOfDay(now) + DAY - 1,
  };
}

/** Spin views default to the day before `to`, and `to` to now. */
export function dayRange(from: string | undefined, to: string | undefined, now: number): Range {
  const end = to ? schemas.statsTime(to) : now;
  return { from: from ? schemas.statsTime(from) : end - DAY, to: end };
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
  private readonly spins = new Map<string, SpinView[]>();

  constructor(private readonly current: () => { used: number; files: number }) {}

  /** A file delivered (CDN or download): counts toward HTTP, traffic and spin-view stats. */
  delivered(time: number, path: string, bytes: number, contentType: string, viewer: Viewer = {}): void {
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
        views = [];
        this.spins.set(day, views);
      }
      if (views.length < MAX_VIEWS_PER_DAY) views.push({ time, path, viewer });
    }
  }

  /** Records the storage in use now as the value of today (the last sample of a day wins). */
  sampleStorage(time: number): void {
    this.storage.set(dayOf(time), this.current());
  }

  /** Requests and bytes delivered, keyed by each day's start in ms (docs/api.md#statistics). */
  http(range: Range): Record<string, { total: { count: number; size: number } }> {
    const out: Record<string, { total: { count: number; size: number } }> = {};
    for (const date of days(range)) {
      const t = this.traffic.get(date);
      out[String(Date.parse(date))] = { total: { count: t?.requests ?? 0, size: t?.bytes ?? 0 } };
    }
    return out;
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

  /**
   * The storage in use by day, keyed by each day's start in ms, with the plan's fixed figures
   * (`plan`: what the account's storage answer says besides used and files).
   */
  storageHistory(
    range: Range,
    now: number,
    plan: { plan: number; burstable: number; extra: number },
  ): Record<string, Record<string, unknown>> {
    this.sampleStorage(now);
    const sampled = [...this.storage.keys()].sort();
    const out: Record<string, Record<string, unknown>> = {};
    let last: { used: number; files: number } | undefined;
    // a day without a sample carries the previous day's value forward
    for (const date of days({ from: Math.min(range.from, Date.parse(sampled[0] as string)), to: range.to })) {
      last = this.storage.get(date) ?? last;
      const day = Date.parse(date);
      if (!last || day + DAY <= range.from) continue;
      const exceeded = last.used > plan.plan ? new Date(day).toISOString() : null;
      out[String(day)] = { ...plan, used: last.used, files: last.files, quotaExceededDate: exceeded };
    }
    return out;
  }

  /** One event per spin view in the range, oldest first (docs/api.md#statistics). */
  spinViews(range: Range): Record<string, unknown>[] {
    const events: Record<string, unknown>[] = [];
    for (const date of days(range)) {
      for (const view of this.spins.get(date) ?? []) {
        if (view.time >= range.from && view.time <= range.to) events.push(viewEvent(view));
      }
    }
    return events;
  }

  private prune(now: number): void {
    const oldest = dayOf(now - KEEP_DAYS * DAY);
    for (const map of [this.traffic, this.storage, this.spins]) {
      for (const day of map.keys()) if (day < oldest) map.delete(day);
    }
  }
}

/** `user_agent_parsed` as documented: every field a string; "Other" or "" where not known. */
export interface ParsedUserAgent {
  name: string;
  os: string;
  os_name: string;
  os_major: string;
  device: string;
  major: string;
  minor: string;
  patch: string;
  build: string;
}

/** The common browsers and systems, read from a User-Agent header (the emulator's small parser). */
export function parseUserAgent(ua: string): ParsedUserAgent {
  const version = (re: RegExp) => re.exec(ua)?.slice(1) ?? undefined;
  const safari = /\bSafari\//.test(ua) && !/\b(Chrome|Chromium|Edg)\//.test(ua);
  const found: [string, (string | undefined)[] | undefined][] = [
    ["Edge", version(/\bEdg\/(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?/)],
    ["Firefox", version(/\bFirefox\/(\d+)(?:\.(\d+))?(?:\.(\d+))?/)],
    ["Chrome", version(/\bChrome\/(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?/)],
    ["Safari", safari ? version(/\bVersion\/(\d+)(?:\.(\d+))?(?:\.(\d+))?/) : undefined],
  ];
  const [name, numbers] = found.find(([, v]) => v !== undefined) ?? ["Other", []];
  const parts = numbers ?? [];
  let osName = "Other";
  let osVersion = "";
  const windows = /Windows NT (\d+\.\d+)/.exec(ua);
  const ios = /(?:iPhone|CPU) OS (\d+(?:_\d+)*)/.exec(ua);
  const mac = /Mac OS X (\d+(?:[_.]\d+)*)/.exec(ua);
  const android = /Android (\d+(?:\.\d+)*)/.exec(ua);
  if (windows) {
    osName = "Windows";
    osVersion =
      ({ "10.0": "10", "6.3": "8.1", "6.2": "8", "6.1": "7" } as Record<string, string>)[
        windows[1] as string
      ] ?? "";
  } else if (ios) {
    osName = "iOS";
    osVersion = (ios[1] as string).replace(/_/g, ".");
  } else if (mac) {
    osName = "Mac OS X";
    osVersion = (mac[1] as string).replace(/_/g, ".");
  } else if (android) {
    osName = "Android";
    osVersion = android[1] as string;
  } else if (/Linux/.test(ua)) osName = "Linux";
  const device = /iPhone/.test(ua) ? "iPhone" : /iPad/.test(ua) ? "iPad" : "Other";
  return {
    name,
    os: osVersion ? `${osName} ${osVersion}` : osName,
    os_name: osName,
    os_major: osVersion.split(".")[0] ?? "",
    device,
    major: parts[0] ?? "",
    minor: parts[1] ?? "",
    patch: parts[2] ?? "",
    build: parts[3] ?? "",
  };
}

/**
 * A view in the documented shape. The emulator knows the time, the spin, the referer, the user
 * agent (parsed by parseUserAgent) and the spin's frames; the viewer's size is that of the first
 * frame, and the location is its own fixed value.
 */
function viewEvent(view: SpinView): Record<string, unknown> {
  const referer = view.viewer.referer ?? "";
  let refererUrl: URL | undefined;
  try {
    refererUrl = referer ? new URL(referer) : undefined;
  } catch {
    refererUrl = undefined;
  }
  return {
    "@timestamp": new Date(view.time).toISOString(),
    referer,
    user_agent: view.viewer.userAgent ?? "",
    user_agent_parsed: parseUserAgent(view.viewer.userAgent ?? ""),
    referer_proto: refererUrl?.protocol.replace(/:$/, "") ?? "",
    referer_host: refererUrl?.host ?? "",
    referer_uripath: refererUrl?.pathname ?? "",
    event: {
      origin: `${view.path}${view.viewer.query ?? ""}`,
      type: "spin",
      name: "viewerReady",
      data: view.viewer.spin ?? { rows: 1, columns: 0, viewerSize: { width: 0, height: 0 } },
    },
    geoip: {
      country_code2: "ZZ",
      country_name: "Unknown",
      region_name: "Unknown",
      timezone: "UTC",
      real_region_name: "Unknown",
    },
  };
}

/** The range as the aggregated-traffic answer (the emulator's own shape) states it. */
function iso(range: Range): { from: string; to: string } {
  return { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };
}
