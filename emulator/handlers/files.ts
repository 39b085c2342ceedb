// Files and folders: tree operations, listing, stat, download, remote fetch, signed URLs,
// search, jobs and tus upload links.
import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { parentOf } from "mediahost-contract";
import { type Account, FETCH_MAX_FILESIZE, type Initiator } from "../accounts";
import { signJwt } from "../auth";
import type { Context } from "../context";
import { ApiError, badRequest, FsError, httpError, notFound } from "../errors";
import type { Job } from "../jobs";
import { fileContent, type TypeFirst } from "../media";
import { scroll, search } from "../search";
import { isSystemFolder } from "../system";
import type { MediaInfo, TreeNode } from "../tree";
import { cleanPath, type Handlers, Raw, seconds } from "./types";

type FileOps =
  | "mkdir"
  | "deleteFile"
  | "copy"
  | "rename"
  | "stat"
  | "readdir"
  | "download"
  | "fetch"
  | "createJwt"
  | "search"
  | "startZip"
  | "getZipJob"
  | "startBatchDelete"
  | "getBatchDeleteJob"
  | "upload"
  | "searchScroll"
  | "getTusLocations"
  | "getTusUrl";

const PAGE_SIZE = 100;
const TUS_LOCATIONS = ["local"];
const TUS_LINK_TTL = 3600;
const FETCH_TIMEOUT_MS = 30_000;

const iso = (ms: number) => new Date(ms).toISOString();
const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/**
 * How stat and readdir answer: `live` as the live service does (a system folder without the
 * fields the documentation requires, a null duration where unknown), else in the documentation's
 * shapes (`documented-shapes`: every field there, a duration never null).
 */
interface Shapes {
  live: boolean;
}

const shapesOf = (ctx: Context): Shapes => ({ live: !ctx.plays("documented-shapes") });

function mediaView(media: MediaInfo, shapes: Shapes): Record<string, unknown> {
  if (shapes.live || media.duration !== null) return { ...media };
  return { ...media, duration: 0 };
}

function statView(path: string, node: TreeNode, shapes: Shapes): Record<string, unknown> {
  if (node.kind === "dir") {
    // [live] a system folder's stat: no mtime, ctime or meta
    if (shapes.live && isSystemFolder(path)) return { size: 0, isDirectory: true };
    return { mtime: iso(node.mtime), ctime: iso(node.ctime), size: 0, isDirectory: true, meta: {} };
  }
  return {
    mtime: iso(node.mtime),
    ctime: iso(node.ctime),
    contentType: node.contentType,
    size: node.size,
    isDirectory: false,
    meta: mediaView(node.media, shapes),
  };
}

function entryView(dirname: string, name: string, node: TreeNode, shapes: Shapes): Record<string, unknown> {
  if (node.kind === "dir") {
    // [live] a system folder's entry: no mtime, no meta
    if (shapes.live && dirname === "/" && isSystemFolder(`/${name}`))
      return { filename: name, size: 0, isDirectory: true };
    return { filename: name, mtime: iso(node.mtime), size: 0, isDirectory: true, meta: {} };
  }
  return {
    filename: name,
    mtime: iso(node.mtime),
    contentType: node.contentType,
    size: node.size,
    isDirectory: false,
    meta: mediaView(node.media, shapes),
  };
}

/** The status line of a remote's answer, as a fetch attempt's `headers.result` shows it. */
interface StatusLine {
  version: string;
  code: number;
  reason: string;
}

/** One try of a fetch in the documented shape (docs/api.md#uploads-and-fetches). */
interface Attempt {
  url: string;
  initiator: Initiator;
  statusCode: number | null;
  /** The remote's answer headers, and `result`, its status line; `{}` when nothing answered. */
  headers: { result?: StatusLine; [name: string]: string | StatusLine | undefined };
  timing: { ns: number; connect: number; start: number; total: number };
  error?: { name: string; message: string };
  /** When the attempt ended. */
  date: string;
}

class FetchFailure extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

/** The URL without its `user:password@` part: credentials are used, never kept or shown. */
function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = "";
    url.password = "";
    return url.toString();
  } catch {
    return raw;
  }
}

interface Downloaded {
  data: Buffer;
  contentType: string | null;
}

