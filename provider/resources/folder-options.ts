// FolderOptions: the three options of one folder (observed.md). Only the keys given are
// managed; the service returns only keys that are set, so a managed key missing on read is
// drift ("not set here"). Whether a POST merges keys or replaces the set is not documented, so
// writes send the folder's current options with the managed ones changed: right under either
// rule, and never dropping an option the program does not manage. The API offers no way to
// unset an option, so delete leaves the options as they are (documented).
import { z } from "zod";
import { MediahostError } from "../client";
import type { AccountContext } from "../context";
import { CommonInputs, type CommonOutputs, inputsOf, ManagedPath, type ResourceKind } from "./common";
import { takeFresh } from "./folder";

const OPTION_KEYS = ["scanSpins", "nameSpinsAfterFolder", "allowListing"] as const;

const Inputs = z
  .strictObject({
    ...CommonInputs,
    path: ManagedPath,
    scanSpins: z.boolean().optional(),
    nameSpinsAfterFolder: z.boolean().optional(),
    allowListing: z.boolean().optional(),
  })
  .refine((i) => OPTION_KEYS.some((k) => i[k] !== undefined), {
    message: "set at least one of scanSpins, nameSpinsAfterFolder, allowListing",
    path: ["scanSpins"],
  });
export type FolderOptionsInputs = z.output<typeof Inputs>;
export type FolderOptionsOutputs = FolderOptionsInputs & CommonOutputs;

const properties = ["account", "path", ...OPTION_KEYS] as const;

function managed(inputs: FolderOptionsInputs) {
  const body: Partial<Record<(typeof OPTION_KEYS)[number], boolean>> = {};
  for (const key of OPTION_KEYS) if (inputs[key] !== undefined) body[key] = inputs[key];
  return body;
}

async function liveOptions(ctx: AccountContext, path: string): Promise<Record<string, unknown> | undefined> {
  try {
    return await ctx.client.ops.getFolderOptions({ query: { filename: path } });
  } catch (err) {
    if (err instanceof MediahostError && err.isNotFound) return undefined;
    throw err;
  }
}

/** Writes `changes` on top of the folder's current options (known to be none on a folder just made). */
async function write(ctx: AccountContext, path: string, changes: Record<string, boolean>, empty = false) {
  const current = empty ? {} : ((await liveOptions(ctx, path)) ?? {});
  const body: Record<string, boolean> = {};
  for (const key of OPTION_KEYS) {
    const value = key in changes ? changes[key] : current[key];
    if (typeof value === "boolean") body[key] = value;
  }
  await ctx.client.ops.setFolderOptions({ query: { filename: path }, body });
}

export const folderOptions: ResourceKind<FolderOptionsInputs, FolderOptionsOutputs> = {
  name: "FolderOptions",
  schema: Inputs,
  diff: { properties, replaceOn: ["account", "path"] },

  async create(ctx, inputs) {
    const accountAlias = await ctx.assertAccount(undefined, `FolderOptions ${inputs.path}`);
    await write(ctx, inputs.path, managed(inputs), takeFresh(ctx, "options", inputs.path));
    return { id: inputs.path, outs: { ...inputs, accountAlias } };
  },

  async read(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `FolderOptions ${olds.path}`);
    const live = await liveOptions(ctx, olds.path);
    if (!live) return undefined;
    const outs = { ...olds };
    for (const key of OPTION_KEYS) {
      if (olds[key] !== undefined)
        outs[key] = typeof live[key] === "boolean" ? (live[key] as boolean) : undefined;
    }
    return { id: olds.path, outs, inputs: inputsOf(properties, outs) };
  },

  async update(ctx, _id, olds, news) {
    await ctx.assertAccount(olds.accountAlias, `FolderOptions ${olds.path}`);
    const changed = Object.fromEntries(
      Object.entries(managed(news)).filter(([k, v]) => olds[k as keyof typeof olds] !== v),
    );
    if (Object.keys(changed).length > 0) {
      await write(ctx, news.path, changed);
    }
    return { ...news, accountAlias: olds.accountAlias };
  },

  async delete(ctx, _id, olds) {
    // nothing to undo: options cannot be unset through the API, and they go with the folder
    await ctx.assertAccount(olds.accountAlias, `FolderOptions ${olds.path}`);
  },
};
