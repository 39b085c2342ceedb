// The one table of /v2 operations (all 57 operations of the specification, docs/api.md). The typed client and
// the emulator's routes and validation are both driven by it: adding an operation is adding
// one entry here.
import { z } from "zod";
import * as s from "./schemas";

export type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * What a response body is: a schema for JSON, "empty" for a 200 with no body, "text" for the
 * spec's "S" (declared only as a string), "binary" for file content.
 */
export type ResponseKind = z.ZodType | "empty" | "text" | "binary";

/**
 * Whether, and how, an attempt that may have reached the service without its answer reaching us
 * is repeated (a lost connection, a 5xx, a timeout). Every operation says which (a test walks
 * the table):
 * - `idempotent`: a repeat is provably harmless (reads; writes of a whole value), so it is simply
 *   repeated.
 * - `conflictMeansDone`: repeated, and an answer on the repeat that the object now exists (or is
 *   gone) counts as the earlier attempt's success (`done` tells which answers; mkdir, deletes).
 * - `checkFirst`: before repeating, `applied` asks the service whether the earlier attempt took
 *   (rename: the source gone and the target there); if it did, the call is done.
 * - `never`: a repeat could do the work twice (start a second job, fetch again, skip a scroll
 *   page), so the call fails with "may have been applied: check <check>" instead.
 */
export type RetryRule =
  | { kind: "idempotent" }
  | { kind: "conflictMeansDone"; conflict: "exists" | "missing"; done?: (message: string) => boolean }
  | { kind: "checkFirst"; applied: (read: ApplyCheck, input: OperationCall) => Promise<boolean> }
  | { kind: "never"; check: (input: OperationCall) => string };

/** A call's input as the table's functions see it. */
export interface OperationCall {
  query?: Record<string, unknown>;
  body?: unknown;
}

/** What a `checkFirst` rule may ask the service: whether a path exists, a file's points. */
export interface ApplyCheck {
  exists(path: string): Promise<boolean>;
  points(path: string): Promise<z.infer<typeof s.PoiMap>>;
}

/**
 * Where an operation's input or answer carries a credential, as paths: `body.key`,
 * `body[].auth.password` (every element of an array), `response.token`. The client hides their
 * values from every error and log line; a `url` marked with a `userinfo:` prefix has the
 * credentials in its `user:password@` part hidden.
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
  readonly retry: RetryRule;
  /** Where the input or the answer carries credentials (see SecretPath). */
  readonly secrets?: readonly SecretPath[];
  /** The body is `RawBody`: its bytes are sent as they are, with its content type. */
  readonly rawBody?: true;
  /** false for `POST /v2/token`: the only call without a bearer token. */
  readonly auth?: false;
  /** What a call that a retry proved already applied returns (default: nothing). */
  readonly doneResult?: (input: { query?: Record<string, unknown>; body?: unknown }) => unknown;
  /** Names the path, alias or job concerned, for error messages. */
  readonly subject?: (input: { query?: Record<string, unknown>; body?: unknown }) => string | undefined;
}

const idempotent = { kind: "idempotent" } as const;
const never = (check: (input: OperationCall) => string) => ({ kind: "never", check }) as const;
const existsMeansDone = { kind: "conflictMeansDone", conflict: "exists" } as const;
const missingMeansDone = { kind: "conflictMeansDone", conflict: "missing" } as const;
/** A job may have started: the job's own effects tell. */
const jobCheck = (what: string) =>
  never(() => `whether ${what} started (its effects), before starting it again`);

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
const byFilename = ({ query }: { query?: Record<string, unknown> }) => query?.filename as string | undefined;
const byDirname = ({ query }: { query?: Record<string, unknown> }) => query?.dirname as string | undefined;
const byFromTo = ({ query }: { query?: Record<string, unknown> }) =>
  query ? `${String(query.from)} -> ${String(query.to)}` : undefined;
const byJob = ({ query }: { query?: Record<string, unknown> }) =>
  query?.id ? `job ${String(query.id)}` : undefined;
const bodyField =
  (field: string) =>
  ({ body }: { body?: unknown }) =>
    (body as Record<string, unknown> | undefined)?.[field] as string | undefined;
const queryField =
  (field: string) =>
  ({ query }: { query?: Record<string, unknown> }) =>
    query?.[field] as string | undefined;

function op<const T extends OperationSpec>(spec: T): T {
  return spec;
}

// Jobs: POST starts one and answers its id, GET ?id= reports progress (docs/api.md).
const jobPoll = (path: string) =>
  op({ method: "GET", path, query: JobId, response: s.JobStatus, retry: idempotent, subject: byJob });
// Bodies "not shown" in the spec: accepted as any JSON object; the emulator answers 501.
const AnyObject = z.looseObject({});

