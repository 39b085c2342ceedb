// FolderMeta: title, description and tags of a folder (or file). Only the fields given are
// managed. Tags are a set: a write sends only the tags added and the tags removed. Meta that is
// there already (a non-empty managed field) is taken over only with `adopt: true`, and put back as
// found on delete; otherwise delete clears the fields it managed — except when the folder itself
// is being moved away in the same run, when the meta goes (or stays) with its folder.

import { schemas } from "mediahost-contract";
import { z } from "zod";
import { sameSet } from "../diff";
import { ProviderError } from "../errors";
import { defineKind, type KindContext } from "./kind";
import { ManagedPath } from "./schema";
import { treeOf } from "./tree";

const inputs = z
  .strictObject({
    /** Absolute path of the folder (or file). Changing it replaces the resource. */
    path: ManagedPath,
    /** The title of the folder or file at the service (at most 256 characters). */
    title: schemas.Title.optional(),
    /** Its description (at most 1024 characters); for images it is the alt text. */
    description: schemas.Description.optional(),
    /** Its tags, for search at the service: at most 50 distinct, of at most 32 characters; compared as a set. */
    tags: z
      .array(schemas.Tag)
      .max(50, { message: "must have at most 50 tags" })
      .refine((tags) => new Set(tags).size === tags.length, { message: "must not repeat a tag" })
      .optional(),
    /** Take over meta that is set already instead of failing; on delete it is put back as found. */
    adopt: z.boolean().optional(),
  })
  .refine((i) => i.title !== undefined || i.description !== undefined || i.tags !== undefined, {
    message: "set at least one of title, description, tags",
    path: ["title"],
  });

interface Fields {
  title?: string;
  description?: string;
  tags?: string[];
}

/** Sends what differs between `from` and `to`: title/description in one call, tags as set changes. */
async function converge(ctx: KindContext, path: string, from: Fields, to: Fields): Promise<void> {
  const text: { title?: string; description?: string } = {};
  if (to.title !== undefined && to.title !== from.title) text.title = to.title;
  if (to.description !== undefined && to.description !== from.description) text.description = to.description;
  if (Object.keys(text).length > 0) await ctx.client.ops.setMeta({ query: { filename: path }, body: text });
  if (to.tags !== undefined) {
    const had = new Set(from.tags ?? []);
    const want = new Set(to.tags);
    const added = [...want].filter((t) => !had.has(t));
    const removed = [...had].filter((t) => !want.has(t));
    if (added.length) await ctx.client.ops.addTags({ query: { filename: path }, body: { tags: added } });
    if (removed.length)
      await ctx.client.ops.removeTags({ query: { filename: path }, body: { tags: removed } });
  }
}

/** The fields `managed` names, as they are live ("" and [] where unset). */
function liveFields(live: Fields, managed: Fields): Fields {
  const out: Fields = {};
  if (managed.title !== undefined) out.title = live.title ?? "";
  if (managed.description !== undefined) out.description = live.description ?? "";
  if (managed.tags !== undefined) out.tags = [...(live.tags ?? [])];
  return out;
}

export const folderMeta = defineKind({
  name: "FolderMeta",
  inputs,
  outputs: {},
  replaceOn: ["path"],
  // it sits at its path: when the folder holding it moves, it follows
  location: "path",
  equivalent: { tags: sameSet },
  id: (i) => i.path,
  importing: { identity: (path) => ({ path }) },
  docs: {
    summary:
      "Title, description and tags of a folder or file. Only the fields given are managed; deleting clears them.",
    properties: "`path`, `title`, `description`, `tags` (a set), `adopt`",
    delete:
      "clears the fields it managed (an adopted resource puts back what it found); when its folder is replaced (another account) in the same run, it leaves them to the folder",
    drift: "each managed field; tags compared as a set",
  },

  async create(ctx, meta) {
    const { path } = meta;
    // a folder this process just created has no meta: no read needed
    if (treeOf(ctx.account).takeFresh("meta", path)) {
      await converge(ctx, path, {}, meta);
      return {};
    }
    const live = liveFields(await ctx.client.ops.getMeta({ query: { filename: path } }), meta);
    const taken = (["title", "description", "tags"] as const).filter((k) => (live[k]?.length ?? 0) > 0);
    if (taken.length > 0) ctx.found(`its meta (${taken.join(", ")})`, live);
    await converge(ctx, path, live, meta);
    return {};
  },

  async read(ctx, olds, scope) {
    const meta = await ctx.client.ops.getMeta({ query: { filename: olds.path } });
    if (scope === "all") {
      // an import manages the fields that are set
      const set: Fields = {};
      if (meta.title) set.title = meta.title;
      if (meta.description) set.description = meta.description;
      if (meta.tags?.length) set.tags = [...meta.tags];
      if (Object.keys(set).length === 0)
        throw new ProviderError(`${olds.path} has no meta set: there is nothing to import`);
      return set;
    }
    const live = liveFields(meta, olds);
    // keep the declared order when the set is unchanged, so refresh shows no reordering
    if (olds.tags !== undefined && sameSet(olds.tags, live.tags)) live.tags = olds.tags;
    return live;
  },

  async update(ctx, olds, news) {
    await converge(ctx, news.path, olds, news);
    return {};
  },

  async delete(ctx, olds) {
    if (ctx.containerLeaving) {
      // the folder is being moved away: its meta goes with it, or stays with it if its delete fails
      ctx.keep("left with its folder, which this run moves");
      return;
    }
    const prior = (olds.__adopted?.prior ?? {}) as Fields;
    const to: Fields = {
      title: olds.title !== undefined ? (prior.title ?? "") : undefined,
      description: olds.description !== undefined ? (prior.description ?? "") : undefined,
      tags: olds.tags !== undefined ? (prior.tags ?? []) : undefined,
    };
    await converge(ctx, olds.path, olds, to);
  },
});
