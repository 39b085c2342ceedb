// AccountSettings: the account singleton's minify and remote-fetching options. Only the groups
// given are managed; everything else on the account is left as it is. Secrets (the fetching
// password, the S3 secret key) are write-only at the service: they are kept from the state on
// read, so a change made to them outside Pulumi cannot be seen (documented). Delete leaves the
// account as it is unless `resetOnDelete: true`, which turns minify and fetching off.
//
// The SDK sends those two secrets in their own top-level property, `fetchingSecrets`: Pulumi
// marks secrecy per top-level property for dynamic providers, so keeping them inside `fetching`
// would hide every fetching field (and its drift) behind "[secret]".
import { z } from "zod";
import { FetchingUpdate } from "../api/schemas";
import { CommonInputs, type CommonOutputs, canonical, inputsOf, type ResourceKind } from "./common";

const FetchingSecrets = z.strictObject({
  httpPassword: z.string().optional(),
  s3SecretAccessKey: z.string().optional(),
});
type Fetching = z.output<typeof FetchingUpdate>;

/** `fetching` as the API takes it: with the secrets put back in their places. */
function withSecrets(fetching: unknown, secrets: z.output<typeof FetchingSecrets> | undefined): unknown {
  if (!fetching || typeof fetching !== "object" || !secrets) return fetching;
  const merged = structuredClone(fetching) as {
    http?: { auth?: Record<string, unknown> };
    s3?: Record<string, unknown>;
  };
  if (secrets.httpPassword !== undefined && merged.http?.auth)
    merged.http.auth.password = secrets.httpPassword;
  if (secrets.s3SecretAccessKey !== undefined && merged.s3)
    merged.s3.secretAccessKey = secrets.s3SecretAccessKey;
  return merged;
}

const Inputs = z
  .strictObject({
    ...CommonInputs,
    minify: z.strictObject({ enabled: z.boolean() }).optional(),
    // judged as a whole below, once the secrets are back in place
    fetching: z.unknown().optional(),
    fetchingSecrets: FetchingSecrets.optional(),
    resetOnDelete: z.boolean().optional(),
  })
  .superRefine((i, ctx) => {
    if (i.minify === undefined && i.fetching === undefined) {
      ctx.addIssue({ code: "custom", path: ["minify"], message: "set at least one of minify, fetching" });
    }
    if (i.fetching === undefined) return;
    const result = FetchingUpdate.safeParse(withSecrets(i.fetching, i.fetchingSecrets));
    for (const issue of result.success ? [] : result.error.issues) {
      ctx.addIssue({ code: "custom", path: ["fetching", ...issue.path.map(String)], message: issue.message });
    }
  });
export type AccountSettingsInputs = Omit<z.output<typeof Inputs>, "fetching"> & { fetching?: Fetching };
export interface AccountSettingsOutputs extends AccountSettingsInputs, CommonOutputs {
  /** The account's CDN host name. */
  cdnUrl?: string;
}

const properties = ["account", "minify", "fetching", "fetchingSecrets", "resetOnDelete"] as const;
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
  return {
    minify: inputs.minify,
    fetching: withSecrets(inputs.fetching, inputs.fetchingSecrets) as Fetching | undefined,
  };
}

export const accountSettings: ResourceKind<AccountSettingsInputs, AccountSettingsOutputs> = {
  name: "AccountSettings",
  schema: Inputs as unknown as z.ZodType<AccountSettingsInputs>,
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
    // compare and write `fetching` with its secrets in place: a new password is a change too
    const before = settingsOf(olds);
    const after = settingsOf(news);
    const changed: Partial<ReturnType<typeof settingsOf>> = {};
    if (after.minify && canonical(after.minify) !== canonical(before.minify)) changed.minify = after.minify;
    if (after.fetching && canonical(after.fetching) !== canonical(before.fetching))
      changed.fetching = after.fetching;
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
