// FolderMeta: title, description and tags of a folder (or file). Only the fields given are
// managed. Tags are a set: an update sends only the tags added and the tags removed.
import { z } from "zod";
import { Description, Tag, Title } from "../api/schemas";
import { MediahostError } from "../client";
import type { AccountContext } from "../context";
import {
  CommonInputs,
  type CommonOutputs,
  inputsOf,
  ManagedPath,
  type ResourceKind,
  sameSet,
} from "./common";
import { takeFresh } from "./folder";

const Inputs = z
  .strictObject({
    ...CommonInputs,
    path: ManagedPath,
    title: Title.optional(),
    description: Description.optional(),
    tags: z
      .array(Tag)
      .max(50, { message: "must have at most 50 tags" })
      .refine((tags) => new Set(tags).size === tags.length, { message: "must not repeat a tag" })
      .optional(),
  })
  .refine((i) => i.title !== undefined || i.description !== undefined || i.tags !== undefined, {
    message: "set at least one of title, description, tags",
    path: ["title"],
  });
export type FolderMetaInputs = z.output<typeof Inputs>;
export type FolderMetaOutputs = FolderMetaInputs & CommonOutputs;

const properties = ["account", "path", "title", "description", "tags"] as const;

/** Sends what differs between `from` and `to`: title/description in one call, tags as set changes. */
async function converge(
  ctx: AccountContext,
  path: string,
  from: Partial<FolderMetaInputs>,
  to: Partial<FolderMetaInputs>,
) {
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

async function liveMeta(ctx: AccountContext, path: string) {
  try {
    return await ctx.client.ops.getMeta({ query: { filename: path } });
  } catch (err) {
    if (err instanceof MediahostError && err.isNotFound) return undefined;
    throw err;
  }
}

export const folderMeta: ResourceKind<FolderMetaInputs, FolderMetaOutputs> = {
  name: "FolderMeta",
  schema: Inputs,
  diff: { properties, replaceOn: ["account", "path"], equivalent: { tags: sameSet } },

  async create(ctx, inputs) {
    const accountAlias = await ctx.assertAccount(undefined, `FolderMeta ${inputs.path}`);
    // tags are a set the resource owns: start from what is there so the set ends exact
    // (a folder this process just created has none: no read needed)
    const empty = takeFresh(ctx, "meta", inputs.path);
    const current = inputs.tags !== undefined && !empty ? await liveMeta(ctx, inputs.path) : undefined;
    await converge(ctx, inputs.path, { tags: current?.tags ?? [] }, inputs);
    return { id: inputs.path, outs: { ...inputs, accountAlias } };
  },

  async read(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `FolderMeta ${olds.path}`);
    const live = await liveMeta(ctx, olds.path);
    if (!live) return undefined;
    const outs = { ...olds };
    if (olds.title !== undefined) outs.title = live.title ?? "";
    if (olds.description !== undefined) outs.description = live.description ?? "";
    if (olds.tags !== undefined) {
      // keep the declared order when the set is unchanged, so refresh shows no reordering
      outs.tags = sameSet(olds.tags, live.tags) ? olds.tags : [...(live.tags ?? [])];
    }
    return { id: olds.path, outs, inputs: inputsOf(properties, outs) };
  },

  async update(ctx, _id, olds, news) {
    await ctx.assertAccount(olds.accountAlias, `FolderMeta ${olds.path}`);
    await converge(ctx, news.path, olds, news);
    return { ...news, accountAlias: olds.accountAlias };
  },

  async delete(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `FolderMeta ${olds.path}`);
    try {
      const cleared: Partial<FolderMetaInputs> = {
        title: olds.title !== undefined ? "" : undefined,
        description: olds.description !== undefined ? "" : undefined,
        tags: olds.tags !== undefined ? [] : undefined,
      };
      await converge(ctx, olds.path, olds, cleared);
    } catch (err) {
      // the folder went first: its meta went with it
      if (!(err instanceof MediahostError && err.isNotFound)) throw err;
    }
  },
};