/** GETs a remote file into `attempt`; credentials in the URL become basic authentication like `auth`. */
async function download(
  raw: string,
  auth: { username: string; password: string } | undefined,
  attempt: Attempt,
): Promise<Downloaded> {
  const url = new URL(raw);
  const user =
    auth ??
    (url.username
      ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
      : undefined);
  url.username = "";
  url.password = "";
  const headers: Record<string, string> = {};
  if (user)
    headers.authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}`;
  const started = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  attempt.statusCode = res.status;
  // fetch() does not say which HTTP version answered: undici speaks HTTP/1.1 here
  attempt.headers = {
    result: {
      version: "HTTP/1.1",
      code: res.status,
      reason: res.statusText || (STATUS_CODES[res.status] ?? ""),
    },
    ...Object.fromEntries(res.headers),
  };
  attempt.timing.start = ms();
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new FetchFailure(`remote answered HTTP ${res.status}`, res.status);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > FETCH_MAX_FILESIZE)
      throw new FetchFailure(`file larger than ${FETCH_MAX_FILESIZE} bytes`, res.status);
    chunks.push(Buffer.from(chunk));
  }
  attempt.timing.total = ms();
  attempt.timing.ns = Number(process.hrtime.bigint() - started);
  return { data: Buffer.concat(chunks), contentType: res.headers.get("content-type") };
}

/** Writes `data` as the file at `path` (missing folders are made, an existing file replaced). */
async function storeFile(
  ctx: Context,
  account: Account,
  path: string,
  data: Buffer,
  declaredType: string | null,
  first: TypeFirst = "extension",
): Promise<void> {
  const blobs = ctx.world.blobs;
  const hash = await blobs.put(data);
  try {
    const content = fileContent(hash, data.length, data, path, declaredType, first);
    await ctx.store.commit({ type: "writeFile", account: account.alias, path, content, time: Date.now() });
  } finally {
    blobs.release(hash);
  }
}

/** When the same file may be fetched again after a failure (the emulator's choice: a minute). */
const RETRY_AFTER_MS = 60_000;

async function fetchOne(
  ctx: Context,
  account: Account,
  item: { url: string; filename: string; auth?: { username: string; password: string } },
  initiator: Initiator,
): Promise<Record<string, unknown>> {
  const filename = cleanPath(item.filename, "filename");
  const url = withoutCredentials(item.url);
  const attempt: Attempt = {
    url,
    initiator,
    statusCode: null,
    headers: {},
    timing: { ns: 0, connect: 0, start: 0, total: 0 },
    date: initiator.date,
  };
  try {
    const { data, contentType } = await download(item.url, item.auth, attempt);
    attempt.date = new Date().toISOString();
    await storeFile(ctx, account, filename, data, contentType);
    return { filename, success: true, attempted: true, attempts: [attempt], retryAfter: initiator.date };
  } catch (e) {
    attempt.date = new Date().toISOString();
    const cause =
      e instanceof ApiError || e instanceof FetchFailure
        ? (e as Error)
        : (((e as Error).cause as Error) ?? (e as Error));
    // a message may quote the URL: never with its credentials
    const message = cause.message.split(item.url).join(url);
    attempt.error = { name: cause.name || "Error", message };
    await ctx.store.commit({
      type: "event",
      account: account.alias,
      event: {
        _id: randomBytes(12).toString("hex"),
        _accountId: account.alias,
        _submitted: new Date().toISOString(),
        _seen: false,
        module: "fetching",
        type: "fetch.failed",
        level: "error",
        filename,
        initiator,
        notify: true,
        fetching: {
          url,
          statusCode: attempt.statusCode,
          maxFilesize: FETCH_MAX_FILESIZE,
          // a string, as documented: the length the remote announced, "0" when it announced none
          contentLength:
            typeof attempt.headers["content-length"] === "string"
              ? attempt.headers["content-length"]
              : ctx.plays("events-alt")
                ? ""
                : "0",
          error: message,
        },
      },
    });
    const retryAfter = new Date(Date.parse(initiator.date) + RETRY_AFTER_MS).toISOString();
    return { filename, success: false, attempted: true, attempts: [attempt], retryAfter };
  }
}

export const fileHandlers: Pick<Handlers, FileOps> = {
  mkdir: async ({ ctx, account, query, now }) => {
    const path = cleanPath(query.dirname, "dirname");
    if (ctx.plays("mkdir-parents")) {
      for (let at = parentOf(path), missing: string[] = []; ; at = parentOf(at)) {
        if (account.tree.get(at)) {
          for (const dir of missing.reverse())
            await ctx.store.commit({ type: "mkdir", account: account.alias, path: dir, time: now });
          break;
        }
        missing.push(at);
      }
    }
    try {
      await ctx.store.commit({ type: "mkdir", account: account.alias, path, time: now });
    } catch (err) {
      // the service documents this answer: HTTP 200 with the error as the body (docs/api.md#errors)
      if (err instanceof FsError && err.kind === "exists" && ctx.behaviour.mkdirExists === "200") {
        return { name: "RiakFsError", message: `Path already exists: ${path}` };
      }
      throw err;
    }
  },
  /** A file moves to /.Trash + its path ([likely]); `delete-final`: it is gone at once. */
  deleteFile: async ({ ctx, account, query, now }) => {
    const path = cleanPath(query.filename, "filename");
    if (ctx.plays("delete-missing-ok") && !account.tree.get(path)) return;
    const trash = ctx.plays("delete-final") ? {} : { trash: true, time: now };
    await ctx.store.commit({ type: "delete", account: account.alias, path, recursive: false, ...trash });
  },
  copy: async ({ ctx, account, query, now }) => {
    const [from, to] = [cleanPath(query.from, "from"), cleanPath(query.to, "to")];
    await ctx.store.commit({ type: "copy", account: account.alias, from, to, time: now });
  },
  rename: async ({ ctx, account, query }) => {
    const [from, to] = [cleanPath(query.from, "from"), cleanPath(query.to, "to")];
    await ctx.store.commit({ type: "rename", account: account.alias, from, to });
  },

  stat: ({ ctx, account, query }) => {
    const path = cleanPath(query.filename, "filename");
    return statView(path, account.tree.require(path), shapesOf(ctx));
  },

  /**
   * Entries in name order; `continuation` is the last name of the previous page, encoded; on the
   * last page `null`, as the live service may send it (`documented-shapes`: absent).
   */
  readdir: ({ ctx, account, query }) => {
    const dirname = cleanPath(query.dirname, "dirname");
    const dir = account.tree.requireDir(dirname);
    const shapes = shapesOf(ctx);
    let after: string | undefined;
    if (query.continuation !== undefined) {
      after = Buffer.from(query.continuation, "base64url").toString("utf8");
      if (Buffer.from(after).toString("base64url") !== query.continuation)
        throw badRequest("continuation: is not valid");
    }
    const names = [...dir.children.keys()].sort().filter((n) => after === undefined || n > after);
    const page = names.slice(0, PAGE_SIZE);
    const out: Record<string, unknown> = {
      contents: page.map((name) => entryView(dirname, name, dir.children.get(name) as TreeNode, shapes)),
    };
    if (names.length > PAGE_SIZE)
      out.continuation = Buffer.from(page[page.length - 1] as string).toString("base64url");
    else if (shapes.live) out.continuation = null;
    return out;
  },

  download: ({ ctx, account, query, now }) => {
    const path = cleanPath(query.filename, "filename");
    const file = account.tree.requireFile(path);
    account.stats.delivered(now, path, file.size, file.contentType);
    // as documented: the content's tag (its blob's hash) and the file's last change
    return new Raw(ctx.world.blobs.open(file.blob), file.contentType, file.size, {
      etag: `"${file.blob}"`,
      "last-modified": new Date(file.mtime).toUTCString(),
    });
  },

  /** Items are fetched one after the other before answering (`wait` is accepted, not needed). */
  fetch: async ({ ctx, account, body, request }) => {
    const results: Record<string, unknown>[] = [];
    const initiator: Initiator = { type: "api", remoteAddr: request.ip, date: new Date().toISOString() };
    for (const item of body) results.push(await fetchOne(ctx, account, item, initiator));
    return ctx.plays("fetch-attempt-alt") ? results.map(otherAttempts) : results;
  },

  /**
   * Protects the folder named (or the named file's folder) with `key`, as enabling JWT
   * protection would, and answers a CDN URL signed with that key.
   */
  createJwt: async ({ ctx, account, body, now }) => {
    const path = cleanPath(body.filename, "filename");
    const alias = body.alias ?? account.alias;
    const entry = account.aliases.get(alias);
    if (!entry && alias !== account.alias) throw notFound(`Alias not found: ${alias}`);
    const prefix = (entry?.prefix ?? "/").replace(/\/+$/, "");
    if (prefix !== "" && path !== prefix && !path.startsWith(`${prefix}/`)) {
      throw badRequest(`filename: must lie under the prefix ${prefix} of alias ${alias}`);
    }
    await ctx.store.commit({ type: "protect", account: account.alias, path, key: body.key });
    // the documented payload: the secure parameters, issue and expiry times, the file's path
    const iat = seconds(now);
    const claims = { args: body.secureParams ?? {}, iat, exp: iat + body.expiresIn, aud: path };
    const insecure = Object.entries(body.insecureParams ?? {}).map(([k, v]): [string, string] => [
      k,
      String(v),
    ]);
    const params = new URLSearchParams([...insecure, ["jwt", signJwt(claims, body.key)]]);
    const relative = path.slice(prefix.length) || "/";
    return { url: `${ctx.baseUrl}/cdn/${encodeURIComponent(alias)}${encodePath(relative)}?${params}` };
  },

  search: ({ ctx, account, body }) => search(account.tree, account.alias, body, shapesOf(ctx).live),
  searchScroll: ({ ctx, account, body }) =>
    scroll(account.tree, account.alias, body.scrollId, shapesOf(ctx).live),

  startZip: ({ ctx, account, body }) => {
    const filenames = body.filenames.map((f, i) => cleanPath(f, `filenames[${i}]`));
    const id = ctx.jobs.startZip(account, filenames, body.zipFilename, (jobId, name) => {
      return `${ctx.baseUrl}/downloads/${jobId}/${encodeURIComponent(name)}`;
    });
    return { id };
  },
  getZipJob: ({ ctx, account, query }) => jobView(ctx, ctx.jobs.get(account.alias, query.id, "zip")),
  startBatchDelete: ({ ctx, account, body }) => {
    const filenames = body.filenames.map((f, i) => cleanPath(f, `filenames[${i}]`));
    return { id: ctx.jobs.startBatchDelete(account, filenames, !ctx.plays("delete-final")) };
  },
  getBatchDeleteJob: ({ ctx, account, query }) =>
    jobView(ctx, ctx.jobs.get(account.alias, query.id, "batchDelete")),

  /**
   * The simple upload: the body is the file; missing folders are made; typed by the name's
   * extension whatever it was sent with ([live]; `content-type-declared`: the type sent is kept).
   * docs/api.md#uploads-and-fetches
   */
  upload: async ({ ctx, account, query, body }) => {
    const filename = cleanPath(query.filename, "filename");
    const data = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
    const declared = body.contentType === "application/octet-stream" ? null : (body.contentType ?? null);
    const kept = ctx.plays("content-type-declared");
    if (ctx.plays("upload-no-mkdir")) account.tree.requireDir(parentOf(filename));
    await storeFile(ctx, account, filename, data, kept ? declared : null, kept ? "declared" : "extension");
  },
  getTusLocations: ({ ctx }) =>
    ctx.plays("tus-bare") ? TUS_LOCATIONS.map((name) => ({ name })) : TUS_LOCATIONS,
  /** An upload endpoint for tus clients; the link itself authorizes creating uploads. */
  getTusUrl: ({ ctx, account, query, now }) => {
    if (!TUS_LOCATIONS.includes(query.location)) throw notFound(`Unknown tus location: ${query.location}`);
    const exp = seconds(now) + (query.expiresIn ?? TUS_LINK_TTL);
    const token = signJwt({ use: "tus", sub: account.alias, cid: account.clientId, exp }, ctx.key);
    const url = `${ctx.baseUrl}/tus?token=${token}`;
    return ctx.plays("tus-bare") ? url : { url };
  },
};

/** A job's status as `jobs-progress-only` answers it: progress, the result, a failure only as `error`. */
function jobView(ctx: Context, job: Job): Job | Record<string, unknown> {
  if (!ctx.plays("jobs-progress-only")) return job;
  const out: Record<string, unknown> = { progress: job.progress };
  if (job.result !== undefined) out.result = job.result;
  if (job.status === "failed") out.error = job.error ?? "failed";
  return out;
}

/** A fetch result as `fetch-attempt-alt` answers it. */
function otherAttempts(result: Record<string, unknown>): Record<string, unknown> {
  const attempts = (result.attempts as Attempt[]).map((a) => {
    const headers: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(a.headers)) {
      if (name === "result" && typeof value === "object")
        headers.result = { ...value, code: String(value.code) };
      else
        headers[name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())] =
          value;
    }
    return { ...a, headers, date: a.initiator.date };
  });
  return { ...result, attempts };
}

/** Operations the emulator cannot truly perform: validated, then refused with 501. */
export function notImplemented(what: string): () => never {
  return () => {
    throw httpError(501, `${what} is not available in the emulator`);
  };
}
