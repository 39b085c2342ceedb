// Making folders, shared by the kinds that need a folder to exist: a Folder creates its own (and
// its missing parents), a File the folders above it. Parents made on the way are noted on the
// account context, so that a Folder resource of the same run declaring one of them later is not
// asked to adopt what this run made.
import { MediahostError } from "../client";
import type { KindContext } from "./kind";
import { parentOf } from "./schema";

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
    if (!leaf) ctx.account.folders.implicitParents.add(path);
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
