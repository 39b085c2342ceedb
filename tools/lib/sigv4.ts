// AWS Signature Version 4 for the S3 calls of a DIY state backend on an object store: what
// mediahost-recover sends to read and release a lock, and what the tests' object store helper
// (scripts/objectstore.ts) sends to set buckets up. Bodiless requests, or bodies left unsigned.
import { createHash, createHmac } from "node:crypto";

/** The text of an XML element as S3 escapes it. */
export const unescapeXml = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|#34|#39|apos);/g, (_, e: string) =>
    e === "lt" ? "<" : e === "gt" ? ">" : e === "amp" ? "&" : e === "quot" || e === "#34" ? '"' : "'",
  );
// RFC 3986 encoding, as SigV4 wants it
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const encodePath = (path: string) => path.split("/").map(encode).join("/");
const canonicalQuery = (query: Record<string, string>) =>
  Object.keys(query)
    .sort()
    .map((k) => `${encode(k)}=${encode(query[k] ?? "")}`)
    .join("&");

/** The URL of `path` with `query`, encoded as it is signed. */
export function signedUrl(origin: string, path: string, query: Record<string, string>): string {
  const q = canonicalQuery(query);
  return `${origin}${encodePath(path)}${q ? `?${q}` : ""}`;
}

/** The hash of an empty body, for a bodiless request. */
export const EMPTY_PAYLOAD = createHash("sha256").update("").digest("hex");

/**
 * AWS Signature Version 4 headers of a request: its body's hash is `payload` (`EMPTY_PAYLOAD`
 * for none, or `UNSIGNED-PAYLOAD`).
 */
export function sign(
  method: string,
  origin: string,
  path: string,
  query: Record<string, string>,
  keys: { access: string; secret: string; token?: string; region: string },
  payload = EMPTY_PAYLOAD,
): Record<string, string> {
  const amzDate = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    host: new URL(origin).host,
    "x-amz-content-sha256": payload,
    "x-amz-date": amzDate,
    ...(keys.token ? { "x-amz-security-token": keys.token } : {}),
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    method,
    encodePath(path),
    canonicalQuery(query),
    ...names.map((n) => `${n}:${headers[n]}`),
    "",
    names.join(";"),
    payload,
  ].join("\n");
  const scope = `${day}/${keys.region}/s3/aws4_request`;
  const toSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    scope,
    createHash("sha256").update(canonical).digest("hex"),
  ].join("\n");
  const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  const key = hmac(hmac(hmac(hmac(`AWS4${keys.secret}`, day), keys.region), "s3"), "aws4_request");
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  const { host: _, ...rest } = headers;
  return {
    ...rest,
    authorization: `AWS4-HMAC-SHA256 Credential=${keys.access}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`,
  };
}
