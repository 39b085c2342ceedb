// What the provider reads of each answer, per operation: the fields it uses and nothing else.
// The contract (mediahost-contract) holds the documented shapes, which the emulator answers; the
// live service answers looser ones (docs/api.md, [live]): computed meta `null`, fields the
// documentation requires left out, numbers as numeric strings, a last page's `continuation:
// null`. So the client judges an answer by these schemas alone:
// - a field read here that is missing or of the wrong type fails the call, naming the field;
// - a field read here that the documentation marks optional reads as absent when it is missing
//   or `null`, or as its documented default (`cdn: false`);
// - a field not read here may be missing, `null` or of any type: it passes through untouched.
// What a data function gives a program is read too: it is declared here with the rest.
import type { OperationName } from "mediahost-contract";
import { z } from "zod";

/** `null` reads as absent: where the documentation leaves a field out, the live service may send null. */
const absentIfNull = (v: unknown) => (v === null ? undefined : v);

/** A number, also as a numeric string (`"size": "1024"`). */
const num = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
  z.number(),
);

/** An optional field: absent when missing or `null`. */
function opt<T extends z.ZodType>(schema: T) {
  return z.preprocess(absentIfNull, schema.optional());
}

/** An optional field with the default the documentation gives it when it is missing or `null`. */
function orDefault<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  return z.preprocess((v) => (v === null || v === undefined ? fallback : v), schema);
}

/**
 * A field the provider only hands on to a program (a data function's result), never acts on: it
 * reads as absent when it is missing, `null` or of another type, so it can fail no call.
 */
function shown<T extends z.ZodType>(schema: T) {
  return z.preprocess(absentIfNull, schema.optional()).catch(undefined);
}

/** An object whose fields not named here pass through, whatever they hold. */
const fields = z.looseObject;

const AliasEntry = fields({
  prefix: opt(z.string()),
  // docs/api.md#account: `cdn?`, false when left out
  cdn: orDefault(z.boolean(), false),
  defaultProfile: opt(z.string()),
  customDomain: opt(z.string()),
});

/** The account object: what AccountSettings, Alias and CustomDomain read, and the alias that names it. */
const Account = fields({
  alias: z.string(),
  cdnURL: opt(z.string()),
  // what `getAccount` hands on
  dateCreated: shown(z.string()),
  isPartner: shown(z.boolean()),
  fileSizeLimit: shown(num),
  customRedirectUrl: shown(z.string()),
  cdnTempURL: shown(z.string()),
  status: shown(fields({ status: shown(z.string()) })),
  fetching: fields({
    enabled: z.boolean(),
    maxFilesize: shown(num),
    type: opt(z.string()),
    http: opt(
      fields({
        url: opt(z.string()),
        auth: opt(
          fields({
            enabled: orDefault(z.boolean(), false),
            username: opt(z.string()),
            password: opt(z.string()),
          }),
        ),
      }),
    ),
    s3: opt(
      fields({
        // its secret key is write-only: never read (docs/api.md#account)
        accessKeyId: opt(z.string()),
        bucket: opt(z.string()),
        endpoint: opt(z.string()),
        prefix: opt(z.string()),
        forcePathStyle: opt(z.boolean()),
      }),
    ),
  }),
  minify: fields({ enabled: z.boolean() }),
  aliases: z.record(z.string(), AliasEntry),
});

/** A folder entry: its name and kind, and for a file the size, time and type a refresh compares. */
const DirEntry = fields({
  filename: z.string(),
  isDirectory: z.boolean(),
  size: orDefault(num, 0),
  // [live] left out of some entries (the system folders'): a file without one is compared by content
  mtime: opt(z.string()),
  contentType: opt(z.string()),
  // [live] computed media facts, `null` on files without them: `listFolder` hands them on
  meta: shown(
    fields({ width: shown(num), height: shown(num), duration: shown(num), format: shown(z.string()) }),
  ),
});

const Stat = fields({
  isDirectory: z.boolean(),
  size: orDefault(num, 0),
  mtime: opt(z.string()),
  contentType: opt(z.string()),
});

/** [live] a storage answer is sure to carry `plan`, `used` and `files`. */
const Storage = fields({
  plan: num,
  burstable: shown(num),
  extra: shown(num),
  used: num,
  files: num,
  quotaExceededDate: shown(z.string()),
});

/** A search hit's `_source`: [live] only `filename` is sure; the rest is the program's to read. */
const FoundFile = fields({
  filename: z.string(),
  dirname: shown(z.string()),
  basename: shown(z.string()),
  extension: shown(z.string()),
  ctime: shown(z.string()),
  mtime: shown(z.string()),
  size: shown(num),
  contentType: shown(z.string()),
  meta: shown(
    fields({ width: shown(num), height: shown(num), duration: shown(num), format: shown(z.string()) }),
  ),
});

const SearchPage = fields({
  hits: z.array(fields({ _source: FoundFile })),
  total: num,
  scrollId: opt(z.string()),
});

