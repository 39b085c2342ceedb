// Moving file content: small files in one request (the simple upload), large ones through the
// API's tus link with tus-js-client (resumable: an interrupted upload continues from what the
// server holds, in this run through its retries and in a later run through the offset it stored),
// and downloads hashed as they arrive.
import { createHash } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type * as Tus from "tus-js-client";
import type { MediahostClient } from "./client";
import { MediahostError, ProviderError } from "./errors";
import { RATE_LIMIT_HEADERS, rateLimitFrom } from "./rate-limits";

/** Files up to this size go in one request; larger ones through tus (docs/api.md#uploads-and-fetches). */
export const SIMPLE_UPLOAD_MAX = 8 * 1024 * 1024;
/** The size of one tus PATCH: what a retry resends at most. */
const TUS_CHUNK = 8 * 1024 * 1024;
/** How long a tus link stays valid (the longest upload this allows). */
const TUS_LINK_SECONDS = 6 * 3600;

/** What to upload: bytes in memory, or a local file read as it goes. */
export type Content = { bytes: Uint8Array } | { file: string; size: number };

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The content's SHA-256 and size, reading a local file as a stream. */
export async function digest(content: Content): Promise<{ sha256: string; size: number }> {
  if ("bytes" in content) return { sha256: sha256(content.bytes), size: content.bytes.byteLength };
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(content.file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}

/**
 * The file at `path` downloaded and hashed as it arrives (refresh and delete compare it with what
 * was written): memory stays bounded whatever the file's size.
 */
export function remoteDigest(
  client: MediahostClient,
  path: string,
): Promise<{ sha256: string; size: number }> {
  return client.stream("download", { query: { filename: path } }, async (body) => {
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of body) {
      hash.update(chunk);
      size += chunk.byteLength;
    }
    return { sha256: hash.digest("hex"), size };
  });
}

interface UploadOptions {
  contentType?: string;
  /** Progress lines for large uploads (every 10%). */
  progress?: (message: string) => void;
  /** Names the upload for resuming in a later run: the account, path and content hash. */
  fingerprint: string;
}

/** The name an upload is resumed by: the service, account, path and content. */
export function uploadFingerprint(baseUrl: string, account: string, path: string, sha: string): string {
  return `${baseUrl}|${account}|${path}|${sha}`;
}

/** What an upload tells of the file it wrote: when the service answered it (its `Date`), if it said. */
export interface Uploaded {
  answeredAt?: Date;
}

/** Uploads `content` to `path`, in one request or through tus by its size. */
export async function upload(
  client: MediahostClient,
  path: string,
  content: Content,
  options: UploadOptions,
): Promise<Uploaded> {
  const size = "bytes" in content ? content.bytes.byteLength : content.size;
  if (size <= SIMPLE_UPLOAD_MAX) {
    const bytes = "bytes" in content ? content.bytes : await readAll(content.file);
    const body = options.contentType ? { bytes, contentType: options.contentType } : { bytes };
    const { answeredAt } = await client.callDated("upload", { query: { filename: path }, body });
    return { answeredAt };
  }
  // a tus upload refused by the upload counter waits for its reset, as other calls do, and then
  // continues where it stopped (the upload's URL is stored under its fingerprint)
  for (let waits = 0; ; waits++) {
    try {
      return await tusUpload(client, path, content, size, options);
    } catch (err) {
      const limited = err instanceof MediahostError && err.kind === "rateLimited";
      const waited =
        limited && waits < 3 ? await client.waitForReset("tusUpload", err.counter, err.resetAt) : undefined;
      if (waited !== undefined) continue;
      throw err;
    }
  }
}

/** tus-js-client's Node build, as it behaves. */
interface TusNode {
  /** Takes a file's stream (read by path, so that an upload resumes) or its bytes. */
  Upload: new (
    file: Buffer | ReadStream,
    options: Tus.UploadOptions,
  ) => Tus.Upload;
  /** Keeps unfinished uploads' URLs in a file. */
  FileUrlStorage: new (
    file: string,
  ) => Tus.UrlStorage;
}

