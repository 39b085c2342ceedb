// FolderMeta: title, description, tags, product and approval of a folder (or file). Only the
// fields given are managed. Product and approval live here rather than on a kind of their own:
// the service keeps them in the same meta object (one `setMeta` writes them with title and
// description, one `getMeta` reads them all), and this kind already applies to any path, so a
// refresh of a file's meta stays one call and the existing stacks' resources gain them in place.
// Tags are a set: a write sends only the tags added and the tags removed. Meta that is
// there already (a non-empty managed field) is taken over only with `adopt: true`, and put back as
// found on delete; otherwise delete clears the fields it managed — except when the folder itself
// is being moved away in the same run, when the meta goes (or stays) with its folder.

import { schemas } from "mediahost-contract";
import { z } from "zod";
import { sameSet } from "../diff";
import { ProviderError } from "../errors";
import { Ref } from "./example";
import { defineKind, type KindContext } from "./kind";
import { WritablePath } from "./schema";
import { treeOf } from "./tree";

const MANAGED = ["title", "description", "tags", "product", "approval"] as const;

/** The product's fields, each a string of at most 256 characters (named in the error). */
const productField = z.string().max(256, { message: "must be at most 256 characters" }).optional();
const Product = z.strictObject({
  id: productField,
  name: productField,
  brand: productField,
  category1: productField,
  category2: productField,
});
const Approval = schemas.ApprovalUpdate.extend({ comment: schemas.Description.optional() });

/** What "cleared" is for product and approval: an empty product, and not approved without a comment. */
const CLEARED = { product: {}, approval: { approved: false } } as const;

const inputs = z
  .strictObject({
    /** Absolute path of the folder (or file), at most 1024 characters. Changing it replaces the resource. */
    path: WritablePath,
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
    /** The catalogue's product this path shows; managed as a whole object. */
    product: Product.optional(),
    /** The review flag (`approved`, `comment`); the service stamps `approvalDatetime`. */
    approval: Approval.optional(),
    /** Take over meta that is set already instead of failing; on delete it is put back as found. */
    adopt: z.boolean().optional(),
  })
  .refine((i) => MANAGED.some((k) => i[k] !== undefined), {
    message: `set at least one of ${MANAGED.join(", ")}`,
    path: ["title"],
  });

interface Fields {
  title?: string;
  description?: string;
  tags?: string[];
  product?: ProductFields;
  approval?: { approved: boolean; comment?: string };
}
type ProductFields = z.output<typeof Product>;

/** Sends what differs between `from` and `to`: title/description in one call, tags as set changes. */
async function converge(ctx: KindContext, path: string, from: Fields, to: Fields): Promise<void> {
  const text: Omit<Fields, "tags"> = {};
  if (to.title !== undefined && to.title !== from.title) text.title = to.title;
  if (to.description !== undefined && to.description !== from.description) text.description = to.description;
  if (to.product !== undefined && !sameObject(to.product, from.product)) text.product = to.product;
  if (to.approval !== undefined && !sameObject(to.approval, from.approval)) text.approval = to.approval;
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

/** Objects equal field by field, an unset field equal to an empty one. */
function sameObject(a: object | undefined, b: object | undefined): boolean {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = (b ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].every((k) => (x[k] ?? "") === (y[k] ?? ""));
}

/** The product as the service shows it, its empty fields left out. */
function productOf(live: Record<string, unknown> | undefined): ProductFields {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(live ?? {})) if (typeof v === "string" && v !== "") out[k] = v;
  return out;
}

/** The approval as the service shows it: the comment only when the program manages it. */
function approvalOf(live: schemas.AllMeta["approval"], managed: Fields["approval"]): Fields["approval"] {
  const out: { approved: boolean; comment?: string } = { approved: live?.approved ?? false };
  if (managed?.comment !== undefined) out.comment = live?.comment ?? "";
  return out;
}

/** The fields `managed` names, as they are live ("" and [] where unset). */
function liveFields(live: schemas.AllMeta, managed: Fields): Fields {
  const out: Fields = {};
  if (managed.title !== undefined) out.title = live.title ?? "";
  if (managed.description !== undefined) out.description = live.description ?? "";
  if (managed.tags !== undefined) out.tags = [...(live.tags ?? [])];
  if (managed.product !== undefined) out.product = productOf(live.product);
  if (managed.approval !== undefined) out.approval = approvalOf(live.approval, managed.approval);
  return out;
}

/** When the service stamped the approval: read after a write that set it. */
async function approvalDatetime(
  ctx: KindContext,
  path: string,
  to: Fields,
): Promise<{ approvalDatetime?: string }> {
  if (to.approval === undefined) return {};
  const approval = await ctx.client.ops.getApproval({ query: { filename: path } });
  return approval.datetime ? { approvalDatetime: approval.datetime } : {};
}

