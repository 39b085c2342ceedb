// Bearer tokens: compact HS256 JWTs signed with the emulator's own key, carrying the account
// alias, the client id and the expiry. Also used, with a folder's key, for CDN signed URLs.
import { createHmac, timingSafeEqual } from "node:crypto";

export const DEFAULT_TOKEN_TTL = 1200;

export const SCOPES = [
  "account:read",
  "account:write",
  "user:read",
  "user:write",
  "billing:read",
  "billing:write",
  "files:read",
  "files:write",
  "videos",
  "images",
];

const b64 = (value: string | Buffer) => Buffer.from(value).toString("base64url");
const HEADER = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));

export function signJwt(claims: Record<string, unknown>, key: string | Buffer): string {
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

/** The claims of a well-formed, correctly signed and unexpired token, else undefined. */
export function verifyJwt(
  token: string,
  key: string | Buffer,
  nowSeconds: number,
): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof claims !== "object" || claims === null) return undefined;
  const exp = (claims as { exp?: unknown }).exp;
  if (typeof exp !== "number" || exp <= nowSeconds) return undefined;
  return claims as Record<string, unknown>;
}

export interface TokenClaims {
  /** "api" for bearer tokens; tus upload links carry "tus" and are no bearer tokens. */
  use: "api" | "tus";
  /** Alias of the top-level account. */
  sub: string;
  /** The client the token was issued to: a token outlives no change of credentials. */
  cid: string;
  exp: number;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

export function readTokenClaims(
  token: string,
  key: Buffer,
  nowSeconds: number,
  use: TokenClaims["use"],
): TokenClaims | undefined {
  const claims = verifyJwt(token, key, nowSeconds);
  if (!claims || claims.use !== use || typeof claims.sub !== "string" || typeof claims.cid !== "string") {
    return undefined;
  }
  return claims as unknown as TokenClaims;
}