/** A job: its id when started; when polled, how far it is and whether it failed. */
const JobCreated = fields({ id: z.string() });
const JobStatus = fields({
  // [live] a poll may come without `progress`: the job is not over yet
  progress: orDefault(num, 0),
  status: opt(z.string()),
  error: opt(z.string()),
});

const Approval = fields({
  approved: orDefault(z.boolean(), false),
  comment: opt(z.string()),
  datetime: opt(z.string()),
});

const Meta = fields({
  title: opt(z.string()),
  description: opt(z.string()),
  tags: opt(z.array(z.string())),
  product: opt(z.record(z.string(), z.unknown())),
  approval: opt(Approval),
});

const Point = fields({ x: num, y: num, width: num, height: num });

/** Nothing of the answer is read (the call's success is all that counts). */
const nothing = z.unknown();

/**
 * Every operation whose answer is JSON, with what the provider reads of it. The compiler reports a
 * JSON operation of the contract missing here (`ReadOperation`).
 */
export const reads = {
  token: fields({ token: z.string(), expiresIn: num }),
  getAccount: Account,
  getUser: fields({
    email: shown(z.string()),
    firstName: shown(z.string()),
    lastName: shown(z.string()),
    dateCreated: shown(z.string()),
    s3Secret: shown(z.string()),
  }),
  getLimits: z.record(z.string(), fields({ count: num, limit: num, remaining: num, reset: num })),
  getStorage: Storage,
  listUsers: z.array(fields({ userId: z.string(), role: z.string() })),
  // [live] a plan is sure to carry only its `id`
  getBillingPlan: fields({
    id: z.string(),
    name: shown(z.string()),
    description: shown(z.string()),
    period: shown(z.string()),
    dateActive: shown(z.string()),
    price: shown(fields({ month: shown(num), quarter: shown(num), year: shown(num) })),
    storage: shown(num),
    burstableStorage: shown(num),
    // [live] absent: unlimited
    dataTransferLimit: shown(num),
  }),
  deleteSubAccount: nothing,
  searchEvents: nothing,
  getMeta: Meta,
  getFolderOptions: fields({
    scanSpins: opt(z.boolean()),
    nameSpinsAfterFolder: opt(z.boolean()),
    allowListing: opt(z.boolean()),
  }),
  getPoi: z.record(z.string(), Point),
  readdir: fields({ contents: z.array(DirEntry), continuation: opt(z.string()) }),
  startRemoveBackground: JobCreated,
  getRemoveBackgroundJob: JobStatus,
  stat: Stat,
  startZip: JobCreated,
  getZipJob: JobStatus,
  startModel2Glb: JobCreated,
  getModel2GlbJob: JobStatus,
  startBatchDelete: JobCreated,
  getBatchDeleteJob: JobStatus,
  getApproval: Approval,
  getDescription: fields({ description: opt(z.string()) }),
  getProduct: nothing,
  getTags: fields({ tags: orDefault(z.array(z.string()), []) }),
  getTitle: fields({ title: opt(z.string()) }),
  getHttpStats: z.record(z.string(), fields({ total: fields({ count: num, size: num }) })),
  getStorageStats: z.record(z.string(), Storage),
  getSpinViews: nothing,
  fetch: z.array(
    fields({
      success: z.boolean(),
      attempts: orDefault(z.array(fields({ error: opt(fields({ message: opt(z.string()) })) })), []),
    }),
  ),
  createJwt: fields({ url: z.string() }),
  search: SearchPage,
  searchScroll: SearchPage,
  spin2marketplaceA360: nothing,
  spin2marketplaceB360: nothing,
} satisfies Record<ReadOperation, z.ZodType>;

/** The operations whose answer is JSON (the others answer nothing, text or bytes). */
export type ReadOperation = {
  [N in OperationName]: import("mediahost-contract").Operations[N]["response"] extends z.ZodType ? N : never;
}[OperationName];

type Reads = typeof reads;
/** What the provider reads of operation `N`'s answer. */
export type Read<N extends ReadOperation> = z.output<Reads[N]>;

/** The search hit's fields a program gets from `searchFiles`. */
export const SearchFound = FoundFile;
export const StorageRead = Storage;
/** A folder entry as `listFolder` gives it. */
export const FolderEntry = DirEntry;
export type FolderEntry = z.output<typeof DirEntry>;
export type JobStatus = z.output<typeof JobStatus>;
export type AccountRead = z.output<typeof Account>;

/**
 * Reads an answer of operation `name` by what the provider uses of it: the value, or the issues
 * (each `field: what came instead`).
 */
export function readAnswer(
  name: ReadOperation,
  json: unknown,
): { ok: true; value: unknown } | { ok: false; issues: string } {
  const parsed = (reads[name] as z.ZodType).safeParse(json);
  if (parsed.success) return { ok: true, value: withoutAbsent(parsed.data) };
  const issues = parsed.error.issues
    .map((i: z.core.$ZodIssue) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
  return { ok: false, issues };
}

/**
 * `value` without the keys that read as absent: a field `null` or of another type leaves its key
 * behind with nothing in it, which no answer of JSON holds (and a protobuf Struct refuses).
 */
function withoutAbsent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAbsent);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutAbsent(v);
  return out;
}
