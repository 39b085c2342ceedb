// The /v2 API's contract: 60 operations (the 57 the specification lists, and the simple upload,
// the search scroll and marking events seen, which the service's documentation shows:
// docs/api.md), each with its method, path, query, body, response, the rate-limit counters it
// consumes and where it carries credentials. Facts of the API only: the client's policy (which
// calls may be repeated, what a call proved applied returns, what an error names) is declared beside the client
// (provider/client/policy.ts), and the emulator's behaviour in its handlers. Both are keyed by
// operation name, so the compiler reports a new operation that one of them lacks.
import { z } from "zod";
import * as s from "./schemas";

export type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * What a response body is: a schema for JSON, "empty" for a 200 with no body, "text" for the
 * spec's "S" (declared only as a string), "binary" for file content.
 */
export type ResponseKind = z.ZodType | "empty" | "text" | "binary";

/**
 * Where an operation's input or answer carries a credential, as paths: `body.key`,
 * `body[].auth.password` (every element of an array), `response.token`. The client hides their
 * values from every error and log line, the emulator from its state and request log; a `url`
 * marked with a `userinfo:` prefix carries credentials in its `user:password@` part.
 */
export type SecretPath = string;

export interface OperationSpec {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: ResponseKind;
  /** Rate-limit counters (docs/api.md#rate-limits) the call consumes besides `rest:global`. */
  readonly counters?: (input: { query?: unknown; body?: unknown }) => string[];
  /** Where the input or the answer carries credentials (see SecretPath). */
  readonly secrets?: readonly SecretPath[];
  /** The body is `RawBody`: its bytes are sent as they are, with its content type. */
  readonly rawBody?: true;
  /** false for `POST /v2/token`: the only call without a bearer token. */
  readonly auth?: false;
}

const Filename = z.strictObject({ filename: s.FilePath });
const Dirname = z.strictObject({ dirname: s.FilePath });
const FromTo = z.strictObject({ from: s.FilePath, to: s.FilePath });
const JobId = z.strictObject({ id: s.Token1024 });
const DAY_MS = 86_400_000;
/** Statistics ranges: `to` may not come before `from`. */
const rangeInOrder = (q: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (q.from && q.to && s.statsTime(q.to) < s.statsTime(q.from)) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  }
};
const Range = z
  .strictObject({ from: s.StatsTime.optional(), to: s.StatsTime.optional() })
  .superRefine(rangeInOrder);

const counter =
  (...names: string[]) =>
  () =>
    names;

function op<const T extends OperationSpec>(spec: T): T {
  return spec;
}

// Jobs: POST starts one and answers its id, GET ?id= reports progress (docs/api.md).
const jobPoll = (path: string) => op({ method: "GET", path, query: JobId, response: s.JobStatus });
// Bodies "not shown" in the spec: accepted as any JSON object; the emulator answers 501.
const AnyObject = z.looseObject({});

