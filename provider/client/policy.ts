// The client's policy per operation of the contract (mediahost-contract): whether an attempt
// that may have reached the service without its answer reaching us is repeated, what a call a
// repeat proved applied returns, and what an error names. Keyed by operation, so the compiler
// reports an operation of the table that has no policy (and a policy for no operation).
import type { OperationName, schemas } from "mediahost-contract";
import type { z } from "zod";

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
 * - `repeatable`: a job whose effect is the same when done twice (a batch delete: a second job
 *   finds less or nothing), so it is repeated after a lost answer or a gateway's 5xx; `effect`
 *   says why, for docs/api.md.
 * - `never`: a repeat adds something a second time (a second ZIP, spin or export, a fetch again,
 *   a skipped scroll page), so the call fails with "may have been applied: check <check>" instead.
 * Every call that starts a job or fetches is `repeatable` or `never` (test/unit/operation-table.test.ts).
 */
export type RetryRule =
  | { kind: "idempotent" }
  | { kind: "conflictMeansDone"; conflict: "exists" | "missing"; done?: (message: string) => boolean }
  | { kind: "checkFirst"; applied: (read: ApplyCheck, input: OperationCall) => Promise<boolean> }
  | { kind: "repeatable"; effect: string }
  | { kind: "never"; check: (input: OperationCall) => string };

/** A call's input as the policy's functions see it. */
export interface OperationCall {
  query?: Record<string, unknown>;
  body?: unknown;
}

/** What a `checkFirst` rule may ask the service: whether a path exists, a file's points. */
export interface ApplyCheck {
  exists(path: string): Promise<boolean>;
  points(path: string): Promise<z.infer<typeof schemas.PoiMap>>;
}

export interface OperationPolicy {
  readonly retry: RetryRule;
  /** What a call that a retry proved already applied returns (default: nothing). */
  readonly doneResult?: (input: OperationCall) => unknown;
  /** Names the path, alias or job concerned, for error messages. */
  readonly subject?: (input: OperationCall) => string | undefined;
}

const idempotent = { kind: "idempotent" } as const;
const never = (check: (input: OperationCall) => string) => ({ kind: "never", check }) as const;
const existsMeansDone = { kind: "conflictMeansDone", conflict: "exists" } as const;
const missingMeansDone = { kind: "conflictMeansDone", conflict: "missing" } as const;
/** A job may have started: the job's own effects tell. */
const jobCheck = (what: string) =>
  never(() => `whether ${what} started (its effects), before starting it again`);

const byFilename = ({ query }: OperationCall) => query?.filename as string | undefined;
const byDirname = ({ query }: OperationCall) => query?.dirname as string | undefined;
const byFromTo = ({ query }: OperationCall) =>
  query ? `${String(query.from)} -> ${String(query.to)}` : undefined;
const bodyField =
  (field: string) =>
  ({ body }: OperationCall) =>
    (body as Record<string, unknown> | undefined)?.[field] as string | undefined;
const queryField =
  (field: string) =>
  ({ query }: OperationCall) =>
    query?.[field] as string | undefined;
/** Jobs: polling reads. */
const jobPoll: OperationPolicy = {
  retry: idempotent,
  subject: ({ query }) => (query?.id ? `job ${String(query.id)}` : undefined),
};

