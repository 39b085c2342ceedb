// File meta (title, description, tags, approval, product), points of interest and folder options.
import { conflict } from "../errors";
import type { FolderOptions } from "../tree";
import { splitPath } from "../tree";
import { type Call, cleanPath, type Handlers } from "./types";

type MetaOps =
  | "getMeta"
  | "setMeta"
  | "getFolderOptions"
  | "setFolderOptions"
  | "getPoi"
  | "setPoi"
  | "deletePoi"
  | "getApproval"
  | "setApproval"
  | "getDescription"
  | "setDescription"
  | "getProduct"
  | "setProduct"
  | "getTags"
  | "addTags"
  | "removeTags"
  | "getTitle"
  | "setTitle";

const file = (query: { filename: string }) => cleanPath(query.filename, "filename");

/** Every meta setter is one `setMeta` journal entry carrying the fields it sets. */
function commitMeta(
  { ctx, account, query, now }: Pick<Call<"setMeta">, "ctx" | "account" | "query" | "now">,
  meta: Record<string, unknown>,
) {
  return ctx.store.commit({ type: "setMeta", account: account.alias, path: file(query), meta, time: now });
}

export const metaHandlers: Pick<Handlers, MetaOps> = {
  /** Only the meta that was set: a key never written is absent. */
  getMeta: ({ account, query }) => structuredClone(account.tree.require(file(query)).meta),
  setMeta: async (req) => {
    await commitMeta(req, req.body);
  },

  getTitle: ({ account, query }) => ({ title: account.tree.require(file(query)).meta.title ?? "" }),
  setTitle: async (req) => {
    await commitMeta(req, req.body);
  },
  getDescription: ({ account, query }) => ({
    description: account.tree.require(file(query)).meta.description ?? "",
  }),
  setDescription: async (req) => {
    await commitMeta(req, req.body);
  },
  getProduct: ({ account, query }) => ({ ...account.tree.require(file(query)).meta.product }),
  setProduct: async (req) => {
    await commitMeta(req, { product: req.body });
  },
  getApproval: ({ account, query }) =>
    account.tree.require(file(query)).meta.approval ?? { datetime: null, approved: false },
  setApproval: async (req) => {
    await commitMeta(req, { approval: req.body });
  },

  getTags: ({ account, query }) => ({ tags: [...(account.tree.require(file(query)).meta.tags ?? [])] }),
  addTags: async ({ ctx, account, query, body, now }) => {
    await ctx.store.commit({
      type: "addTags",
      account: account.alias,
      path: file(query),
      tags: body.tags,
      time: now,
    });
  },
  removeTags: async ({ ctx, account, query, body, now }) => {
    const path = file(query);
    await ctx.store.commit({ type: "removeTags", account: account.alias, path, tags: body.tags, time: now });
  },

  getPoi: ({ account, query }) => structuredClone(account.tree.requireFile(file(query)).poi),
  /** One named point per call; the name given again replaces its point. */
  setPoi: async ({ ctx, account, query, body }) => {
    const { name, ...point } = body;
    const current = account.tree.requireFile(file(query)).poi;
    if (ctx.plays("poi-set-conflict") && Object.hasOwn(current, name))
      throw conflict(`Point of interest already exists: ${name}`);
    await ctx.store.commit({ type: "setPoi", account: account.alias, path: file(query), name, point });
  },
  deletePoi: async ({ ctx, account, query, body }) => {
    const current = account.tree.requireFile(file(query)).poi;
    if (ctx.plays("poi-delete-missing-ok") && !Object.hasOwn(current, body.name)) return;
    await ctx.store.commit({ type: "deletePoi", account: account.alias, path: file(query), name: body.name });
  },

  /** The folder's own options, or with `withInherited` its ancestors' merged in (nearest wins). */
  getFolderOptions: ({ account, query }) => {
    const path = file(query);
    const dir = account.tree.requireDir(path);
    if (!query.withInherited) return { ...dir.options };
    const merged: FolderOptions = { ...account.tree.root.options };
    let at = "";
    for (const name of splitPath(path)) {
      at = `${at}/${name}`;
      Object.assign(merged, account.tree.requireDir(at).options);
    }
    return merged;
  },
  /** The body becomes the folder's options: keys left out are unset. */
  setFolderOptions: async ({ ctx, account, query, body }) => {
    const path = file(query);
    const options = ctx.plays("options-merge") ? { ...account.tree.requireDir(path).options, ...body } : body;
    await ctx.store.commit({ type: "setOptions", account: account.alias, path, options });
  },
};
