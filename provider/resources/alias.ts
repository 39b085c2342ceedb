// Alias: one entry of the account's `aliases` map. Writes go through the account writer, which
// coalesces concurrent changes into one read-modify-write of the whole map. No operation is
// known that deletes an alias: delete writes the map without it and reads back; if the service
// kept it (it merges the map), the resource leaves the state with a warning that says so.
import { z } from "zod";
import type { AccountContext } from "../context";
import { log } from "../log";
import {
  AliasName,
  beginCreate,
  CommonInputs,
  type CommonOutputs,
  inputsOf,
  type ResourceKind,
} from "./common";

const ENTRY_KEYS = ["prefix", "cdn", "defaultProfile"] as const;

const Inputs = z.strictObject({
  ...CommonInputs,
  name: AliasName,
  prefix: z.string().max(1024, { message: "must be at most 1024 characters" }).optional(),
  cdn: z.boolean().optional(),
  defaultProfile: z.string().max(256, { message: "must be at most 256 characters" }).optional(),
  /** Take over an alias that exists already. */
  adopt: z.boolean().optional(),
});
export type AliasInputs = z.output<typeof Inputs>;
export interface AliasOutputs extends AliasInputs, CommonOutputs {
  /** The custom CDN domain the service reports for this alias, if any. */
  customDomain?: string;
}

const properties = ["account", "name", ...ENTRY_KEYS, "adopt"] as const;

/** The entry to write: what the service has, with the managed fields set as declared. */
async function entryFor(ctx: AccountContext, inputs: AliasInputs) {
  const existing = (await ctx.account()).aliases?.[inputs.name] ?? {};
  const entry: { prefix?: string; cdn?: boolean; defaultProfile?: string } = {};
  for (const key of ENTRY_KEYS) {
    const value = inputs[key] ?? existing[key];
    if (value !== undefined) (entry as Record<string, unknown>)[key] = value;
  }
  return entry;
}

export const alias: ResourceKind<AliasInputs, AliasOutputs> = {
  name: "Alias",
  schema: Inputs,
  diff: { properties, replaceOn: ["account", "name"] },

  async create(ctx, inputs) {
    const accountAlias = await ctx.assertAccount(undefined, `Alias ${inputs.name}`);
    const journal = beginCreate(ctx, "Alias", inputs.name, accountAlias);
    if ((await ctx.account()).aliases?.[inputs.name]) journal.found(inputs.adopt, `alias "${inputs.name}"`);
    await ctx.change({ alias: { name: inputs.name, entry: await entryFor(ctx, inputs) } });
    const customDomain = (await ctx.account()).aliases?.[inputs.name]?.customDomain;
    return { id: inputs.name, outs: { ...inputs, accountAlias, customDomain } };
  },

  async read(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `Alias ${olds.name}`);
    const live = (await ctx.account()).aliases?.[olds.name];
    if (!live) return undefined;
    const outs: AliasOutputs = { ...olds, customDomain: live.customDomain };
    // managed fields only; a field the service no longer reports reads as unset
    for (const key of ENTRY_KEYS)
      if (olds[key] !== undefined) (outs as unknown as Record<string, unknown>)[key] = live[key];
    return { id: olds.name, outs, inputs: inputsOf(properties, outs) };
  },

  async update(ctx, _id, olds, news) {
    await ctx.assertAccount(olds.accountAlias, `Alias ${olds.name}`);
    if (ENTRY_KEYS.some((k) => news[k] !== undefined && news[k] !== olds[k])) {
      await ctx.change({ alias: { name: news.name, entry: await entryFor(ctx, news) } });
    }
    return { ...news, accountAlias: olds.accountAlias, customDomain: olds.customDomain };
  },

  async delete(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `Alias ${olds.name}`);
    if (!(await ctx.account()).aliases?.[olds.name]) return;
    // the writer reads the account back after the first removal of the run, so the cached
    // account tells whether the service kept the alias
    await ctx.change({ alias: { name: olds.name, entry: null } });
    if ((await ctx.account()).aliases?.[olds.name]) {
      log.warn(
        `Alias ${olds.name}: the service kept the alias after it was written out of the account's alias map ` +
          "(it merges the map on update, and the API has no operation that deletes an alias). " +
          "It is no longer managed by this stack; remove it in the service's console if it must go.",
      );
    }
  },
};
