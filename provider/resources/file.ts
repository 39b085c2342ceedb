// File: a file of the account's tree, from exactly one source — `content` (text, may be a
// secret), `sourcePath` (a local file; the SDK turns a FileAsset into it), or `fetchUrl` (the
// service fetches it). The state keeps the content's SHA-256 and size and the file's mtime, never
// a copy of a local file: a refresh reads size and mtime (from the parent's listing where siblings
// share it, else `stat`) and downloads and hashes only when they changed, so a touched file is not
// drift and a changed one is, as a changed `contentSha256` (or, for a fetched file, `fetchUrl`).
// New content is uploaded in place; a path change uploads to the new path, then deletes the old.
// Delete removes the file only while it holds what this stack wrote, unless `forceDestroy`.
import { readFileSync } from "node:fs";
import { parentOf, systemFolderOf } from "mediahost-contract";
import { z } from "zod";
import { MediahostError } from "../client";
import {
  type Content,
  digest,
  remoteDigest,
  sha256,
  type Uploaded,
  upload,
  uploadFingerprint,
} from "../client/transfer";
import { ProviderError } from "../errors";
import { defineKind, type KindContext, listingRead } from "./kind";
import { Adopt, WritablePath } from "./schema";
import { mkdirWithParents } from "./tree";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, { message: "must be a SHA-256 in hex (64 characters)" });
/** Inline content larger than this belongs in a local file (`source`): the state keeps inline content. */
const CONTENT_MAX = 1024 * 1024;

const inputs = z
  .strictObject({
    /**
     * Absolute path of the file (at most 1024 characters). Changing it uploads to the new path, then
     * deletes the old file.
     */
    path: WritablePath.refine((p) => p !== "/", { message: 'must be a file path, not the root "/"' }),
    /** The file's text (UTF-8, at most 1 MiB: 1048576 characters; larger files go as `source`); may be a secret. */
    content: z
      .string()
      .max(CONTENT_MAX, { message: "must be at most 1 MiB (use source for larger files)" })
      .optional(),
    /**
     * A local file to upload (the SDK sets it from `source: new FileAsset(...)`), as the program
     * gave it: a relative path is the project directory's, so a moved project changes nothing.
     */
    sourcePath: z.string().min(1).optional(),
    /** An http(s) URL the service fetches the file from itself. */
    fetchUrl: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
    /** Basic-auth credentials for `fetchUrl` (stored as a secret). */
    fetchAuth: z.strictObject({ username: z.string(), password: z.string() }).optional(),
    /** SHA-256 of the content or source file (the SDK computes it; a refresh that finds other content changes it). */
    contentSha256: Sha256.optional(),
    /** The content type to store the file with (at most 255 characters; default: the service's guess from the name). */
    contentType: z.string().min(1).max(255).optional(),
    /** Delete the file even when it no longer holds what this stack wrote. */
    forceDestroy: z.boolean().optional(),
    /** Take over a file that exists already instead of failing; on delete it is left in place. */
    adopt: Adopt,
  })
  .refine((i) => [i.content, i.sourcePath, i.fetchUrl].filter((v) => v !== undefined).length === 1, {
    message: "set exactly one of content, source (sourcePath), fetchUrl",
    path: ["content"],
  })
  .refine((i) => i.fetchAuth === undefined || i.fetchUrl !== undefined, {
    message: "only with fetchUrl",
    path: ["fetchAuth"],
  });

type Inputs = z.output<typeof inputs>;

export interface FileRecorded {
  /** SHA-256 of what the file held when this stack last wrote or read it. */
  sha256: string;
  size: number;
  /**
   * When the file was last written, to tell an unchanged file without a download: the service's
   * mtime, or, after this stack's upload, the time of the service's answer to it (to the second).
   */
  mtime: string;
}

/** The content to upload for inputs with `content` or `sourcePath`, and its hash and size. */
async function contentOf(i: Inputs): Promise<{ content: Content; sha256: string; size: number }> {
  if (i.content !== undefined) {
    const bytes = Buffer.from(i.content, "utf8");
    return { content: { bytes }, sha256: sha256(bytes), size: bytes.byteLength };
  }
  const file = i.sourcePath as string;
  try {
    const d = await digest({ file, size: 0 });
    return { content: { file, size: d.size }, ...d };
  } catch (err) {
    throw new ProviderError(`cannot read the source file ${file}: ${(err as Error).message}`);
  }
}

