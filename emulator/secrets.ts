// What the control surface and the console never show: every credential the operation table
// marks (each operation's `secrets` paths), and, whatever the table says, client secrets,
// fetching passwords, S3 secret keys, tokens and the `user:password@` part of URLs.
//
// The one place the emulator reads the table's secret paths (the mediahost-contract package).
import { type OperationName, operations } from "mediahost-contract";

/** What a masked value reads as. An empty string stays empty: it tells that nothing is set. */
export const MASK = "[masked]";

type Part = "query" | "body" | "response";

interface SecretPath {
  part: Part;
  /** Keys to walk; "[]" is every element of an array. */
  keys: string[];
  /** Only the `user:password@` part of a URL is secret. */
  userinfo: boolean;
}

/** `userinfo:body[].url` → {part: "body", keys: ["[]", "url"], userinfo: true} */
function parse(raw: string): SecretPath {
  const userinfo = raw.startsWith("userinfo:");
  const path = userinfo ? raw.slice("userinfo:".length) : raw;
  const keys = path
    .replace(/\[\]/g, ".[]")
    .split(".")
    .filter((k) => k !== "");
  return { part: keys[0] as Part, keys: keys.slice(1), userinfo };
}

const byOperation = new Map<string, SecretPath[]>(
  Object.entries(operations).map(([name, spec]) => [
    name,
    ((spec as { secrets?: readonly string[] }).secrets ?? []).map(parse),
  ]),
);

/** Key names masked wherever they appear, besides the table's paths. */
const SECRET_KEYS = new Set([
  "clientsecret",
  "password",
  "secretaccesskey",
  "s3secret",
  "token",
  "accesstoken",
  "jwt",
  "jwtkey",
  "apikey",
  "secret",
]);
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s]*)@/i;

const maskString = (v: unknown) => (typeof v === "string" && v !== "" ? MASK : v);

/** `https://user:pw@host/x` → `https://[masked]@host/x`; anything else as it is. */
export function maskUserinfo(value: unknown): unknown {
  return typeof value === "string" ? value.replace(USERINFO, (_m, scheme) => `${scheme}${MASK}@`) : value;
}

function apply(value: unknown, keys: string[], userinfo: boolean): unknown {
  if (keys.length === 0) return userinfo ? maskUserinfo(value) : maskString(value);
  const [key, ...rest] = keys as [string, ...string[]];
  if (key === "[]") {
    if (Array.isArray(value))
      for (let i = 0; i < value.length; i++) value[i] = apply(value[i], rest, userinfo);
    return value;
  }
  if (value && typeof value === "object" && Object.hasOwn(value, key)) {
    const o = value as Record<string, unknown>;
    o[key] = apply(o[key], rest, userinfo);
  }
  return value;
}

/** Masks secret key names and URL credentials at any depth (in place). */
function maskKnown(value: unknown): unknown {
  if (typeof value === "string") return maskUserinfo(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskKnown(value[i]);
    return value;
  }
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o))
      o[k] = SECRET_KEYS.has(k.toLowerCase()) ? maskString(o[k]) : maskKnown(o[k]);
  }
  return value;
}

function masked(value: unknown, paths: SecretPath[]): unknown {
  let copy = structuredClone(value);
  for (const p of paths) copy = apply(copy, p.keys, p.userinfo);
  return maskKnown(copy);
}

const pathsOf = (operation: string | null | undefined, part: Part) =>
  (operation ? (byOperation.get(operation) ?? []) : []).filter((p) => p.part === part);

/** A copy of one part of an operation's call or answer, its credentials masked. */
export function maskPart(operation: OperationName | string | null | undefined, part: Part, value: unknown) {
  return masked(value, pathsOf(operation, part));
}

/** Query parameter names whose values are masked: the table's `query.*` paths, and SECRET_KEYS. */
const QUERY_SECRETS = new Set([
  ...SECRET_KEYS,
  ...[...byOperation.values()].flatMap((paths) =>
    paths
      .filter((p) => p.part === "query" && p.keys.length === 1)
      .map((p) => (p.keys[0] as string).toLowerCase()),
  ),
]);
const SECRET_PARAM = new RegExp(`(?:^|&)(?:${[...QUERY_SECRETS].join("|")})=`, "i");

/**
 * A query string as logged: as it came, unless a parameter named as a credential (or a URL with
 * credentials) is in it; then those values read `[masked]`. Cheap when there is nothing to mask:
 * one test of the raw string.
 */
export function maskQuery(query: string): string {
  if (!SECRET_PARAM.test(query) && !/%40|@/.test(query)) return query;
  const params = new URLSearchParams(query);
  const out = new URLSearchParams();
  for (const [k, v] of params) {
    out.append(k, QUERY_SECRETS.has(k.toLowerCase()) && v !== "" ? MASK : (maskUserinfo(v) as string));
  }
  return out.toString();
}

/**
 * A copy of the account object (the shape `GET /v2/account` answers and `POST /v2/account`
 * writes) with its credentials masked: both operations' paths apply to it.
 */
export function maskAccount<T>(account: T): T {
  return masked(account, [...pathsOf("getAccount", "response"), ...pathsOf("updateAccount", "body")]) as T;
}
