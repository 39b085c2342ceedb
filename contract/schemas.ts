// Shapes of the /v2 API: request parts as the specification gives them first, then what the
// service's documentation shows where the specification says "not shown" (docs/api.md). One set of
// schemas serves the typed client (inputs are typed values) and the emulator (query values arrive
// as strings), so the query helpers below accept both.
import { z } from "zod";

// ---- scalars -------------------------------------------------------------------------------

/** docs/api.md#files-and-folders: a path of at most 1024 characters that begins with "/". */
export const FilePath = z
  .string()
  .max(1024, { message: "must be at most 1024 characters" })
  .regex(/^\//, { message: 'must begin with "/"' });

/** `continuation` and job `id`: at most 1024 characters (docs/api.md#bounds). */
export const Token1024 = z.string().min(1).max(1024, { message: "must be at most 1024 characters" });

/** A boolean query parameter: a boolean from the client, "true"/"false" on the wire. */
export const QueryBool = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/** An integer query parameter within bounds: a number from the client, digits on the wire. */
export function queryInt(min: number, max: number) {
  const bounded = z
    .number()
    .int({ message: "must be a whole number" })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` });
  const digits = z
    .string()
    .regex(/^-?\d+$/, { message: "must be a whole number" })
    .transform(Number)
    .pipe(bounded);
  return z.union([bounded, digits]);
}

/** A statistics bound: a date-time with or without a zone; without one it is UTC (docs/api.md#statistics). */
export const StatsTime = z.iso.datetime({
  offset: true,
  local: true,
  message: "must be an ISO 8601 date-time",
});

/** The time of a statistics bound in ms: a value without a zone is read as UTC. */
export function statsTime(value: string): number {
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
}

// ---- token (2.1, 5) ------------------------------------------------------------------------

export const TokenRequest = z.strictObject({
  clientId: z.string(),
  clientSecret: z.string(),
  expiresIn: z
    .number()
    .min(5, { message: "must be at least 5" })
    .max(604800, { message: "must be at most 604800" })
    .optional(),
});

export const TokenResponse = z.looseObject({
  token: z.string(),
  expiresIn: z.number(),
  /** [unknown] its form: an array, or one space-separated string as OAuth 2 writes it; nothing reads it. */
  scope: z.union([z.array(z.string()), z.string()]).optional(),
});

// ---- account (2.2, 4.2) --------------------------------------------------------------------

export const AliasEntry = z.looseObject({
  prefix: z.string().optional(),
  cdn: z.boolean().optional(),
  defaultProfile: z.string().optional(),
  customDomain: z.string().optional(),
});

export const Account = z.looseObject({
  dateCreated: z.string().optional(),
  alias: z.string(),
  isPartner: z.boolean().optional(),
  fileSizeLimit: z.number().optional(),
  customRedirectUrl: z.string().optional(),
  cdnURL: z.string().optional(),
  cdnTempURL: z.string().optional(),
  fetching: z
    .looseObject({
      enabled: z.boolean().optional(),
      type: z.string().optional(),
      http: z
        .looseObject({
          url: z.string().optional(),
          auth: z
            .looseObject({
              enabled: z.boolean().optional(),
              username: z.string().optional(),
              password: z.string().optional(),
            })
            .optional(),
        })
        .optional(),
      s3: z.looseObject({}).optional(),
      maxFilesize: z.number().optional(),
    })
    .optional(),
  minify: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  aliases: z.record(z.string(), AliasEntry).optional(),
  status: z.looseObject({ status: z.string().optional(), details: z.unknown().optional() }).optional(),
});
export type Account = z.infer<typeof Account>;

/**
 * The account's top-level fields the provider neither writes nor needs: docs/api.md has them
 * read-only [likely] (with `fetching.maxFilesize`), and a service may leave them out.
 */
export const ACCOUNT_READ_ONLY_FIELDS = [
  "dateCreated",
  "isPartner",
  "fileSizeLimit",
  "customRedirectUrl",
  "cdnURL",
  "cdnTempURL",
  "status",
] as const;

const required = (ctx: z.RefinementCtx, path: (string | number)[], rule: string) =>
  ctx.addIssue({ code: "custom", path, message: `required ${rule}` });

export const FetchingHttpAuth = z
  .strictObject({ enabled: z.boolean(), username: z.string().optional(), password: z.string().optional() })
  .superRefine((auth, ctx) => {
    if (!auth.enabled) return;
    if (auth.username === undefined) required(ctx, ["username"], "when auth.enabled is true");
    if (auth.password === undefined) required(ctx, ["password"], "when auth.enabled is true");
  });

export const FetchingHttp = z.strictObject({
  url: z.url({ message: "must be a URI" }),
  auth: FetchingHttpAuth.optional(),
});

export const FetchingS3 = z.strictObject({
  accessKeyId: z.string(),
  secretAccessKey: z.string(),
  bucket: z.string(),
  endpoint: z.string().optional(),
  prefix: z.string().optional(),
  forcePathStyle: z.boolean().optional(),
});

export const FetchingUpdate = z
  .strictObject({
    enabled: z.boolean(),
    type: z.enum(["http", "s3"]).optional(),
    http: FetchingHttp.optional(),
    s3: FetchingS3.optional(),
  })
  .superRefine((f, ctx) => {
    if (f.enabled && f.type === undefined) required(ctx, ["type"], "when enabled is true");
    if (f.type === "http" && f.http === undefined) required(ctx, ["http"], 'when type is "http"');
    if (f.type === "s3" && f.s3 === undefined) required(ctx, ["s3"], 'when type is "s3"');
  });

export const AliasUpdate = z.strictObject({
  cdn: z.boolean().optional(),
  prefix: z.string().optional(),
  defaultProfile: z.string().optional(),
});

/** docs/api.md#account: no properties other than those listed, at any level. */
export const AccountUpdate = z.strictObject({
  minify: z.strictObject({ enabled: z.boolean() }).optional(),
  fetching: FetchingUpdate.optional(),
  aliases: z.record(z.string(), AliasUpdate).optional(),
});
export type AccountUpdate = z.infer<typeof AccountUpdate>;

export const Storage = z.looseObject({
  plan: z.number(),
  burstable: z.number(),
  extra: z.number(),
  used: z.number(),
  files: z.number(),
  quotaExceededDate: z.string().nullable(),
});

export const AccountUser = z.looseObject({ userId: z.string(), role: z.string() });

export const User = z.looseObject({
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  dateCreated: z.string().optional(),
  s3Secret: z.string().optional(),
});

export const BillingPlan = z.looseObject({
  dateActive: z.string(),
  id: z.string(),
  period: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.looseObject({ month: z.number(), year: z.number(), quarter: z.number() }),
  storage: z.number(),
  burstableStorage: z.number(),
});

export const LimitCounter = z.looseObject({
  count: z.number(),
  limit: z.number(),
  remaining: z.number(),
  reset: z.number(),
});
export const Limits = z.record(z.string(), LimitCounter);

export const AliasAndDomain = z.strictObject({ alias: z.string().min(1), domain: z.string().min(1) });
export const SubAccountRequest = z.strictObject({ alias: z.string().min(1) });

/** Who made a request (docs/api.md#users-and-events). */
const Initiator = z.looseObject({ type: z.string(), remoteAddr: z.string(), date: z.string() });

/** An account event (docs/api.md#users-and-events). */
export const EventRecord = z.looseObject({
  _id: z.string(),
  _accountId: z.string(),
  _submitted: z.string(),
  _seen: z.boolean(),
  module: z.string(),
  type: z.string(),
  level: z.string(),
  filename: z.string().optional(),
  initiator: Initiator,
  notify: z.boolean(),
  fetching: z
    .looseObject({
      url: z.string(),
      statusCode: z.number().nullable(),
      maxFilesize: z.number(),
      // a string, as the documentation shows it
      contentLength: z.string(),
      error: z.string(),
    })
    .optional(),
});

/** `POST /v2/account/events/seen`: the ids of the events to mark seen. */
export const EventIds = z.array(z.string().min(1).max(64)).max(1000);

export const EventsSearch = z.strictObject({
  module: z.string().optional(),
  type: z.string().optional(),
  filename: z.string().optional(),
  level: z.enum(["error", "warn", "info"]).optional(),
});

// ---- files ---------------------------------------------------------------------------------

const NullableNumber = z.number().nullable();
export const MediaMeta = z.looseObject({
  width: NullableNumber.optional(),
  height: NullableNumber.optional(),
  duration: z.number().optional(),
});

export const DirEntry = z.looseObject({
  filename: z.string(),
  mtime: z.string(),
  contentType: z.string().optional(),
  size: z.number(),
  isDirectory: z.boolean(),
  meta: MediaMeta,
});
export type DirEntry = z.infer<typeof DirEntry>;

export const ReaddirPage = z.looseObject({
  contents: z.array(DirEntry),
  continuation: z.string().optional(),
});

export const Stat = z.looseObject({
  mtime: z.string(),
  ctime: z.string(),
  contentType: z.string().optional(),
  size: z.number(),
  isDirectory: z.boolean(),
  meta: MediaMeta.optional(),
});
export type Stat = z.infer<typeof Stat>;

/** docs/api.md: exactly three optional booleans, nothing else. */
export const FolderOptions = z.strictObject({
  scanSpins: z.boolean().optional(),
  nameSpinsAfterFolder: z.boolean().optional(),
  allowListing: z.boolean().optional(),
});
export type FolderOptions = z.infer<typeof FolderOptions>;

export const Tag = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(32, { message: "must be at most 32 characters" });
export const Tags = z.array(Tag).max(50, { message: "must have at most 50 tags" });
export const Title = z.string().max(256, { message: "must be at most 256 characters" });
export const Description = z.string().max(1024, { message: "must be at most 1024 characters" });
export const Product = z.strictObject({
  id: z.string().optional(),
  name: z.string().optional(),
  brand: z.string().optional(),
  category1: z.string().optional(),
  category2: z.string().optional(),
});
export const ApprovalUpdate = z.strictObject({
  approved: z.boolean(),
  comment: z.string().max(1024).optional(),
});
export const Approval = z.looseObject({
  datetime: z.string().nullable().optional(),
  approved: z.boolean(),
  comment: z.string().optional(),
});

/**
 * A body sent as bytes, not JSON (the simple upload): the file's content and the content type
 * it is sent with (docs/api.md#uploads-and-fetches).
 */
export const RawBody = z.strictObject({
  bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array, { message: "must be bytes" }),
  contentType: z.string().min(1).max(255).optional(),
});

/** A point of interest: a rectangle on the image, in fractions 0..1 of its size (docs/api.md#points-of-interest). */
const Fraction = z.number().min(0).max(1);
export const PointOfInterest = z.strictObject({
  x: Fraction,
  y: Fraction,
  width: Fraction,
  height: Fraction,
});
const PoiName = z.string().min(1).max(256);
/** One named point per call; a name given again replaces its point. */
export const PoiSet = PointOfInterest.extend({ name: PoiName });
export const PoiDelete = z.strictObject({ name: PoiName });
/** GET: the file's points keyed by name (fields nobody documents are let through). */
export const PoiMap = z.record(z.string(), PointOfInterest.loose());

export const MetaUpdate = z.strictObject({
  tags: Tags.optional(),
  title: Title.optional(),
  description: Description.optional(),
  product: Product.optional(),
  approval: ApprovalUpdate.optional(),
});

export const AllMeta = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  product: z.looseObject({}).optional(),
  approval: Approval.optional(),
});
export type AllMeta = z.infer<typeof AllMeta>;

export const FilenameList = z
  .array(FilePath)
  .min(1, { message: "must name at least one path" })
  .max(1000, { message: "must name at most 1000 paths" });

export const JobCreated = z.looseObject({ id: z.string() });
export const JobStatus = z.looseObject({
  id: z.string().optional(),
  progress: z.number(),
  status: z.string().optional(),
  result: z.unknown().optional(),
  error: z.string().optional(),
});
export type JobStatus = z.infer<typeof JobStatus>;

export const SearchRequest = z.strictObject({
  query: z.string().max(1024, { message: "must be at most 1024 characters" }),
  sort: z.record(z.string(), z.enum(["asc", "desc"])).optional(),
  from: z.number().int().min(0).max(1000, { message: "must be at most 1000" }).optional(),
  size: z.number().int().min(1).max(100, { message: "must be at most 100" }).optional(),
  scroll: z.boolean().optional(),
});

/** The next page of a scrolling search: the `scrollId` and nothing else (docs/api.md#search). */
export const SearchScroll = z.strictObject({ scrollId: z.string().min(1).max(4096) });

/** A hit in the documented shape (docs/api.md#search). */
export const SearchHit = z.looseObject({
  _index: z.string(),
  _type: z.string(),
  _id: z.string(),
  _score: z.number().nullable(),
  _routing: z.string().optional(),
  _source: z.looseObject({
    accountId: z.string(),
    filename: z.string(),
    dirname: z.string(),
    basename: z.string(),
    extension: z.string(),
    id: z.string(),
    ctime: z.string(),
    mtime: z.string(),
    size: z.number(),
    contentType: z.string().optional(),
    meta: z.looseObject({}).optional(),
  }),
  sort: z.array(z.union([z.string(), z.number()])).optional(),
});
export const SearchResult = z.looseObject({
  hits: z.array(SearchHit),
  total: z.number(),
  _relation: z.string().optional(),
  scrollId: z.string().optional(),
});

export const FetchItem = z.strictObject({
  url: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }),
  filename: FilePath,
  auth: z.strictObject({ username: z.string(), password: z.string() }).optional(),
  wait: z.boolean().optional(),
});
export const FetchRequest = z.array(FetchItem).min(1).max(20, { message: "must have at most 20 items" });
/** The remote's status line in a fetch attempt's `headers.result` (docs/api.md#uploads-and-fetches). */
/** [unknown] the type of `code`: a number like `statusCode`, or its text; nothing reads it. */
export const FetchStatusLine = z.looseObject({
  version: z.string(),
  code: z.union([z.number(), z.string()]),
  reason: z.string(),
});
/** One try of a fetch, as documented (docs/api.md#uploads-and-fetches). */
export const FetchAttempt = z.looseObject({
  url: z.string(),
  initiator: Initiator,
  statusCode: z.number().nullable(),
  // the remote's answer headers, and `result`: its status line (none when nothing answered)
  headers: z.object({ result: FetchStatusLine.optional() }).catchall(z.string()),
  timing: z.looseObject({ ns: z.number(), connect: z.number(), start: z.number(), total: z.number() }),
  error: z.looseObject({ name: z.string(), message: z.string() }).optional(),
  date: z.string(),
});

export const FetchResult = z.array(
  z.looseObject({
    filename: z.string(),
    success: z.boolean(),
    attempted: z.boolean(),
    attempts: z.array(FetchAttempt),
    retryAfter: z.string().nullable(),
  }),
);

export const JwtRequest = z.strictObject({
  filename: FilePath,
  key: z.string().min(1),
  alias: z.string().optional(),
  // documented with numbers too, e.g. {"w": 300}
  secureParams: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  insecureParams: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  expiresIn: z.number().int().min(1).max(604800),
});
export const JwtResponse = z.looseObject({ url: z.string() });

export const ZipRequest = z.strictObject({
  filenames: FilenameList,
  zipFilename: z.string().max(64, { message: "must be at most 64 characters" }).optional(),
});
export const BatchDeleteRequest = z.strictObject({ filenames: FilenameList });

// ---- statistics (docs/api.md#statistics) -----------------------------------------------------

/** Keyed by the start of each UTC day in ms since the epoch. */
export const HttpStats = z.record(
  z.string(),
  z.looseObject({ total: z.looseObject({ count: z.number(), size: z.number() }) }),
);
/** The account's storage at the start of each day, keyed by the day's start in ms. */
export const StorageStats = z.record(z.string(), Storage);
/** One view event of a spin; the parsed user agent's fields are strings, as documented. */
export const SpinView = z.looseObject({
  "@timestamp": z.string(),
  referer: z.string(),
  user_agent: z.string(),
  user_agent_parsed: z.looseObject({
    name: z.string(),
    os: z.string(),
    os_name: z.string(),
    os_major: z.string(),
    device: z.string(),
    major: z.string(),
    minor: z.string(),
    patch: z.string(),
    build: z.string(),
  }),
  event: z.looseObject({
    origin: z.string(),
    type: z.string(),
    name: z.string(),
    data: z.looseObject({
      rows: z.number(),
      columns: z.number(),
      viewerSize: z.looseObject({ width: z.number(), height: z.number() }),
    }),
  }),
});
export const SpinViews = z.array(SpinView);