export const operations = {
  // authentication
  token: op({
    method: "POST",
    path: "/v2/token",
    body: s.TokenRequest,
    response: s.TokenResponse,
    // a repeat mints another token: harmless
    retry: idempotent,
    auth: false,
    secrets: ["body.clientSecret", "response.token"],
  }),

  // account
  getAccount: op({
    method: "GET",
    path: "/v2/account",
    response: s.Account,
    retry: idempotent,
    // the remote-fetching origin's credentials, as the account holds them
    secrets: ["userinfo:response.fetching.http.url", "response.fetching.s3.accessKeyId"],
  }),
  updateAccount: op({
    method: "POST",
    path: "/v2/account",
    body: s.AccountUpdate,
    response: "empty",
    // writing the same settings twice leaves the same account: safe to retry
    retry: idempotent,
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
    retry: idempotent,
    secrets: ["response.s3Secret"],
    subject: queryField("userId"),
  }),
  getLimits: op({ method: "GET", path: "/v2/account/limits", response: s.Limits, retry: idempotent }),
  getStorage: op({ method: "GET", path: "/v2/account/storage", response: s.Storage, retry: idempotent }),
  listUsers: op({
    method: "GET",
    path: "/v2/account/users",
    response: z.array(s.AccountUser),
    retry: idempotent,
  }),
  getBillingPlan: op({ method: "GET", path: "/v2/billing/plan", response: s.BillingPlan, retry: idempotent }),
  addCustomDomain: op({
    method: "POST",
    path: "/v2/account/custom-domain",
    body: s.AliasAndDomain,
    response: "empty",
    retry: existsMeansDone,
    subject: ({ body }) => {
      const b = body as { alias?: string; domain?: string } | undefined;
      return b ? `alias ${b.alias} domain ${b.domain}` : undefined;
    },
  }),
  removeCustomDomain: op({
    method: "DELETE",
    path: "/v2/account/custom-domain",
    query: s.AliasAndDomain,
    response: "empty",
    retry: missingMeansDone,
    subject: ({ query }) =>
      query ? `alias ${String(query.alias)} domain ${String(query.domain)}` : undefined,
  }),
  createSubAccount: op({
    method: "POST",
    path: "/v2/account/sub-account",
    body: s.SubAccountRequest,
    response: z.looseObject({ alias: z.string() }),
    counters: counter("rest:post:account:new"),
    // only "this account's sub-account exists" proves the earlier attempt: another account's
    // alias is a 409 too (docs/api.md#account)
    retry: { ...existsMeansDone, done: (message) => /sub-account already exists/i.test(message) },
    doneResult: ({ body }) => ({ alias: (body as { alias: string }).alias }),
    subject: bodyField("alias"),
  }),
  deleteSubAccount: op({
    method: "DELETE",
    path: "/v2/account/sub-account",
    query: s.SubAccountRequest,
    response: z.unknown(),
    retry: missingMeansDone,
    subject: queryField("alias"),
  }),
  searchEvents: op({
    method: "POST",
    path: "/v2/account/events/search",
    body: s.EventsSearch,
    response: z.array(s.EventRecord),
    retry: idempotent,
  }),
  markEventsSeen: op({
    method: "POST",
    path: "/v2/account/events/seen",
    body: s.EventIds,
    response: "text",
    retry: idempotent,
  }),

  // files
  download: op({
    method: "GET",
    path: "/v2/files/download",
    query: Filename,
    response: "binary",
    retry: idempotent,
    subject: byFilename,
  }),
  getMeta: op({
    method: "GET",
    path: "/v2/files/meta",
    query: Filename,
    response: s.AllMeta,
    retry: idempotent,
    subject: byFilename,
  }),
  setMeta: op({
    method: "POST",
    path: "/v2/files/meta",
    query: Filename,
    body: s.MetaUpdate,
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getFolderOptions: op({
    method: "GET",
    path: "/v2/files/options",
    query: z.strictObject({ filename: s.FilePath, withInherited: s.QueryBool.optional() }),
    response: s.FolderOptions.loose(),
    retry: idempotent,
    subject: byFilename,
  }),
  setFolderOptions: op({
    method: "POST",
    path: "/v2/files/options",
    query: Filename,
    body: s.FolderOptions,
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getPoi: op({
    method: "GET",
    path: "/v2/files/poi",
    query: Filename,
    response: s.PoiMap,
    retry: idempotent,
    subject: byFilename,
  }),
  setPoi: op({
    method: "POST",
    path: "/v2/files/poi",
    query: Filename,
    body: s.PoiSet,
    response: "text",
    // The documented GET keys points by name, so a name holds one point; whether a POST of a name
    // that exists replaces it or is refused is not documented. Before repeating, look: the point
    // already there with these values means the lost attempt took.
    retry: {
      kind: "checkFirst",
      applied: async (service, { query, body }) => {
        const wanted = body as z.infer<typeof s.PoiSet>;
        const found = (await service.points(String(query?.filename)))[wanted.name];
        return !!found && (["x", "y", "width", "height"] as const).every((k) => found[k] === wanted[k]);
      },
    },
    subject: byFilename,
  }),
  deletePoi: op({
    method: "DELETE",
    path: "/v2/files/poi",
    query: Filename,
    body: s.PoiDelete,
    response: "text",
    retry: missingMeansDone,
    subject: byFilename,
  }),
  /** The simple upload: the whole file in one request (tus is for large or resumable ones). */
  upload: op({
    method: "POST",
    path: "/v2/files/upload",
    query: Filename,
    body: s.RawBody,
    rawBody: true,
    response: "text",
    // the same bytes written again leave the same file
    retry: idempotent,
    counters: counter("rest:post:files:upload"),
    subject: byFilename,
  }),
  readdir: op({
    method: "GET",
    path: "/v2/files/readdir",
    query: z.strictObject({ dirname: s.FilePath, continuation: s.Token1024.optional() }),
    response: s.ReaddirPage,
    retry: idempotent,
    subject: byDirname,
  }),
  startRemoveBackground: op({
    method: "POST",
    path: "/v2/files/removeBackground",
    body: AnyObject,
    response: s.JobCreated,
    retry: jobCheck("a background removal job"),
  }),
  getRemoveBackgroundJob: jobPoll("/v2/files/removeBackground"),
  stat: op({
    method: "GET",
    path: "/v2/files/stat",
    query: Filename,
    response: s.Stat,
    retry: idempotent,
    subject: byFilename,
  }),
  startZip: op({
    method: "POST",
    path: "/v2/files/zip",
    body: s.ZipRequest,
    response: s.JobCreated,
    counters: counter("zips2:create"),
    retry: jobCheck("a ZIP job"),
  }),
  getZipJob: jobPoll("/v2/files/zip"),
  startModel2Glb: op({
    method: "POST",
    path: "/v2/files/3d/model2GLB",
    body: AnyObject,
    response: s.JobCreated,
    retry: jobCheck("a GLB conversion job"),
  }),
  getModel2GlbJob: jobPoll("/v2/files/3d/model2GLB"),
  startBatchDelete: op({
    method: "POST",
    path: "/v2/files/batch/delete",
    body: s.BatchDeleteRequest,
    response: s.JobCreated,
    counters: counter("rest:post:files:batch:delete"),
    // a repeat starts a second job against a counter of 25 an hour
    retry: never(({ body }) => {
      const paths = (body as { filenames?: string[] } | undefined)?.filenames ?? [];
      return `whether ${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ", ..." : ""} still exist (a batch delete job may have started)`;
    }),
  }),
  getBatchDeleteJob: jobPoll("/v2/files/batch/delete"),
  getApproval: op({
    method: "GET",
    path: "/v2/files/meta/approval",
    query: Filename,
    response: s.Approval,
    retry: idempotent,
    subject: byFilename,
  }),
  setApproval: op({
    method: "POST",
    path: "/v2/files/meta/approval",
    query: Filename,
    body: s.ApprovalUpdate,
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getDescription: op({
    method: "GET",
    path: "/v2/files/meta/description",
    query: Filename,
    response: z.looseObject({ description: z.string() }),
    retry: idempotent,
    subject: byFilename,
  }),
  setDescription: op({
    method: "POST",
    path: "/v2/files/meta/description",
    query: Filename,
    body: z.strictObject({ description: s.Description }),
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getProduct: op({
    method: "GET",
    path: "/v2/files/meta/product",
    query: Filename,
    response: z.looseObject({}),
    retry: idempotent,
    subject: byFilename,
  }),
  setProduct: op({
    method: "POST",
    path: "/v2/files/meta/product",
    query: Filename,
    body: s.Product,
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getTags: op({
    method: "GET",
    path: "/v2/files/meta/tags",
    query: Filename,
    response: z.looseObject({ tags: z.array(z.string()) }),
    retry: idempotent,
    subject: byFilename,
  }),
  addTags: op({
    method: "POST",
    path: "/v2/files/meta/tags",
    query: Filename,
    body: z.strictObject({ tags: s.Tags.min(1) }),
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  removeTags: op({
    method: "DELETE",
    path: "/v2/files/meta/tags",
    query: Filename,
    body: z.strictObject({ tags: s.Tags.min(1) }),
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getTitle: op({
    method: "GET",
    path: "/v2/files/meta/title",
    query: Filename,
    response: z.looseObject({ title: z.string() }),
    retry: idempotent,
    subject: byFilename,
  }),
  setTitle: op({
    method: "POST",
    path: "/v2/files/meta/title",
    query: Filename,
    body: z.strictObject({ title: s.Title }),
    response: "text",
    retry: idempotent,
    subject: byFilename,
  }),
  getTusLocations: op({
    method: "GET",
    path: "/v2/files/tus/locations",
    response: "text",
    retry: idempotent,
  }),
  getTusUrl: op({
    method: "GET",
    path: "/v2/files/tus/url",
    query: z.strictObject({
      location: z.string().min(1).max(256, { message: "must be at most 256 characters" }),
      expiresIn: s.queryInt(1, 604800).optional(),
    }),
    response: "text",
    retry: idempotent,
    subject: queryField("location"),
  }),

  // statistics
  getHttpStats: op({
    method: "GET",
    path: "/v2/stats/http",
    query: Range,
    response: s.HttpStats,
    counters: counter("rest:get:stats:http"),
    retry: idempotent,
  }),
  getStorageStats: op({
    method: "GET",
    path: "/v2/stats/storage",
    query: Range,
    response: s.StorageStats,
    counters: counter("rest:get:stats:storage"),
    retry: idempotent,
  }),
  getTrafficStats: op({
    method: "GET",
    path: "/v2/stats/http/agg/traffic",
    query: Range,
    response: "text",
    counters: counter("rest:get:stats:http"),
    retry: idempotent,
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
    retry: idempotent,
  }),

  // file operations
  copy: op({
    method: "POST",
    path: "/v2/files/copy",
    query: FromTo,
    response: "text",
    retry: existsMeansDone,
    subject: byFromTo,
  }),
  deleteFile: op({
    method: "POST",
    path: "/v2/files/delete",
    query: Filename,
    response: "text",
    counters: counter("rest:post:files:delete"),
    retry: missingMeansDone,
    subject: byFilename,
  }),
  fetch: op({
    method: "POST",
    path: "/v2/files/fetch",
    body: s.FetchRequest,
    response: s.FetchResult,
    // the documented answer names rest:post:files:fetch; each fetched file also counts fetch:file
    counters: counter("rest:post:files:fetch", "fetch:file"),
    // a repeat fetches again, against the fetch counters
    retry: never(({ body }) => {
      const files = ((body as { filename?: string }[] | undefined) ?? []).map((i) => i.filename);
      return `${files.slice(0, 3).join(", ")}${files.length > 3 ? ", ..." : ""} with stat (the service may have fetched them)`;
    }),
    secrets: ["body[].auth.password", "userinfo:body[].url"],
  }),
  createJwt: op({
    method: "POST",
    path: "/v2/files/jwt",
    body: s.JwtRequest,
    response: s.JwtResponse,
    retry: idempotent,
    // the signed URL grants access to the protected file as the key does
    secrets: ["body.key", "response.url"],
    subject: bodyField("filename"),
  }),
  mkdir: op({
    method: "POST",
    path: "/v2/files/mkdir",
    query: Dirname,
    response: "text",
    retry: existsMeansDone,
    subject: byDirname,
  }),
  rename: op({
    method: "POST",
    path: "/v2/files/rename",
    query: FromTo,
    response: "text",
    // a 404 on a repeat may mean the target's parent is missing: ask whether the move took instead
    retry: {
      kind: "checkFirst",
      applied: async (service, { query }) =>
        !(await service.exists(String(query?.from))) && (await service.exists(String(query?.to))),
    },
    subject: byFromTo,
  }),
  search: op({
    method: "POST",
    path: "/v2/files/search",
    body: s.SearchRequest,
    response: s.SearchResult,
    counters: counter("rest:post:files:search"),
    // a new search reads only: it may be repeated
    retry: idempotent,
  }),
  searchScroll: op({
    method: "POST",
    path: "/v2/files/search/scroll",
    body: s.SearchScroll,
    response: s.SearchResult,
    counters: counter("rest:post:files:search:scroll"),
    // the service moves its cursor on each call: a repeat after a lost answer would skip a page
    retry: never(() => "nothing: start the search again (a repeated scroll call may skip a page)"),
  }),
  spin2marketplaceA360: op({
    method: "POST",
    path: "/v2/files/spin2marketplaceA360",
    body: z.looseObject({}),
    response: z.looseObject({}),
    retry: never(() => "the marketplace export (it may have run)"),
  }),
  spin2marketplaceB360: op({
    method: "POST",
    path: "/v2/files/spin2marketplaceB360",
    body: z.looseObject({}),
    response: z.looseObject({}),
    retry: never(() => "the marketplace export (it may have run)"),
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
