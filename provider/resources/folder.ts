// Folder: one folder of the account's file tree. Missing parents are created (only the leaf is
// managed). A non-empty folder is deleted only with `forceDestroy: true`, which empties it with
// the batch delete job first. A path change moves the folder with everything in it (one rename):
// the options, meta, files and folders under it go along, and their resources follow it without
// being replaced (the lifecycle, `location` and `contains` below). A move onto a path that exists
// is refused before anything changes, and one into the folder itself at preview.

import { isAtOrUnder, parentOf } from "mediahost-contract";
import { z } from "zod";
import { MediahostError, waitForJob } from "../client";
import { ProviderError } from "../errors";
import { defineKind, type KindContext, listingRead } from "./kind";
import { FolderPath } from "./schema";
import { mkdirWithParents, treeOf } from "./tree";

const inputs = z.strictObject({
  /**
   * Absolute path, e.g. `/products/shoes` (at most 1024 characters). Missing parents are created;
   * only this folder is managed. Changing it moves the folder with everything in it.
   */
  path: FolderPath,
  /**
   * Delete the folder with everything in it (emptied with a batch delete job). Default false:
   * deleting a non-empty folder fails.
   */
  forceDestroy: z.boolean().optional(),
  /**
   * Take over a folder that exists already instead of failing; on delete it is then left in place
   * (unless `forceDestroy`).
   */
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
 * Moves the folder with everything in it (files, subfolders, options and meta) by renaming it.
 * Refused, with nothing changed, when something is at the new path already; a missing parent of
 * the new path is made first (the service's rename does not make one).
 */
async function move(ctx: KindContext, from: string, to: string): Promise<void> {
  const there = await ctx.client.ops.stat({ query: { filename: to } }).catch((err: unknown) => {
    if (err instanceof MediahostError && (err.isNotFound || err.isNotADirectory)) return undefined;
    throw err;
  });
  if (there) {
    throw new ProviderError(
      `cannot move ${from} to ${to}: ${to} exists already (a ${there.isDirectory ? "folder" : "file"}); ` +
        "nothing was changed. Choose another path, or move or delete what is there first.",
    );
  }
  if (parentOf(to) !== "/") await mkdirWithParents(ctx, parentOf(to), false);
  ctx.info(`Folder ${from}: moving to ${to}`);
  await ctx.client.ops.rename({ query: { from, to } });
}

/** What is at `path`: a folder, a file or nothing, from the parent's listing, else `stat`. */
async function lookFolder(ctx: KindContext, path: string): Promise<"folder" | "file" | "none"> {
  const entry = await ctx.account.listings.lookup(path);
  if (entry !== "stat") return entry === undefined ? "none" : entry.isDirectory ? "folder" : "file";
  try {
    return (await ctx.client.ops.stat({ query: { filename: path } })).isDirectory ? "folder" : "file";
  } catch (err) {
    if (err instanceof MediahostError && err.isNotFound) return "none";
    throw err;
  }
}

export const folder = defineKind({
  name: "Folder",
  inputs,
  outputs: {
    /** Where the folder is served on the CDN. */
    cdnUrl: z.string().optional(),
  },
  replaceOn: [],
  // a folder contains every object at or under its path, and a path change moves them with it
  tree: {
    location: "path",
    contains: (own, _kind, other) => isAtOrUnder(other, own),
    moves: { rehome: (other, from, to) => to + other.slice(from.length) },
  },
  id: (i) => i.path,
  importing: { identity: (path) => ({ path }), id: { form: "the folder's path", example: "/products" } },
  docs: {
    summary:
      "A folder of the account's file tree. Missing parents are created; only this folder is managed. A path change moves it with everything in it.",
    properties:
      "`path` (a change moves the folder with its files, subfolders, options and meta: one rename; refused when the new path exists or is inside the old one), `forceDestroy`, `adopt`; output `cdnUrl`",
    delete:
      "refuses a non-empty folder unless `forceDestroy: true`, which empties it with the batch delete job (progress is logged); an adopted folder is left in place (with `forceDestroy`, deleted with everything in it)",
    drift: "a deleted (or replaced-by-a-file) folder is reported gone",
    example: { title: "A folder", name: "products", args: { path: "/products" } },
  },

  async create(ctx, { path, forceDestroy: _, adopt }) {
    // a folder the program expects to find (adopt) is looked up first, in its parent's listing
    // shared with its siblings: taking over a tree costs a page per 100, not a mkdir and a stat each
    if (adopt) {
      const there = await lookFolder(ctx, path);
      if (there === "file")
        throw new ProviderError(`exists in account "${ctx.accountAlias}" as a file, not a folder`);
      if (there === "folder") {
        if (!treeOf(ctx.account).implicitParents.has(path)) ctx.found("the folder");
        return { cdnUrl: await cdnUrl(ctx, path) };
      }
    }
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

  refreshReads: (olds) => [listingRead(olds.path)],

  async read(ctx, olds) {
    // the parent's listing answers for many folders at once; `stat` where it cannot
    const entry = await ctx.account.listings.lookup(olds.path);
    const isDirectory =
      entry === "stat"
        ? (await ctx.client.ops.stat({ query: { filename: olds.path } })).isDirectory
        : entry?.isDirectory;
    if (!isDirectory) return undefined;
    // an import or a `get` has no state yet: where the folder is served (the account object is read once a run)
    return olds.cdnUrl === undefined ? { cdnUrl: await cdnUrl(ctx, olds.path) } : {};
  },

  async update(ctx, olds, news) {
    if (olds.path !== news.path) await move(ctx, olds.path, news.path);
    // where it is served now (a folder that followed its parent's move has a new URL too)
    return { cdnUrl: await cdnUrl(ctx, news.path) };
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
    // a start whose answer was lost is started again (policy.ts: a second job finds less)
    const { id: job } = await ctx.client.ops.startBatchDelete({ body: { filenames: [path] } });
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
