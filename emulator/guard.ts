// Who may use the control surface and the console (everything under /_emulator/): the /v2 API
// is for any client (with the service's CORS headers), the control surface only for the person
// or tool at this emulator. Three checks, in order:
//   1. the Host header names the address the emulator listens on, a loopback name when it
//      listens on loopback or on every interface, or a name given with --allow-host: a page
//      whose host name was rebound to this address (DNS rebinding) is refused;
//   2. same origin only: a request a browser marks as cross-site (Origin, Sec-Fetch-Site) is
//      refused, and no answer under /_emulator/ carries CORS headers;
//   3. bound beyond loopback (or given --control-token), a token: `Authorization: Bearer`,
//      `X-Emulator-Token`, or the cookie the console's `?token=` link sets.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyRequest } from "fastify";

export const CONTROL_PREFIX = "/_emulator";
export const CONSOLE_PATH = "/_emulator/console";

export const isControlPath = (url: string) =>
  url.startsWith(CONTROL_PREFIX) &&
  (url.length === CONTROL_PREFIX.length || "/?".includes(url[CONTROL_PREFIX.length] as string));

/**
 * True for a request the control surface or the console will answer: by the route it matched
 * (`/%5Femulator/state` is routed to `/_emulator/state`), or by its decoded path when it matched
 * none, so no spelling of a path gets past the checks.
 */
export function isControlRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined && isControlPath(route)) return true;
  const raw = request.url.split("?", 1)[0] as string;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // not decodable: the router answers 400
  }
  return isControlPath(raw) || isControlPath(decoded);
}

/** A host as a URL writes it: IPv6 literals in brackets. */
export const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

/** `Host` header → lower-case host name without port or brackets; undefined when unusable. */
export function hostnameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let h = header.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end < 0) return undefined;
    h = h.slice(1, end);
  } else {
    const colon = h.indexOf(":");
    if (colon >= 0) h = h.slice(0, colon);
  }
  h = h.replace(/\.$/, "");
  return h === "" ? undefined : h;
}

const strip = (host: string) => host.replace(/^\[|\]$/g, "").toLowerCase();

export function isLoopback(host: string): boolean {
  const h = strip(host);
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function isWildcard(host: string): boolean {
  const h = strip(host);
  return h === "0.0.0.0" || h === "::" || h === "";
}

export interface Refusal {
  status: 401 | 403;
  message: string;
}

export class ControlGuard {
  /** The token the control surface asks for, when it asks for one. */
  readonly token: string | undefined;
  private readonly listen: string;
  private readonly allowed: Set<string>;
  /** Cookie name: per port, as cookies are shared by every port of a host. */
  cookieName = "mediahost-emulator";

  constructor(listenHost: string, allowHosts: readonly string[] = [], token?: string) {
    this.listen = strip(listenHost);
    // a name given with a port (`emulator:8080`) counts by its name, as Host headers are compared
    this.allowed = new Set(allowHosts.map((h) => hostnameOf(h) ?? strip(h)));
    this.token = token ?? (isLoopback(listenHost) ? undefined : randomBytes(24).toString("base64url"));
  }

  listening(port: number): void {
    this.cookieName = `mediahost-emulator-${port}`;
  }

  /** True when a request naming this host may reach the control surface. */
  hostAllowed(hostname: string | undefined): boolean {
    if (hostname === undefined) return false;
    if (this.allowed.has(hostname) || hostname === this.listen) return true;
    const local = isLoopback(this.listen) || isWildcard(this.listen);
    if (local && isLoopback(hostname)) return true;
    // on every interface, any address of this machine is this emulator; an IP literal cannot
    // be a rebound name
    return isWildcard(this.listen) && isIP(hostname) !== 0;
  }

  /** Why this request may not reach the control surface, or undefined when it may. */
  check(request: FastifyRequest): Refusal | undefined {
    const host = request.headers.host;
    const hostname = hostnameOf(host);
    if (!this.hostAllowed(hostname)) {
      return {
        status: 403,
        message: `Host not allowed: ${hostname ?? "(none)"} (the control surface answers only at the address it listens on; add names with --allow-host)`,
      };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) {
      return { status: 403, message: "Cross-origin requests to the control surface are refused" };
    }
    const site = request.headers["sec-fetch-site"];
    // a link to the console from elsewhere may open it (it shows nothing without the rest)
    const navigation =
      request.method === "GET" &&
      request.headers["sec-fetch-mode"] === "navigate" &&
      request.url.split("?")[0] === CONSOLE_PATH;
    if (site !== undefined && site !== "same-origin" && site !== "none" && !navigation) {
      return { status: 403, message: "Cross-site requests to the control surface are refused" };
    }
    if (this.token === undefined || this.presented(request) || this.linkToken(request)) return undefined;
    return {
      status: 401,
      message:
        "The control surface needs the token the emulator printed at start (Authorization: Bearer <token>, or the console link it printed)",
    };
  }

  /** The token in the request's Authorization header, X-Emulator-Token header or cookie. */
  private presented(request: FastifyRequest): boolean {
    const auth = request.headers.authorization;
    const header = request.headers["x-emulator-token"];
    const candidates = [
      auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined,
      typeof header === "string" ? header : undefined,
      cookie(request.headers.cookie, this.cookieName),
    ];
    return candidates.some((c) => c !== undefined && this.matches(c));
  }

  /** The console's link: `GET /_emulator/console?token=...` (exchanged for a cookie at once). */
  private linkToken(request: FastifyRequest): boolean {
    const [path, query] = request.url.split("?", 2);
    if (request.method !== "GET" || path !== CONSOLE_PATH || !query) return false;
    const token = new URLSearchParams(query).get("token");
    return token !== null && this.matches(token);
  }

  matches(candidate: string): boolean {
    if (this.token === undefined) return true;
    const a = Buffer.from(candidate);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

function cookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
