// Folder: one folder of the account's file tree. Missing parents are created (only the leaf is
// managed). A non-empty folder is deleted only with `forceDestroy: true`, which empties it with
// the batch delete job first. A path change is a replace: the new folder is created before the old
// one is deleted — and refused up front, changing nothing, while the old folder holds files and
// `forceDestroy` is not set, so a move never half-applies over content it would have to leave.

import { isAtOrUnder } from "mediahost-contract";
import { z } from "zod";
import { MediahostError, waitForJob } from "../client";
import { ProviderError } from "../errors";
import { type CreateContext, defineKind, type KindContext } from "./kind";
import { FolderPath } from "./schema";
import { mkdirWithParents, treeOf } from "./tree";

const inputs = z.strictObject({
  /** Absolute path, e.g. `/products/shoes`. Missing parents are created; only this folder is managed. Changing it replaces the folder. */
  path: FolderPath,
  /** Delete the folder with everything in it (emptied with a batch delete job). Default false: deleting a non-empty folder fails, and so does moving one that holds files. */
  forceDestroy: z.boolean().optional(),
  /** Take over a folder that exists already instead of failing; on delete it is then left in place (unless `forceDestroy`). */
  adopt: z.boolean().optional(),
});

async function cdnUrl(ctx: KindContext, path: string): Promise<string | undefined> {
  const { cdnURL } = await ctx.account.account();
  return cdnURL ? `https://${cdnURL}${path}` : undefined;
}

/** Deletes the folder if it is empty (or gone already); false when the service says it is not empty. */
async function deleteIfEmpty(ctx: KindContext, path: string): Promise<boolean> {
  try {
    await ctx.client.ops.deleteFile({ query: { filename: path } });
    return true;
  } catch (err) {
    if (!(err instanceof MediahostError)) throw err;
    if (err.isNotFound) return true;
    if (err.isNotEmpty) return false;
    throw err;
  }
}

/** "3 entries, e.g. a.jpg, b.jpg" from the first page of a listing. */
async function sampleOf(ctx: KindContext, path: string, files?: boolean) {
  const page = await ctx.client.ops.readdir({ query: { dirname: path } });
  const entries = files ? page.contents.filter((e) => !e.isDirectory) : page.contents;
  const count = `${entries.length}${page.continuation ? "+" : ""}`;
  const names = entries.slice(0, 3).map((e) => e.filename);
  return { count: entries.length, text: `${count} ${files ? "files" : "entries"}, e.g. ${names.join(", ")}` };
}

/**
 * A move of a folder that holds files would create the new folder and then fail to delete the old
 * one, leaving the move half done: refuse it before anything changes. (Subfolders are left to
 * their own resources, which move or delete them first.)
 */
async function refuseHalfMove(ctx: CreateContext, path: string): Promise<void> {
  const old = ctx.replacing;
  if (!old || old.forceDestroy || typeof old.path !== "string" || old.path === path) return;
  let files: Awaited<ReturnType<typeof sampleOf>>;
  try {
    files = await sampleOf(ctx, old.path, true);
  } catch (err) {
    if (err instanceof MediahostError && (err.isNotFound || err.isNotADirectory)) return;
    throw err;
  }
  if (files.count === 0) return;
  throw new ProviderError(
    `moving ${old.path} to ${path} would leave ${old.path} behind: it holds ${files.text}; nothing was changed. ` +
      `Move or delete those files first, or set \`forceDestroy: true\` on the resource (and run \`pulumi up\`) ` +
      `to delete ${old.path} with everything in it once the new folder exists.`,
  );
}

