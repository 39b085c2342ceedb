// Folder: one folder of the account's file tree. Missing parents are created (only the leaf is
// managed). A non-empty folder is deleted only with `forceDestroy: true`, which empties it with
// the batch delete job first. A path change is a replace: the new folder is created before
// the old one is deleted, so content is never lost silently (the old one's delete fails while
// it holds files, unless forceDestroy says otherwise).
import { z } from "zod";
import { MediahostError, waitForJob } from "../client";
import type { AccountContext } from "../context";
import { log } from "../log";
import {
  beginCreate,
  CommonInputs,
  type CommonOutputs,
  FolderPath,
  inputsOf,
  type ResourceKind,
} from "./common";

const Inputs = z.strictObject({
  ...CommonInputs,
  path: FolderPath,
  /** Delete the folder with everything in it. */
  forceDestroy: z.boolean().optional(),
  /** Take over a folder that exists already. */
  adopt: z.boolean().optional(),
});
export type FolderInputs = z.output<typeof Inputs>;
export interface FolderOutputs extends FolderInputs, CommonOutputs {
  /** Where the folder is served on the CDN. */
  cdnUrl?: string;
}

const properties = ["account", "path", "forceDestroy", "adopt"] as const;

/** Folders this process created as parents of another folder, per account: not "someone else's". */
const implicitParents = new WeakMap<AccountContext, Set<string>>();

/**
 * Folders a Folder create of this process made with `mkdir`, per account: their own options and
 * meta are empty, so the first FolderOptions and FolderMeta create on them need not read them
 * first (saves two calls per folder on `up`; see docs/benchmark.md).
 */
const fresh = new WeakMap<AccountContext, { options: Set<string>; meta: Set<string> }>();

/** True once per folder this process just created: its own options (or meta) are known to be empty. */
export function takeFresh(ctx: AccountContext, part: "options" | "meta", path: string): boolean {
  return fresh.get(ctx)?.[part].delete(path) ?? false;
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

async function cdnUrl(ctx: AccountContext, path: string): Promise<string | undefined> {
  const { cdnURL } = await ctx.account();
  return cdnURL ? `https://${cdnURL}${path}` : undefined;
}

/** mkdir that creates missing parents; "exists" is fine for parents, reported for the leaf. */
async function mkdirWithParents(
  ctx: AccountContext,
  path: string,
  leaf: boolean,
): Promise<"created" | "exists"> {
  try {
    await ctx.client.ops.mkdir({ query: { dirname: path } });
    if (!leaf) {
      const made = implicitParents.get(ctx) ?? new Set<string>();
      implicitParents.set(ctx, made.add(path));
    }
    return "created";
  } catch (err) {
    if (!(err instanceof MediahostError)) throw err;
    if (err.isConflictExists) return "exists";
    if (err.isNotFound && path !== "/") {
      await mkdirWithParents(ctx, parentOf(path), false);
      return mkdirWithParents(ctx, path, leaf);
    }
    throw err;
  }
}

async function statOrUndefined(ctx: AccountContext, path: string) {
  try {
    return await ctx.client.ops.stat({ query: { filename: path } });
  } catch (err) {
    if (err instanceof MediahostError && err.isNotFound) return undefined;
    throw err;
  }
}

/** Deletes the folder if it is empty (or gone already); false when the service says it is not empty. */
async function deleteIfEmpty(ctx: AccountContext, path: string): Promise<boolean> {
  try {
    await ctx.client.ops.deleteFile({ query: { filename: path } });
    return true;
  } catch (err) {
    if (!(err instanceof MediahostError)) throw err;
    if (err.isNotFound) return true;
    if (err.status === 409 && /not empty/i.test(err.serviceMessage ?? "")) return false;
    throw err;
  }
}

export const folder: ResourceKind<FolderInputs, FolderOutputs> = {
  name: "Folder",
  schema: Inputs,
  diff: { properties, replaceOn: ["account", "path"] },

  async create(ctx, inputs) {
    const accountAlias = await ctx.assertAccount(undefined, `Folder ${inputs.path}`);
    const journal = beginCreate(ctx, "Folder", inputs.path, accountAlias);
    const made = await mkdirWithParents(ctx, inputs.path, true);
    if (made === "created") {
      const sets = fresh.get(ctx) ?? { options: new Set<string>(), meta: new Set<string>() };
      sets.options.add(inputs.path);
      sets.meta.add(inputs.path);
      fresh.set(ctx, sets);
    } else {
      const stat = await statOrUndefined(ctx, inputs.path);
      if (stat && !stat.isDirectory) {
        throw new Error(
          `Folder: ${inputs.path} exists in account "${accountAlias}" and is a file, not a folder`,
        );
      }
      const madeByUs = implicitParents.get(ctx)?.has(inputs.path);
      journal.found(inputs.adopt || madeByUs, inputs.path);
    }
    return { id: inputs.path, outs: { ...inputs, accountAlias, cdnUrl: await cdnUrl(ctx, inputs.path) } };
  },

  async read(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `Folder ${olds.path}`);
    const stat = await statOrUndefined(ctx, olds.path);
    if (!stat?.isDirectory) return undefined;
    return { id: olds.path, outs: olds, inputs: inputsOf(properties, olds) };
  },

  async update(ctx, _id, olds, news) {
    // only flags can change in place (path and account replace)
    await ctx.assertAccount(olds.accountAlias, `Folder ${olds.path}`);
    return { ...news, accountAlias: olds.accountAlias, cdnUrl: olds.cdnUrl };
  },

  async delete(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `Folder ${olds.path}`);
    fresh.get(ctx)?.options.delete(olds.path);
    fresh.get(ctx)?.meta.delete(olds.path);
    // the API deletes only empty folders, so the delete itself is the emptiness check: one call
    // in the common case, and the folder is listed only to explain a refusal
    if (await deleteIfEmpty(ctx, olds.path)) return;
    if (!olds.forceDestroy) {
      const page = await ctx.client.ops.readdir({ query: { dirname: olds.path } });
      const count = `${page.contents.length}${page.continuation ? "+" : ""}`;
      const sample = page.contents
        .slice(0, 3)
        .map((e) => e.filename)
        .join(", ");
      throw new Error(
        `Folder: ${olds.path} is not empty (${count} entries, e.g. ${sample}); nothing was deleted. ` +
          "Set `forceDestroy: true` on the resource (and run `pulumi up` before destroying) to delete it " +
          "with everything in it, or move its content elsewhere first.",
      );
    }
    const { id } = await ctx.client.ops.startBatchDelete({ body: { filenames: [olds.path] } });
    log.info(`Folder ${olds.path}: emptying with batch delete job ${id}`);
    await waitForJob(ctx.client, "batchDelete", id, {
      onProgress: (s) => log.info(`Folder ${olds.path}: batch delete ${Math.round(s.progress)}%`),
    });
    // the batch delete may have taken the folder itself too
    if (!(await deleteIfEmpty(ctx, olds.path))) {
      throw new Error(
        `Folder: ${olds.path} still holds content after the batch delete job ${id}; run the delete again`,
      );
    }
  },
};