export const operations = {
  // authentication
  token: op({
    method: "POST",
    path: "/v2/token",
    body: s.TokenRequest,
    response: s.TokenResponse,
    auth: false,
    secrets: ["body.clientSecret", "response.token"],
  }),

  // account
  getAccount: op({
    method: "GET",
    path: "/v2/account",
    response: s.Account,
    // the remote-fetching origin's credentials, as the account holds them; the write-only ones
    // too, which a service may show masked or in clear (docs/api.md#account)
    secrets: [
      "userinfo:response.fetching.http.url",
      "response.fetching.http.auth.password",
      "response.fetching.s3.accessKeyId",
      "response.fetching.s3.secretAccessKey",
    ],
  }),
  updateAccount: op({
    method: "POST",
    path: "/v2/account",
    body: s.AccountUpdate,
    response: "empty",
    secrets: [
      "body.fetching.http.auth.password",
      "userinfo:body.fetching.http.url",
      "body.fetching.s3.accessKeyId",
      "body.fetching.s3.secretAccessKey",
    ],
    counters: ({ body }) =>
      (body as { fetching?: unknown } | undefined)?.fetching !== undefined
        ? ["rest:post:account", "rest:post:account:fetching"]
        : ["rest:post:account"],
  }),
  getUser: op({
    method: "GET",
    path: "/v2/user",
    query: z.strictObject({ userId: z.string().min(1) }),
    response: s.User,
    secrets: ["response.s3Secret"],
  }),
  getLimits: op({ method: "GET", path: "/v2/account/limits", response: s.Limits }),
  getStorage: op({ method: "GET", path: "/v2/account/storage", response: s.Storage }),
  listUsers: op({
    method: "GET",
    path: "/v2/account/users",
    response: z.array(s.AccountUser),
  }),
  getBillingPlan: op({ method: "GET", path: "/v2/billing/plan", response: s.BillingPlan }),
  addCustomDomain: op({
    method: "POST",
    path: "/v2/account/custom-domain",
    body: s.AliasAndDomain,
    response: "empty",
  }),
  removeCustomDomain: op({
    method: "DELETE",
    path: "/v2/account/custom-domain",
    query: s.AliasAndDomain,
    response: "empty",
  }),
  createSubAccount: op({
    method: "POST",
    path: "/v2/account/sub-account",
    body: s.SubAccountRequest,
    // [unknown] the answer (the emulator: `{alias}`; an empty 200 is as plausible): nothing reads it
    response: "text",
    counters: counter("rest:post:account:new"),
  }),
  deleteSubAccount: op({
    method: "DELETE",
    path: "/v2/account/sub-account",
    query: s.SubAccountRequest,
    response: z.unknown(),
  }),
  searchEvents: op({
    method: "POST",
    path: "/v2/account/events/search",
    body: s.EventsSearch,
    response: z.array(s.EventRecord),
  }),
  markEventsSeen: op({
    method: "POST",
    path: "/v2/account/events/seen",
    body: s.EventIds,
    response: "text",
  }),

  // files
  download: op({
    method: "GET",
    path: "/v2/files/download",
    query: Filename,
    response: "binary",
  }),
  getMeta: op({
    method: "GET",
    path: "/v2/files/meta",
    query: Filename,
    response: s.AllMeta,
  }),
  setMeta: op({
    method: "POST",
    path: "/v2/files/meta",
    query: Filename,
    body: s.MetaUpdate,
    response: "text",
  }),
  getFolderOptions: op({
    method: "GET",
    path: "/v2/files/options",
    query: z.strictObject({ filename: s.FilePath, withInherited: s.QueryBool.optional() }),
    response: s.FolderOptions.loose(),
  }),
  setFolderOptions: op({
    method: "POST",
    path: "/v2/files/options",
    query: Filename,
    body: s.FolderOptions,
    response: "text",
  }),
  getPoi: op({
    method: "GET",
    path: "/v2/files/poi",
    query: Filename,
    response: s.PoiMap,
  }),
  setPoi: op({
    method: "POST",
    path: "/v2/files/poi",
    query: Filename,
    body: s.PoiSet,
    response: "text",
  }),
  deletePoi: op({
    method: "DELETE",
    path: "/v2/files/poi",
    query: Filename,
    body: s.PoiDelete,
    response: "text",
  }),
  /** The simple upload: the whole file in one request (tus is for large or resumable ones). */
  upload: op({
    method: "POST",
    path: "/v2/files/upload",
    query: Filename,
    body: s.RawBody,
    rawBody: true,
    response: "text",
    counters: counter("rest:post:files:upload"),
  }),
  readdir: op({
    method: "GET",
    path: "/v2/files/readdir",
    query: z.strictObject({ dirname: s.FilePath, continuation: s.Token1024.optional() }),
    response: s.ReaddirPage,
  }),
  startRemoveBackground: op({
    method: "POST",
    path: "/v2/files/removeBackground",
    body: AnyObject,
    response: s.JobCreated,
  }),
  getRemoveBackgroundJob: jobPoll("/v2/files/removeBackground"),
  stat: op({
    method: "GET",
    path: "/v2/files/stat",
    query: Filename,
    response: s.Stat,
  }),
  startZip: op({
    method: "POST",
    path: "/v2/files/zip",
    body: s.ZipRequest,
    response: s.JobCreated,
    counters: counter("zips2:create"),
  }),
  getZipJob: jobPoll("/v2/files/zip"),
  startModel2Glb: op({
    method: "POST",
    path: "/v2/files/3d/model2GLB",
    body: AnyObject,
    response: s.JobCreated,
  }),
  getModel2GlbJob: jobPoll("/v2/files/3d/model2GLB"),
  startBatchDelete: op({
    method: "POST",
    path: "/v2/files/batch/delete",
    body: s.BatchDeleteRequest,
    response: s.JobCreated,
    counters: counter("rest:post:files:batch:delete"),
  }),
  getBatchDeleteJob: jobPoll("/v2/files/batch/delete"),
  getApproval: op({
    method: "GET",
    path: "/v2/files/meta/approval",
    query: Filename,
    response: s.Approval,
  }),
  setApproval: op({
    method: "POST",
    path: "/v2/files/meta/approval",
    query: Filename,
    body: s.ApprovalUpdate,
    response: "text",
  }),
  getDescription: op({
    method: "GET",
    path: "/v2/files/meta/description",
    query: Filename,
    response: z.looseObject({ description: z.string() }),
  }),
  setDescription: op({
    method: "POST",
    path: "/v2/files/meta/description",
    query: Filename,
    body: z.strictObject({ description: s.Description }),
    response: "text",
  }),
  getProduct: op({
    method: "GET",
    path: "/v2/files/meta/product",
    query: Filename,
    response: z.looseObject({}),
  }),
  setProduct: op({
    method: "POST",
    path: "/v2/files/meta/product",
    query: Filename,
    body: s.Product,
    response: "text",
  }),
  getTags: op({
    method: "GET",
    path: "/v2/files/meta/tags",
    query: Filename,
    response: z.looseObject({ tags: z.array(z.string()) }),
  }),
  addTags: op({
    method: "POST",
    path: "/v2/files/meta/tags",
    query: Filename,
    body: z.strictObject({ tags: s.Tags.min(1) }),
    response: "text",
  }),
  removeTags: op({
    method: "DELETE",
    path: "/v2/files/meta/tags",
    query: Filename,
    body: z.strictObject({ tags: s.Tags.min(1) }),
    response: "text",
  }),
  getTitle: op({
    method: "GET",
    path: "/v2/files/meta/title",
    query: Filename,
    response: z.looseObject({ title: z.string() }),
  }),
  setTitle: op({
    method: "POST",
    path: "/v2/files/meta/title",
    query: Filename,
    body: z.strictObject({ title: s.Title }),
    response: "text",
  }),
  getTusLocations: op({
    method: "GET",
    path: "/v2/files/tus/locations",
    response: "text",
  }),
  getTusUrl: op({
    method: "GET",
    path: "/v2/files/tus/url",
    query: z.strictObject({
      location: z.string().min(1).max(256, { message: "must be at most 256 characters" }),
      expiresIn: s.queryInt(1, 604800).optional(),
    }),
    response: "text",
  }),

  // statistics
  getHttpStats: op({
    method: "GET",
    path: "/v2/stats/http",
    query: Range,
    response: s.HttpStats,
    counters: counter("rest:get:stats:http"),
  }),
  getStorageStats: op({
    method: "GET",
    path: "/v2/stats/storage",
    query: Range,
    response: s.StorageStats,
    counters: counter("rest:get:stats:storage"),
  }),
  getTrafficStats: op({
    method: "GET",
    path: "/v2/stats/http/agg/traffic",
    query: Range,
    response: "text",
    counters: counter("rest:get:stats:http"),
  }),
  getSpinViews: op({
    method: "GET",
    path: "/v2/stats/spins/views",
    query: z
      .strictObject({
        from: s.StatsTime.optional(),
        to: s.StatsTime.optional(),
        alias: z.string().optional(),
      })
      .superRefine((q, ctx) => {
        rangeInOrder(q, ctx);
        // the rule holds whichever bound is given: a missing `to` is now, a missing `from` a day before `to`
        const to = q.to ? s.statsTime(q.to) : Date.now();
        const from = q.from ? s.statsTime(q.from) : to - DAY_MS;
        if (to - from > 5 * DAY_MS) {
          ctx.addIssue({
            code: "custom",
            path: [q.to ? "to" : "from"],
            message: "date range must be at most 5 days",
          });
        }
      }),
    response: s.SpinViews,
  }),

  // file operations
  copy: op({
    method: "POST",
    path: "/v2/files/copy",
    query: FromTo,
    response: "text",
  }),
  deleteFile: op({
    method: "POST",
    path: "/v2/files/delete",
    query: Filename,
    response: "text",
    counters: counter("rest:post:files:delete"),
  }),
  fetch: op({
    method: "POST",
    path: "/v2/files/fetch",
    body: s.FetchRequest,
    response: s.FetchResult,
    // the documented answer names rest:post:files:fetch; each fetched file also counts fetch:file
    counters: counter("rest:post:files:fetch", "fetch:file"),
    secrets: ["body[].auth.password", "userinfo:body[].url"],
  }),
  createJwt: op({
    method: "POST",
    path: "/v2/files/jwt",
    body: s.JwtRequest,
    response: s.JwtResponse,
    // the signed URL grants access to the protected file as the key does
    secrets: ["body.key", "response.url"],
  }),
  mkdir: op({
    method: "POST",
    path: "/v2/files/mkdir",
    query: Dirname,
    response: "text",
  }),
  rename: op({
    method: "POST",
    path: "/v2/files/rename",
    query: FromTo,
    response: "text",
  }),
  search: op({
    method: "POST",
    path: "/v2/files/search",
    body: s.SearchRequest,
    response: s.SearchResult,
    counters: counter("rest:post:files:search"),
  }),
  searchScroll: op({
    method: "POST",
    path: "/v2/files/search/scroll",
    body: s.SearchScroll,
    response: s.SearchResult,
    counters: counter("rest:post:files:search:scroll"),
  }),
  spin2marketplaceA360: op({
    method: "POST",
    path: "/v2/files/spin2marketplaceA360",
    body: z.looseObject({}),
    response: z.looseObject({}),
  }),
  spin2marketplaceB360: op({
    method: "POST",
    path: "/v2/files/spin2marketplaceB360",
    body: z.looseObject({}),
    response: z.looseObject({}),
  }),
} as const satisfies Record<string, OperationSpec>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type HasKey<T, K extends string> = K extends keyof T ? (T[K] extends z.ZodType ? true : false) : false;