/** A managed field holds something: text, a tag, a product field, or an approval. */
function isSet(value: Fields[keyof Fields]): boolean {
  if (value === undefined) return false;
  if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
  if ("approved" in value) return value.approved || (value.comment ?? "") !== "";
  return Object.keys(value).length > 0;
}

export const folderMeta = defineKind({
  name: "FolderMeta",
  inputs,
  outputs: {
    /** When the service stamped the approval (it sets this itself); unset while no approval is managed. */
    approvalDatetime: z.string().optional(),
  },
  // when the service stamped the approval: it changes with the approval, which is the drift
  observations: ["approvalDatetime"],
  replaceOn: ["path"],
  // it sits at its path: when the folder holding it moves, it follows
  tree: { location: "path", belongsTo: "path" },
  equivalent: { tags: sameSet },
  id: (i) => i.path,
  importing: {
    identity: (path) => ({ path }),
    id: { form: "the path of the folder or file", example: "/products" },
  },
  docs: {
    summary:
      "Title, description, tags, product and approval of a folder or file. Only the fields given are managed; deleting clears them.",
    properties:
      "`path`, `title`, `description`, `tags` (a set), `product` (`id`, `name`, `brand`, `category1`, `category2`), `approval` (`approved`, `comment`), `adopt`; output `approvalDatetime`",
    delete:
      "clears the fields it managed (an adopted resource puts back what it found); when its folder is replaced (another account) in the same run, it leaves them to the folder",
    drift: "each managed field; tags compared as a set; product and approval each as a whole",
    example: {
      title: "A folder's title and tags",
      name: "products-meta",
      before: [{ kind: "Folder", name: "products", args: { path: "/products" } }],
      args: { path: new Ref("products", "path"), title: "Products", tags: ["catalog"] },
    },
  },

  async create(ctx, meta) {
    const { path } = meta;
    // a folder this process just created has no meta: no read needed
    if (treeOf(ctx.account).takeFresh("meta", path)) {
      await converge(ctx, path, {}, meta);
      return approvalDatetime(ctx, path, meta);
    }
    const live = liveFields(await ctx.client.ops.getMeta({ query: { filename: path } }), meta);
    const taken = MANAGED.filter((k) => isSet(live[k]));
    if (taken.length > 0) ctx.found(`its meta (${taken.join(", ")})`, live);
    await converge(ctx, path, live, meta);
    return approvalDatetime(ctx, path, meta);
  },

  // search hits carry no title, tags or description (docs/api.md#search): one getMeta each
  refreshReads: (olds) => [{ operation: "getMeta", key: olds.path }],

  async read(ctx, olds, scope) {
    const meta = await ctx.client.ops.getMeta({ query: { filename: olds.path } });
    if (scope === "all") {
      // an import manages the fields that are set
      const set: Fields = {};
      if (meta.title) set.title = meta.title;
      if (meta.description) set.description = meta.description;
      if (meta.tags?.length) set.tags = [...meta.tags];
      const product = productOf(meta.product);
      if (Object.keys(product).length > 0) set.product = product;
      if (meta.approval?.datetime) set.approval = approvalOf(meta.approval, meta.approval);
      if (Object.keys(set).length === 0)
        throw new ProviderError(`${olds.path} has no meta set: there is nothing to import`);
      return { ...set, ...(meta.approval?.datetime ? { approvalDatetime: meta.approval.datetime } : {}) };
    }
    const live: Fields & { approvalDatetime?: string } = liveFields(meta, olds);
    if (olds.approval !== undefined && meta.approval?.datetime)
      live.approvalDatetime = meta.approval.datetime;
    // keep the declared order when the set is unchanged, so refresh shows no reordering
    if (olds.tags !== undefined && sameSet(olds.tags, live.tags)) live.tags = olds.tags;
    return live;
  },

  async update(ctx, olds, news) {
    // product or approval taken out of the program: cleared, and nothing else
    const to: Fields = { ...news };
    if (olds.product !== undefined && news.product === undefined) to.product = CLEARED.product;
    if (olds.approval !== undefined && news.approval === undefined) to.approval = CLEARED.approval;
    await converge(ctx, news.path, olds, to);
    // the lifecycle records the olds overlaid with these: a dropped field must leave the state too
    const dropped: Record<string, undefined> = {};
    for (const k of MANAGED) if (news[k] === undefined) dropped[k] = undefined;
    if (news.approval === undefined) return { ...dropped, approvalDatetime: undefined };
    // an unchanged approval keeps the time it was stamped
    if (sameObject(olds.approval, news.approval) && olds.approvalDatetime)
      return { ...dropped, approvalDatetime: olds.approvalDatetime };
    return { ...dropped, ...(await approvalDatetime(ctx, news.path, news)) };
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
      product: olds.product !== undefined ? (prior.product ?? CLEARED.product) : undefined,
      approval: olds.approval !== undefined ? (prior.approval ?? CLEARED.approval) : undefined,
    };
    await converge(ctx, olds.path, olds, to);
  },
});