export const policies = {
  token: {
    // a repeat mints another token: harmless
    retry: idempotent,
  },
  getAccount: { retry: idempotent },
  updateAccount: {
    // writing the same settings twice leaves the same account: safe to retry
    retry: idempotent,
  },
  getUser: {
    retry: idempotent,
    subject: queryField("userId"),
  },
  getLimits: { retry: idempotent },
  getStorage: { retry: idempotent },
  listUsers: { retry: idempotent },
  getBillingPlan: { retry: idempotent },
  addCustomDomain: {
    retry: existsMeansDone,
    subject: ({ body }) => {
      const b = body as { alias?: string; domain?: string } | undefined;
      return b ? `alias ${b.alias} domain ${b.domain}` : undefined;
    },
  },
  removeCustomDomain: {
    retry: missingMeansDone,
    subject: ({ query }) =>
      query ? `alias ${String(query.alias)} domain ${String(query.domain)}` : undefined,
  },
  createSubAccount: {
    // only "this account's sub-account exists" proves the earlier attempt: another account's
    // alias is a 409 too (docs/api.md#account)
    retry: { ...existsMeansDone, done: (message) => /sub-account already exists/i.test(message) },
    doneResult: ({ body }) => ({ alias: (body as { alias: string }).alias }),
    subject: bodyField("alias"),
  },
  deleteSubAccount: {
    retry: missingMeansDone,
    subject: queryField("alias"),
  },
  searchEvents: { retry: idempotent },
  markEventsSeen: { retry: idempotent },
  download: { retry: idempotent, subject: byFilename },
  getMeta: { retry: idempotent, subject: byFilename },
  setMeta: { retry: idempotent, subject: byFilename },
  getFolderOptions: { retry: idempotent, subject: byFilename },
  setFolderOptions: { retry: idempotent, subject: byFilename },
  getPoi: { retry: idempotent, subject: byFilename },
  setPoi: {
    // The documented GET keys points by name, so a name holds one point; whether a POST of a name
    // that exists replaces it or is refused is not documented. Before repeating, look: the point
    // already there with these values means the lost attempt took.
    retry: {
      kind: "checkFirst",
      applied: async (service, { query, body }) => {
        const wanted = body as z.infer<typeof schemas.PoiSet>;
        const found = (await service.points(String(query?.filename)))[wanted.name];
        return !!found && (["x", "y", "width", "height"] as const).every((k) => found[k] === wanted[k]);
      },
    },
    subject: byFilename,
  },
  deletePoi: {
    retry: missingMeansDone,
    subject: byFilename,
  },
  upload: {
    // the same bytes written again leave the same file
    retry: idempotent,
    subject: byFilename,
  },
  readdir: { retry: idempotent, subject: byDirname },
  startRemoveBackground: {
    retry: jobCheck("a background removal job"),
  },
  getRemoveBackgroundJob: jobPoll,
  stat: { retry: idempotent, subject: byFilename },
  startZip: {
    retry: jobCheck("a ZIP job"),
  },
  getZipJob: jobPoll,
  startModel2Glb: {
    retry: jobCheck("a GLB conversion job"),
  },
  getModel2GlbJob: jobPoll,
  startBatchDelete: {
    // a second job costs one of the counter's 25 an hour; a delete that never ends costs a run
    retry: { kind: "repeatable", effect: "a second job finds less to delete, or nothing" },
  },
  getBatchDeleteJob: jobPoll,
  getApproval: { retry: idempotent, subject: byFilename },
  setApproval: { retry: idempotent, subject: byFilename },
  getDescription: { retry: idempotent, subject: byFilename },
  setDescription: { retry: idempotent, subject: byFilename },
  getProduct: { retry: idempotent, subject: byFilename },
  setProduct: { retry: idempotent, subject: byFilename },
  getTags: { retry: idempotent, subject: byFilename },
  addTags: { retry: idempotent, subject: byFilename },
  removeTags: { retry: idempotent, subject: byFilename },
  getTitle: { retry: idempotent, subject: byFilename },
  setTitle: { retry: idempotent, subject: byFilename },
  getTusLocations: { retry: idempotent },
  getTusUrl: {
    retry: idempotent,
    subject: queryField("location"),
  },
  getHttpStats: { retry: idempotent },
  getStorageStats: { retry: idempotent },
  getTrafficStats: { retry: idempotent },
  getSpinViews: { retry: idempotent },
  copy: {
    retry: existsMeansDone,
    subject: byFromTo,
  },
  deleteFile: {
    retry: missingMeansDone,
    subject: byFilename,
  },
  fetch: {
    // a repeat fetches again, against the fetch counters
    retry: never(({ body }) => {
      const files = ((body as { filename?: string }[] | undefined) ?? []).map((i) => i.filename);
      return `${files.slice(0, 3).join(", ")}${files.length > 3 ? ", ..." : ""} with stat (the service may have fetched them)`;
    }),
  },
  createJwt: {
    retry: idempotent,
    subject: bodyField("filename"),
  },
  mkdir: {
    retry: existsMeansDone,
    subject: byDirname,
  },
  rename: {
    // a 404 on a repeat may mean the target's parent is missing: ask whether the move took instead
    retry: {
      kind: "checkFirst",
      applied: async (service, { query }) =>
        !(await service.exists(String(query?.from))) && (await service.exists(String(query?.to))),
    },
    subject: byFromTo,
  },
  search: {
    // a new search reads only: it may be repeated
    retry: idempotent,
  },
  searchScroll: {
    // the service moves its cursor on each call: a repeat after a lost answer would skip a page
    retry: never(() => "nothing: start the search again (a repeated scroll call may skip a page)"),
  },
  spin2marketplaceA360: {
    retry: never(() => "the marketplace export (it may have run)"),
  },
  spin2marketplaceB360: {
    retry: never(() => "the marketplace export (it may have run)"),
  },
} satisfies Record<OperationName, OperationPolicy>;