export const folder = defineKind({
  name: "Folder",
  inputs,
  outputs: {
    /** Where the folder is served on the CDN. */
    cdnUrl: z.string().optional(),
  },
  replaceOn: ["path"],
  // a folder contains every object at or under its path
  contains: (own, _kind, other) => isAtOrUnder(other, own),
  id: (i) => i.path,
  docs: {
    properties: "`path`, `forceDestroy`, `adopt`; output `cdnUrl`",
    delete:
      "refuses a non-empty folder unless `forceDestroy: true`, which empties it with the batch delete job (progress is logged); an adopted folder is left in place (with `forceDestroy`, deleted with everything in it)",
    drift: "a deleted (or replaced-by-a-file) folder is reported gone",
  },

  async create(ctx, { path, forceDestroy: _, adopt: __ }) {
    await refuseHalfMove(ctx, path);
    const made = await mkdirWithParents(ctx, path, true);
    if (made === "created") {
      treeOf(ctx.account).madeFresh(path);
    } else {
      const stat = await ctx.client.ops.stat({ query: { filename: path } }).catch((err: unknown) => {
        if (err instanceof MediahostError && err.isNotFound) return undefined;
        throw err;
      });
      if (stat && !stat.isDirectory) {
        throw new ProviderError(`exists in account "${ctx.accountAlias}" as a file, not a folder`);
      }
      // a parent this process made for another folder is not someone else's
      if (!treeOf(ctx.account).implicitParents.has(path)) ctx.found("the folder");
    }
    return { cdnUrl: await cdnUrl(ctx, path) };
  },

  async read(ctx, olds) {
    // the parent's listing answers for many folders at once; `stat` where it cannot
    const entry = await ctx.account.listings.lookup(olds.path);
    const isDirectory =
      entry === "stat"
        ? (await ctx.client.ops.stat({ query: { filename: olds.path } })).isDirectory
        : entry?.isDirectory;
    return isDirectory ? {} : undefined;
  },

  async update(_ctx, olds) {
    // only the flags can change in place (path and account replace)
    return { cdnUrl: olds.cdnUrl };
  },

  async delete(ctx, olds) {
    const { path } = olds;
    treeOf(ctx.account).forget(path);
    if (olds.__adopted && !olds.forceDestroy) {
      ctx.info(`Folder ${path}: left in place: it existed before this stack adopted it`);
      return;
    }
    // the API deletes only empty folders, so the delete itself is the emptiness check: one call
    // in the common case, and the folder is listed only to explain a refusal
    if (await deleteIfEmpty(ctx, path)) return;
    if (!olds.forceDestroy) {
      const { text } = await sampleOf(ctx, path);
      ctx.keep("not empty");
      throw new ProviderError(
        `not empty (${text}); nothing was deleted, and the folder stays this stack's with ` +
          "its options and meta. Set `forceDestroy: true` on the resource (and run `pulumi up` before " +
          "destroying) to delete it with everything in it, move its content elsewhere first, or — after a " +
          "failed move — set the path back to undo the move.",
      );
    }
    let job: string | undefined;
    try {
      job = (await ctx.client.ops.startBatchDelete({ body: { filenames: [path] } })).id;
    } catch (err) {
      // the job may have started without our hearing of it: a job is not started twice (its
      // counter allows 25 an hour); whether the folder empties says whether it ran
      if (!(err instanceof MediahostError && err.kind === "unsure")) throw err;
      ctx.warn(`Folder ${path}: ${err.message}; waiting to see whether the folder empties`);
      for (let i = 0; i < 20 && !(await deleteIfEmpty(ctx, path)); i++)
        await new Promise((r) => setTimeout(r, 500));
      if (await deleteIfEmpty(ctx, path)) return;
      throw err;
    }
    ctx.info(`Folder ${path}: emptying with batch delete job ${job}`);
    await waitForJob(ctx.client, "batchDelete", job, {
      onProgress: (s) => ctx.info(`Folder ${path}: batch delete ${Math.round(s.progress)}%`),
    });
    // the batch delete may have taken the folder itself too
    if (!(await deleteIfEmpty(ctx, path))) {
      throw new ProviderError(`still holds content after the batch delete job ${job}; run the delete again`);
    }
  },
});
