// AccountSettings: the account singleton's minify and remote-fetching options. Only the groups
// given are managed; everything else on the account is left as it is. Secrets (the fetching
// password, the S3 secret key) are write-only at the service: they are kept from the state on
// read, so a change made to them outside Pulumi cannot be seen. Delete leaves the account as it
// is unless `resetOnDelete: true`, which turns minify and fetching off.
//
// The SDK sends those two secrets in their own top-level property, `fetchingSecrets`: Pulumi
// marks secrecy per top-level property for dynamic providers, so keeping them inside `fetching`
// would hide every fetching field (and its drift) behind "[secret]" (sdk/resources.ts).

import { schemas } from "mediahost-contract";
import { z } from "zod";
import { canonical } from "../diff";
import { defineKind } from "./kind";

const FetchingSecrets = z.strictObject({
  httpPassword: z.string().optional(),
  s3SecretAccessKey: z.string().optional(),
});
type Fetching = z.output<typeof schemas.FetchingUpdate>;
type Secrets = z.output<typeof FetchingSecrets>;

/** `fetching` as the API takes it: with the secrets put back in their places. */
function withSecrets(fetching: unknown, secrets: Secrets | undefined): unknown {
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

const inputs = z
  .strictObject({
    /** Automatic minification of JS and CSS files. */
    minify: z.strictObject({ enabled: z.boolean() }).optional(),
    /** Remote fetching of files missing from the account, without its write-only credentials (judged whole below). */
    fetching: z.unknown().optional(),
    /** The write-only credentials of `fetching` (always a secret). */
    fetchingSecrets: FetchingSecrets.optional(),
    /** On delete, turn the managed options off. Default false: delete leaves the account as it is. */
    resetOnDelete: z.boolean().optional(),
  })
  .superRefine((i, ctx) => {
    if (i.minify === undefined && i.fetching === undefined) {
      ctx.addIssue({ code: "custom", path: ["minify"], message: "set at least one of minify, fetching" });
    }
    if (i.fetching === undefined) return;
    const fetching = withSecrets(i.fetching, i.fetchingSecrets);
    const result = schemas.FetchingUpdate.safeParse(fetching);
    for (const issue of result.success ? [] : result.error.issues) {
      ctx.addIssue({ code: "custom", path: ["fetching", ...issue.path.map(String)], message: issue.message });
    }
    // the service keeps no credentials of disabled auth ("" on read): declaring them would be a
    // difference no `up` could ever converge
    const auth = result.success ? result.data.http?.auth : undefined;
    for (const key of ["username", "password"] as const) {
      if (auth && !auth.enabled && auth[key] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["fetching", "http", "auth", key],
          message: "must not be set when auth.enabled is false (the service does not keep it)",
        });
      }
    }
  });

/** Keys the service never returns in clear (docs/api.md#account). */
const WRITE_ONLY = new Set(["password", "secretAccessKey"]);

/**
 * The live value in the shape of the managed one: keys the program manages take the service's
 * value; write-only keys, and keys the service does not return, keep the state's value (unknown
 * is not changed).
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

function settingsOf(i: { minify?: { enabled: boolean }; fetching?: unknown; fetchingSecrets?: Secrets }) {
  return { minify: i.minify, fetching: withSecrets(i.fetching, i.fetchingSecrets) as Fetching | undefined };
}

export const accountSettings = defineKind({
  name: "AccountSettings",
  inputs,
  outputs: {
    /** The account's CDN host name. */
    cdnUrl: z.string().optional(),
  },
  replaceOn: [],
  id: (_i, accountAlias) => accountAlias ?? "account",
  viaAccountWriter: true,
  docs: {
    properties:
      "`minify.enabled`; `fetching` (`enabled`, `type` `http`/`s3`, `http.url`, `http.auth` {`enabled`, `username`, `password`}, `s3` {`accessKeyId`, `secretAccessKey`, `bucket`, `endpoint`, `prefix`, `forcePathStyle`}); `resetOnDelete`; output `cdnUrl`",
    delete: "leaves the account as it is, unless `resetOnDelete: true` (turns minify and fetching off)",
    drift: "every managed field except the password and S3 secret key, which the service never returns",
  },

  async create(ctx, i) {
    const { account } = await ctx.account.writer.submit({
      resource: "AccountSettings",
      settings: settingsOf(i),
      prepare(live) {
        ctx.landed(live.alias);
        return undefined;
      },
    });
    return { cdnUrl: account.cdnURL };
  },

  async read(ctx, olds) {
    const live = await ctx.account.account();
    return {
      cdnUrl: live.cdnURL,
      minify: olds.minify ? (project(olds.minify, live.minify) as typeof olds.minify) : undefined,
      fetching: olds.fetching ? project(olds.fetching, live.fetching) : undefined,
    };
  },

  async update(ctx, olds, news) {
    // compare and write `fetching` with its secrets in place: a new password is a change too
    const before = settingsOf(olds);
    const after = settingsOf(news);
    const changed: Partial<ReturnType<typeof settingsOf>> = {};
    if (after.minify && canonical(after.minify) !== canonical(before.minify)) changed.minify = after.minify;
    if (after.fetching && canonical(after.fetching) !== canonical(before.fetching))
      changed.fetching = after.fetching;
    if (changed.minify || changed.fetching) {
      await ctx.account.writer.submit({
        resource: "AccountSettings",
        settings: changed,
        expectedAlias: olds.accountAlias,
      });
    }
    return { cdnUrl: olds.cdnUrl };
  },

  async delete(ctx, olds) {
    if (!olds.resetOnDelete) return;
    await ctx.account.writer.submit({
      resource: "AccountSettings",
      settings: {
        minify: olds.minify ? { enabled: false } : undefined,
        fetching: olds.fetching ? { enabled: false } : undefined,
      },
      expectedAlias: olds.accountAlias,
    });
  },
});
