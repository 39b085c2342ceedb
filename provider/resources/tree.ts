// The account's file tree, as the kinds that live in it (Folder, FolderOptions, FolderMeta, File)
// share it: making folders with their missing parents, and what one run learns about folders —
// which parents it made on the way (so that a Folder resource of the same run declaring one is
// not asked to adopt what this run made), and which folders it just created (whose options and
// meta are known to be empty, so the first write needs no read first).

import { parentOf } from "mediahost-contract";
import type { AccountContext } from "../account/context";
import { MediahostError } from "../client";
import type { KindContext } from "./kind";

/** What one run has learned about the folders of one account. */
export class TreeFacts {
  /** Folders this process made as parents of another folder or a file: not "someone else's". */
  readonly implicitParents = new Set<string>();
  /**
   * Folders a Folder create of this process made with `mkdir`: their own options and meta are
   * empty, so the first FolderOptions and FolderMeta create on them need not read them first.
   */
  private readonly fresh = { options: new Set<string>(), meta: new Set<string>() };

  madeFresh(path: string): void {
    this.fresh.options.add(path);
    this.fresh.meta.add(path);
  }

  /** True once per folder this process just created: its own options (or meta) are known to be empty. */
  takeFresh(part: "options" | "meta", path: string): boolean {
    return this.fresh[part].delete(path);
  }

  forget(path: string): void {
    this.fresh.options.delete(path);
    this.fresh.meta.delete(path);
  }
}

/** The tree facts of the account, shared by every resource of it in this run. */
export function treeOf(account: AccountContext): TreeFacts {
  return account.shared("tree", () => new TreeFacts());
}

/**
 * mkdir of `path` that creates missing parents first. "exists" is an answer, not an error: fine
 * for a parent, and for the leaf (`leaf: true`) the caller's to judge.
 */
export async function mkdirWithParents(
  ctx: KindContext,
  path: string,
  leaf: boolean,
): Promise<"created" | "exists"> {
  try {
    await ctx.client.ops.mkdir({ query: { dirname: path } });
    if (!leaf) treeOf(ctx.account).implicitParents.add(path);
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