/** What is at a file's path now, as the parent's listing or `stat` shows it. */
interface There {
  size: number;
  /** [live] some answers leave it out: such a file is compared by its content. */
  mtime?: string;
  contentType?: string;
}

/** What is at `path` now: size, mtime and type (or undefined when there is no file there). */
async function look(ctx: KindContext, path: string): Promise<There | undefined> {
  const found = await ctx.account.listings.lookup(path);
  if (found !== "stat") return found && !found.isDirectory ? thereOf(found) : undefined;
  try {
    const s = await ctx.client.ops.stat({ query: { filename: path } });
    return s.isDirectory ? undefined : thereOf(s);
  } catch (err) {
    if (err instanceof MediahostError && (err.isNotFound || err.isNotADirectory)) return undefined;
    throw err;
  }
}

const thereOf = ({ size, mtime, contentType }: There): There => ({ size, mtime, contentType });

/** When the file was written, for the state: the service's mtime, else now (the next refresh compares content). */
async function statFile(ctx: KindContext, path: string): Promise<{ size: number; mtime: string }> {
  const s = await ctx.client.ops.stat({ query: { filename: path } });
  return { size: s.size, mtime: s.mtime ?? new Date().toISOString() };
}

/**
 * Writes the file from its source; returns what the state records. `keepType` is the type the
 * service holds the file with: an upload over it keeps it when the program sets none (an
 * account's image profile stays `application/json`).
 */
async function write(ctx: KindContext, i: Inputs, keepType?: string): Promise<FileRecorded> {
  if (i.fetchUrl !== undefined) {
    const item = { url: i.fetchUrl, filename: i.path, ...(i.fetchAuth ? { auth: i.fetchAuth } : {}) };
    const [result] = await ctx.client.ops.fetch({ body: [item] });
    if (!result?.success) {
      const error = result?.attempts.at(-1)?.error?.message ?? "no reason given";
      throw new ProviderError(`the service could not fetch the file: ${error}`);
    }
    // the service fetched it: hash what it holds, so that a refresh can tell a later change
    const d = await remoteDigest(ctx.client, i.path);
    const { mtime } = await statFile(ctx, i.path);
    return { sha256: d.sha256, size: d.size, mtime };
  }
  const { content, sha256: hash, size } = await contentOf(i);
  const options = {
    fingerprint: uploadFingerprint(ctx.client.baseUrl, ctx.accountAlias, i.path, hash),
    progress: (message: string) => ctx.info(`File ${message}`),
    ...(i.contentType || keepType ? { contentType: i.contentType ?? keepType } : {}),
  };
  let uploaded: Uploaded;
  try {
    uploaded = await upload(ctx.client, i.path, content, options);
  } catch (err) {
    // the service may not make missing folders on upload (docs/api.md#uploads-and-fetches): make them, then retry once
    if (!(err instanceof MediahostError && err.isNotFound)) throw err;
    const parent = parentOf(i.path);
    if (parent !== "/") await mkdirWithParents(ctx, parent, false);
    uploaded = await upload(ctx.client, i.path, content, options);
  }
  // the size is what was sent; the time is when the service answered the upload (its Date, to the
  // second: the file's mtime falls within it), so nothing is read back; without one, a stat
  const mtime = uploaded.answeredAt?.toISOString() ?? (await statFile(ctx, i.path)).mtime;
  return { sha256: hash, size, mtime };
}

/** How long before the answer's second the service may have set a file's mtime (a long upload). */
const ANSWER_WINDOW_BEFORE_MS = 60_000;

/**
 * Whether the file still holds what this stack recorded: the same size, and its mtime the time
 * recorded or within that time's second or the minute before it (a time from an upload's answer,
 * its Date, is to the second; the window applies to every recorded time). A write by someone else
 * later than that is told apart.
 */