/** What a call of operation N takes: `query` and/or `body` where the table declares them. */
export type OperationInput<N extends OperationName> = (HasKey<Operations[N], "query"> extends true
  ? { query: InputOf<Operations[N] extends { query: infer Q } ? Q : never> }
  : { query?: undefined }) &
  (HasKey<Operations[N], "body"> extends true
    ? { body: InputOf<Operations[N] extends { body: infer B } ? B : never> }
    : { body?: undefined });

/** What a call of operation N returns. */
export type OperationOutput<N extends OperationName> = Operations[N]["response"] extends z.ZodType
  ? z.output<Operations[N]["response"]>
  : Operations[N]["response"] extends "empty"
    ? undefined
    : Operations[N]["response"] extends "binary"
      ? Uint8Array
      : string;

/** Every counter docs/api.md#rate-limits reports, with its hourly limit. */
export const counterLimits: Readonly<Record<string, number>> = {
  "s3:global": 7000,
  "s3:PUT": 2000,
  "s3:GET": 3000,
  "s3:DELETE": 3000,
  "rest:global": 7000,
  "rest:post:files:search": 1000,
  "rest:post:files:search:scroll": 2000,
  "rest:post:files:video2spin": 200,
  "rest:post:files:spin2video": 200,
  "rest:post:files:upload": 2000,
  "rest:post:files:delete": 3000,
  "rest:post:files:batch:delete": 25,
  "rest:post:account": 50,
  "rest:post:account:fetching": 50,
  "rest:get:stats:http": 100,
  "rest:get:stats:storage": 100,
  "rest:post:account:new": 5,
  "rest:post:user:accounts": 20,
  "rest:get:rest:credentials": 50,
  "rest:post:video:toSpin": 400,
  "rest:post:upload:toService": 2000,
  "ftp:global": 10000,
  "ftp:STOR": 2000,
  "ftp:RETR": 3000,
  "ftp:DELE": 3000,
  "rest:post:files:fetch": 2000,
  "fetch:file": 1000,
  "fetch:largefile": 10,
  "fetch:largetimeout": 10,
  "zips2:create": 536870912000,
};

/** The global REST counter every token-authenticated call consumes. */
export const GLOBAL_COUNTER = "rest:global";
