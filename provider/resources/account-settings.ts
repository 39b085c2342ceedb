// AccountSettings: the account singleton's minify and remote-fetching options. Only the groups
// given are managed; everything else on the account is left as it is. Secrets (the fetching
// password, the S3 secret key) are write-only at the service: they are kept from the state on
// read, so a change made to them outside Pulumi cannot be seen (documented). Delete leaves the
// account as it is unless `resetOnDelete: true`, which turns minify and fetching off.
import { z } from "zod";
import { FetchingUpdate } from "../api/schemas";
import { CommonInputs, type CommonOutputs, inputsOf, type ResourceKind } from "./common";

const Inputs = z
  .strictObject({
    ...CommonInputs,
    minify: z.strictObject({ enabled: z.boolean() }).optional(),
    fetching: FetchingUpdate.optional(),
    resetOnDelete: z.boolean().optional(),
  })
  .refine((i) => i.minify !== undefined || i.fetching !== undefined, {
    message: "set at least one of minify, fetching",
    path: ["minify"],
  });
export type AccountSettingsInputs = z.output<typeof Inputs>;
export interface AccountSettingsOutputs extends AccountSettingsInputs, CommonOutputs {
  /** The account's CDN host name. */
  cdnUrl?: string;
}

const properties = ["account", "minify", "fetching", "resetOnDelete"] as const;
/** Keys the service never returns in clear (observed.md). */
const WRITE_ONLY = new Set(["password", "secretAccessKey"]);

/**
 * The live value in the shape of the managed one: keys the program manages take the service's
 * value; write-only keys, and keys the service does not return, keep the state's value
 * (unknown is not changed).
 */
export function project(managed: unknown, live: unknown): unknown {
  if (!managed || typeof managed !== "object" || Array.isArray(managed))
    return live === undefined ? managed : live;
  const liveObj = live && typeof live === "object" ? (live as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(managed)) {
    out[key] = WRITE_ONLY.has(key) || !(key in liveObj) ? value : project(value, liveObj[key]);
  }
  return out;
}

function settingsOf(inputs: AccountSettingsInputs) {
  return { minify: inputs.minify, fetching: inputs.fetching };
}

export const accountSettings: ResourceKind<AccountSettingsInputs, AccountSettingsOutputs> = {
  name: "AccountSettings",
  schema: Inputs,
  diff: { properties, replaceOn: ["account"] },

  async create(ctx, inputs) {
    const accountAlias = await ctx.assertAccount(undefined, "AccountSettings");
    await ctx.change({ settings: settingsOf(inputs) });
    const { cdnURL } = await ctx.account();
    return { id: accountAlias, outs: { ...inputs, accountAlias, cdnUrl: cdnURL } };
  },

  async read(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, "AccountSettings");
    const live = await ctx.account();
    const outs: AccountSettingsOutputs = { ...olds, cdnUrl: live.cdnURL };
    if (olds.minify) outs.minify = project(olds.minify, live.minify) as typeof olds.minify;
    if (olds.fetching) outs.fetching = project(olds.fetching, live.fetching) as typeof olds.fetching;
    return { id: olds.accountAlias, outs, inputs: inputsOf(properties, outs) };
  },

  async update(ctx, _id, olds, news) {
    await ctx.assertAccount(olds.accountAlias, "AccountSettings");
    const changed: Partial<ReturnType<typeof settingsOf>> = {};
    if (news.minify && JSON.stringify(news.minify) !== JSON.stringify(olds.minify))
      changed.minify = news.minify;
    if (news.fetching && JSON.stringify(news.fetching) !== JSON.stringify(olds.fetching))
      changed.fetching = news.fetching;
    if (changed.minify || changed.fetching) await ctx.change({ settings: changed });
    return { ...news, accountAlias: olds.accountAlias, cdnUrl: olds.cdnUrl };
  },

  async delete(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, "AccountSettings");
    if (!olds.resetOnDelete) return;
    await ctx.change({
      settings: {
        minify: olds.minify ? { enabled: false } : undefined,
        fetching: olds.fetching ? { enabled: false } : undefined,
      },
    });
  },
};