function unchanged(there: There, olds: { size: number; mtime: string }): boolean {
  if (there.size !== olds.size || there.mtime === undefined) return false;
  if (there.mtime === olds.mtime) return true;
  const listed = Date.parse(there.mtime);
  const answered = Date.parse(olds.mtime);
  return listed >= answered - ANSWER_WINDOW_BEFORE_MS && listed < answered + 1_000;
}

/**
 * The hash the inputs ask for, or undefined for a fetched file (known only once fetched). Inline
 * content is its own hash: a `contentSha256` that code of an earlier import spelled out beside it
 * goes stale once the content is edited.
 */
function wanted(i: Inputs): string | undefined {
  if (i.content !== undefined) return sha256(Buffer.from(i.content, "utf8"));
  if (i.contentSha256 !== undefined) return i.contentSha256;
  if (i.sourcePath !== undefined) {
    try {
      return sha256(readFileSync(i.sourcePath));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const short = (hash: string) => `${hash.slice(0, 12)}…`;

/** The time the state records of what is there: its mtime, else now (the next refresh then compares content). */
const mtimeOf = (there: There) => there.mtime ?? new Date().toISOString();

/**
 * Takes over a file that is there already (after `found`): reads it, and writes only when its
 * bytes differ from the program's, keeping the service's type unless the program sets one.
 */
async function takeOver(ctx: KindContext, i: Inputs, there: There): Promise<FileRecorded> {
  const want = i.fetchUrl === undefined ? wanted(i) : undefined;
  const typeHolds = i.contentType === undefined || i.contentType === there.contentType;
  if (want !== undefined && typeHolds) {
    const live = await remoteDigest(ctx.client, i.path);
    if (live.sha256 === want) {
      ctx.info(`File ${i.path}: already holds this content: nothing uploaded`);
      return { sha256: live.sha256, size: live.size, mtime: mtimeOf(there) };
    }
  }
  return write(ctx, i, there.contentType);
}

/**
 * An imported file: its text becomes `content`, which is what the generated program declares; a
 * file that is not UTF-8 text, or larger than inline content may be, cannot be imported as code.
 * No `contentSha256`: it is the SDK's to compute from `content` (no program declares it), so code
 * `pulumi import` writes leaves it out; what the file holds is recorded as `sha256`.
 */
async function importContent(ctx: KindContext, path: string, there: There) {
  const refuse = (why: string) =>
    new ProviderError(
      `${path} ${why}, so it cannot be imported as inline content: declare it with \`source\` (a FileAsset) ` +
        "and `adopt: true`, or let `mediahost-generate --files` write it beside the program",
    );
  if (there.size > CONTENT_MAX) throw refuse(`holds ${there.size} bytes (more than 1 MiB)`);
  const bytes = Buffer.from(await ctx.client.ops.download({ query: { filename: path } }));
  const content = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let text: string;
  try {
    text = content.decode(bytes);
  } catch {
    throw refuse("is not UTF-8 text");
  }
  return { content: text, sha256: sha256(bytes), size: bytes.byteLength, mtime: mtimeOf(there) };
}

export const file = defineKind({
  name: "File",
  inputs,
  outputs: {
    /** SHA-256 of the file's content as last written or read. */
    sha256: z.string(),
    /** Size in bytes. */
    size: z.number(),
    /** Last modification time, as the service reports it. */
    mtime: z.string(),
  },
  // a changed content is drift as `contentSha256`; these would only repeat it
  observations: ["sha256", "size", "mtime"],
  replaceOn: ["path"],
  // a state with no content hash (an import, a fetched file, a program whose SDK computes none)
  // agrees with the hash a program sends: a refresh that finds other content records one
  equivalent: { contentSha256: (recorded, given) => recorded === undefined || recorded === given },
  importing: {
    identity: (path) => ({ path }),
    reimports: (i) => i.content !== undefined,
    // an image profile is the account's (docs/api.md#files-and-folders): a destroy leaves it
    accountOwned: (i) => i.path !== undefined && systemFolderOf(i.path) === "/Profiles",
    id: { form: "the file's path (UTF-8 text up to 1 MiB, taken in as `content`)", example: "/robots.txt" },
  },
  secrets: {
    inputs: ["fetchAuth"],
    // the hash and size of inline content would give a short secret away: secret whenever it is given
    outputs: (i) => (i.content !== undefined ? ["sha256", "size"] : []),
  },
  // it sits at its path: when the folder holding it moves, it follows
  tree: { location: "path" },
  id: (i) => i.path,
  docs: {
    summary:
      "A file of the account: from `content`, a `source` asset, or a `fetchUrl` the service fetches. The state keeps its SHA-256, size and mtime; a refresh downloads only when size or mtime changed. Delete removes it only while it holds this stack's content, unless `forceDestroy`.",
    properties:
      "`path`, one of `content` (may be a secret) / `source` (a `FileAsset`, `StringAsset` or `RemoteAsset`; sent as `sourcePath`, `content` or `fetchUrl`) / `fetchUrl` (+ secret `fetchAuth`), `contentType`, `forceDestroy`, `adopt`; `contentSha256` (the SDK's hash of the content); outputs `sha256`, `size`, `mtime`",
    delete:
      "deletes the file while it still holds what this stack wrote; other content fails naming both hashes, unless `forceDestroy: true`; an adopted file is left in place",
    drift:
      "content changed (a changed `contentSha256`, or `fetchUrl` for a fetched file) from size and mtime, downloading only when they changed; a touched file is not drift; a deleted file is gone",
    example: {
      title: "A text file",
      name: "robots",
      args: { path: "/robots.txt", content: "User-agent: *\nDisallow:\n" },
    },
  },

  async create(ctx, i) {
    const there = await look(ctx, i.path);
    if (!there) return write(ctx, i);
    ctx.found("the file");
    return takeOver(ctx, i, there);
  },

  // size and mtime from the parent's listing; a download only when they changed
  refreshReads: (olds) => [listingRead(olds.path)],

  async read(ctx, olds, scope) {
    const there = await look(ctx, olds.path);
    if (!there) return undefined;
    if (scope === "all") return importContent(ctx, olds.path, there);
    if (unchanged(there, olds)) return {};
    const live = await remoteDigest(ctx.client, olds.path);
    if (live.sha256 === olds.sha256) return { size: live.size, mtime: mtimeOf(there) };
    ctx.info(
      `File ${olds.path}: content changed outside Pulumi (sha256 ${short(live.sha256)}, ${live.size} bytes)`,
    );
    const recorded = { sha256: live.sha256, size: live.size, mtime: mtimeOf(there) };
    // a fetched file has no content hash among its inputs: its fetch is what no longer holds
    return olds.fetchUrl !== undefined
      ? { ...recorded, fetchUrl: undefined }
      : { ...recorded, contentSha256: live.sha256 };
  },

  async update(ctx, olds, news) {
    const sourceChanged =
      news.fetchUrl !== olds.fetchUrl ||
      news.contentType !== olds.contentType ||
      (news.fetchUrl === undefined && wanted(news) !== olds.sha256);
    // the content hash is the program's again (a refresh may have put the live one there)
    const restored = { contentSha256: news.contentSha256 } as object;
    if (!sourceChanged) return { sha256: olds.sha256, size: olds.size, mtime: olds.mtime, ...restored };
    // without a type of the program's, the file keeps the one the service holds it with
    const held = news.contentType === undefined ? (await look(ctx, news.path))?.contentType : undefined;
    return { ...(await write(ctx, news, held)), ...restored };
  },

  async delete(ctx, olds) {
    if (olds.__adopted) {
      ctx.info(`File ${olds.path}: left in place: it existed before this stack adopted it`);
      return;
    }
    const there = await look(ctx, olds.path);
    if (!there) return;
    if (!olds.forceDestroy && !unchanged(there, olds)) {
      const live = await remoteDigest(ctx.client, olds.path);
      if (live.sha256 !== olds.sha256) {
        throw new ProviderError(
          `not deleted: the file now holds other content than this stack wrote (sha256 ${short(live.sha256)}, ` +
            `${live.size} bytes, where this stack wrote ${short(olds.sha256)}, ${olds.size} bytes). ` +
            "Run `pulumi refresh` and `pulumi up` to put this stack's content back, or set `forceDestroy: true` to delete it anyway.",
        );
      }
    }
    // gone meanwhile is the lifecycle's to take as done
    await ctx.client.ops.deleteFile({ query: { filename: olds.path } });
  },
});