/**
 * Loads tus-js-client (only for a large upload: most runs never need it). Its type declarations
 * are the browser build's, which takes no stream and has no FileUrlStorage: the one place
 * provider/ takes a module's types on trust.
 */
async function tusNode(): Promise<TusNode> {
  const loaded: unknown = await import("tus-js-client");
  return loaded as TusNode;
}

/** tus-js-client's error as the client's: a 429 is a rate limit; no upload link or token in the text. */
function tusError(client: MediahostClient, path: string, err: Error): MediahostError {
  const response = (err as Tus.DetailedError).originalResponse;
  const status = response?.getStatus?.();
  // its first line names the request's URL, whose query holds the upload link's token
  const serviceMessage = client.redact(
    (err.message.split("\n")[0] ?? "").replace(/\?[^\s,)]*/g, "?[redacted]"),
  );
  if (status === 429) {
    const headers = Object.fromEntries(
      RATE_LIMIT_HEADERS.map((h) => [h, response?.getHeader(h) ?? undefined]),
    );
    const { counter, resetAt } = rateLimitFrom(headers, response?.getBody?.());
    return new MediahostError({
      kind: "rateLimited",
      operation: "tusUpload",
      subject: path,
      status,
      serviceMessage,
      counter: counter ?? "rest:post:files:upload",
      resetAt,
    });
  }
  return new MediahostError({ kind: "http", operation: "tusUpload", subject: path, status, serviceMessage });
}

function loose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim();
  }
}

async function readAll(file: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function tusUpload(
  client: MediahostClient,
  path: string,
  content: Content,
  size: number,
  options: UploadOptions,
): Promise<Uploaded> {
  // both answers are undocumented (docs/api.md#uploads-and-fetches): JSON if it is, else the text
  const locations = loose(await client.ops.getTusLocations());
  const first = Array.isArray(locations) ? locations[0] : locations;
  // a name, an object naming it (`{name}`), or a map keyed by names
  const location =
    typeof first === "string"
      ? first
      : typeof (first as { name?: unknown })?.name === "string"
        ? (first as { name: string }).name
        : Object.keys(first ?? {})[0];
  if (!location) throw new ProviderError("the service offers no tus upload location");
  const link = loose(await client.ops.getTusUrl({ query: { location, expiresIn: TUS_LINK_SECONDS } }));
  const endpoint = typeof link === "string" ? link : (link as { url?: string })?.url;
  if (!endpoint) throw new ProviderError("the service's tus link answer names no URL");
  // where unfinished uploads are kept to resume in a later run (provider/config.ts); none: not kept
  const store = client.uploadResumeFile;
  if (store) await mkdir(dirname(store), { recursive: true });
  const tus = await tusNode();
  const source = "bytes" in content ? Buffer.from(content.bytes) : createReadStream(content.file);
  let reported = -1;
  return new Promise<Uploaded>((resolve, reject) => {
    const up = new tus.Upload(source, {
      endpoint,
      uploadSize: size,
      chunkSize: TUS_CHUNK,
      metadata: { filename: path, ...(options.contentType ? { filetype: options.contentType } : {}) },
      retryDelays: [0, 1000, 3000, 5000],
      ...(store ? { urlStorage: new tus.FileUrlStorage(store) } : {}),
      fingerprint: async () => options.fingerprint,
      storeFingerprintForResuming: !!store,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => {
        const tenth = Math.floor((sent / total) * 10);
        if (tenth > reported) {
          reported = tenth;
          options.progress?.(`uploading ${path}: ${tenth * 10}% of ${total} bytes`);
        }
      },
      onSuccess: ({ lastResponse }) => {
        const date = Date.parse(lastResponse?.getHeader("date") ?? "");
        resolve(Number.isNaN(date) ? {} : { answeredAt: new Date(date) });
      },
      onError: (err) => reject(tusError(client, path, err)),
    });
    // an upload of the same content to the same path left unfinished by an earlier run continues
    up.findPreviousUploads().then(
      (previous) => {
        if (previous[0]) up.resumeFromPreviousUpload(previous[0]);
        up.start();
      },
      () => up.start(),
    );
  });
}
