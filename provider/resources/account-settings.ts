// AccountSettings: the account singleton's minify and remote-fetching options. Only the groups
// given are managed; everything else on the account is left as it is. Secrets (the fetching
// password, the S3 secret key) are write-only at the service: they are kept from the state on
// read, so a change made to them outside Pulumi cannot be seen. Delete leaves the account as it
// is unless `resetOnDelete: true`, which turns minify and fetching off.
//
// Those two secrets travel in their own top-level property, `fetchingSecrets`: Pulumi marks
// secrecy per top-level property, so keeping them inside `fetching` would hide every fetching
// field (and its drift) behind "[secret]". The SDK moves them there in the program
// (sdk/resources.ts); `normalize` does it for programs that give them inside `fetching` (YAML).

import { schemas } from "mediahost-contract";
import { z } from "zod";
import { canonical } from "../diff";
import { ACCOUNT_READ, defineKind } from "./kind";

const FetchingSecrets = z.strictObject({
  httpPassword: z.string().optional(),
  s3SecretAccessKey: z.string().optional(),
});
type Fetching = z.output<typeof schemas.FetchingUpdate>;
type Secrets = z.output<typeof FetchingSecrets>;

/** Where the write-only credentials sit in `fetching`, and their place in `fetchingSecrets`. */
export const CREDENTIALS = [
  { path: ["http", "auth", "password"], secret: "httpPassword" },
  { path: ["s3", "secretAccessKey"], secret: "s3SecretAccessKey" },
] as const;

/** `fetching` without its write-only credentials, and the credentials alone (undefined when none). */
function splitCredentials(fetching: unknown): { fetching: unknown; secrets?: Secrets } {
  if (!fetching || typeof fetching !== "object") return { fetching };
  const rest = structuredClone(fetching) as Record<string, Record<string, Record<string, unknown>>>;
  const secrets: Record<string, unknown> = {};
  for (const { path, secret } of CREDENTIALS) {
    let holder: Record<string, unknown> | undefined = rest;
    for (const key of path.slice(0, -1)) holder = holder?.[key] as Record<string, unknown> | undefined;
    const last = path[path.length - 1] as string;
    if (holder && holder[last] !== undefined) {
      secrets[secret] = holder[last];
      delete holder[last];
    }
  }
  return Object.keys(secrets).length > 0 ? { fetching: rest, secrets: secrets as Secrets } : { fetching };
}

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
const WRITE_ONLY = new Set<string>(CREDENTIALS.map(({ path }) => path[path.length - 1] as string));

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

/**
 * `fetching` as the account shows it, in the shape a program declares it: what can be read back
 * (the write-only credentials cannot), or undefined when it says nothing usable.
 */
export function readableFetching(live: unknown): Record<string, unknown> | undefined {
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  if (!live || typeof live !== "object") return undefined;
  const f = live as {
    enabled?: unknown;
    type?: unknown;
    http?: { url?: unknown; auth?: { enabled?: unknown; username?: unknown } };
    s3?: Record<string, unknown>;
  };
  if (typeof f.enabled !== "boolean") return undefined;
  const out: Record<string, unknown> = { enabled: f.enabled };
  const url = str(f.http?.url);
  if (f.type === "http" && url) {
    const auth = f.http?.auth;
    out.type = "http";
    out.http = {
      url,
      ...(auth && typeof auth.enabled === "boolean"
        ? {
            auth: auth.enabled
              ? { enabled: true, username: String(auth.username ?? "") }
              : { enabled: false },
          }
        : {}),
    };
  } else if (f.type === "s3" && f.s3) {
    const accessKeyId = str(f.s3.accessKeyId);
    const bucket = str(f.s3.bucket);
    if (accessKeyId && bucket) {
      out.type = "s3";
      out.s3 = {
        accessKeyId,
        bucket,
        ...(str(f.s3.endpoint) ? { endpoint: f.s3.endpoint } : {}),
        ...(str(f.s3.prefix) ? { prefix: f.s3.prefix } : {}),
        ...(typeof f.s3.forcePathStyle === "boolean" ? { forcePathStyle: f.s3.forcePathStyle } : {}),
      };
    }
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
  singleton: true,
  // the account singleton: its id is the account's alias, which the read checks
  importing: { identity: () => ({}), id: { form: "the account's alias", example: "demo" } },
  secrets: {
    judgedBy: { fetching: schemas.FetchingUpdate },
    writeOnly: CREDENTIALS.map(({ path }) => ["fetching", ...path]),
    inputs: ["fetchingSecrets"],
    normalize(i) {
      const { fetching, secrets } = splitCredentials(i.fetching);
      if (!secrets) return i;
      return {
        ...i,
        fetching,
        fetchingSecrets: { ...(i.fetchingSecrets as object | undefined), ...secrets },
      };
    },
  },
  viaAccountWriter: true,
  docs: {
    summary:
      "The account singleton's minify and remote-fetching options. Only the groups given are managed. Secrets are write-only at the service, so their drift cannot be seen.",
    properties:
      "`minify.enabled`; `fetching` (`enabled`, `type` `http`/`s3`, `http.url`, `http.auth` {`enabled`, `username`, `password`}, `s3` {`accessKeyId`, `secretAccessKey`, `bucket`, `endpoint`, `prefix`, `forcePathStyle`}); `resetOnDelete`; output `cdnUrl`",
    delete: "leaves the account as it is, unless `resetOnDelete: true` (turns minify and fetching off)",
    drift: "every managed field except the password and S3 secret key, which the service never returns",
    example: {
      title: "Minify CSS and JavaScript, and fetch missing files from an origin",
      name: "settings",
      args: {
        minify: { enabled: true },
        fetching: { enabled: true, type: "http", http: { url: "https://origin.example.com/media" } },
      },
    },
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

  // read from the account object, once a run
  refreshReads: () => [ACCOUNT_READ],

  async read(ctx, olds, scope) {
    const live = await ctx.account.account();
    if (scope === "all") {
      // an import: what the account holds. Fetching with credentials (a password, an S3 secret
      // key) is left out: the service never shows them, so no program could declare it as it is
      const fetching = readableFetching(live.fetching) as
        | { enabled: boolean; type?: string; http?: { auth?: { enabled?: boolean } } }
        | undefined;
      const secret =
        fetching?.type === "s3" ? "S3 secret key" : fetching?.http?.auth?.enabled ? "password" : "";
      if (fetching?.enabled && secret) {
        ctx.warn(
          `AccountSettings: remote fetching is left unmanaged: its ${secret} is write-only, so the service cannot ` +
            "show it to be declared; to manage fetching, add it to the program with its secret",
        );
      }
      return {
        cdnUrl: live.cdnURL,
        minify: typeof live.minify?.enabled === "boolean" ? { enabled: live.minify.enabled } : undefined,
        ...(fetching?.enabled && !secret ? { fetching } : {}),
      };
    }
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
