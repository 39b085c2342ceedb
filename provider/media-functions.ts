// The data functions over a team's media rather than its account: signed URLs of protected
// files, search, and the statistics. Declared as provider/functions.ts declares the others (and
// joined to them there), so both faces and the package schema have them; every call goes through
// the client, which honours the rate-limit counters (search's and the statistics' own included).
import { schemas } from "mediahost-contract";
import { z } from "zod";
import { type MediahostClient, ProviderError, SearchFound, StorageRead, searchHits } from "./client";
import { define } from "./data-function";
import { ManagedPath } from "./resources/schema";

const Account = z
  .string()
  .min(1, { message: "must not be empty" })
  .optional()
  .describe("A name under `mediahost:accounts`; the provider's own credentials when absent.");

const Params = z.record(z.string(), z.union([z.string(), z.number()]));

/** A date alone, as the service's own Magento extension sends it. */
const DAY = z.iso.date();

/** A bound as docs/api.md#statistics documents it: a date alone is the start or end of that day (UTC). */
function documentedBound(value: string, end: boolean): string {
  if (!DAY.safeParse(value).success) return value;
  return `${value}T${end ? "23:59:59.999" : "00:00:00.000"}`;
}

const bound = (end: boolean, describe: string) =>
  z
    .string({ message: "must be a string" })
    .refine((v) => DAY.safeParse(v).success || schemas.StatsTime.safeParse(v).success, {
      message: "must be an ISO 8601 date-time or a date (YYYY-MM-DD)",
    })
    .transform((v) => documentedBound(v, end))
    .optional()
    .describe(describe);

/** A statistics range: ISO 8601 date-times (UTC without a zone) or dates, `to` not before `from`. */
const Range = z
  .strictObject({
    /** A name under `mediahost:accounts`; the provider's own credentials when absent. */
    account: Account,
    /** Start of the range, an ISO 8601 date-time (UTC without a zone), or a date: the start of that day (UTC). */
    from: bound(
      false,
      "Start of the range, an ISO 8601 date-time (UTC without a zone) or a date (`2026-11-01`: the start of " +
        "that day, UTC); the service's default is a month ago.",
    ),
    /** End of the range, as `from`; a date is the end of that day (UTC). */
    to: bound(
      true,
      "End of the range, as `from` (a date alone: the end of that day, UTC); the service's default is now.",
    ),
  })
  .superRefine((r, ctx) => {
    if (r.from && r.to && schemas.statsTime(r.to) < schemas.statsTime(r.from))
      ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  });
type RangeArgs = z.output<typeof Range>;
const rangeQuery = ({ from, to }: RangeArgs) => ({ from, to });

/** Days keyed by their start in ms, as a list in time order with each day as an ISO date-time. */
function byDay<T extends object>(keyed: Record<string, T>): ({ day: string } & T)[] {
  return Object.entries(keyed)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([ms, value]) => ({ day: new Date(Number(ms)).toISOString(), ...value }));
}

/** The most results `searchFiles` gathers: past the service's 1,000 by scrolling. */
export const SEARCH_LIMIT_MAX = 100_000;
const PAGE = 100;

/** What `searchFiles` returns of a hit: its `_source`, as the provider reads it (provider/client/reads.ts). */
const FoundFile = SearchFound;

/** The first `limit` hits of a search: paged up to 1,000, scrolled past (client/helpers.ts). */
async function search(
  client: MediahostClient,
  query: string,
  sort: Record<string, "asc" | "desc"> | undefined,
  limit: number,
): Promise<{ total: number; files: z.output<typeof FoundFile>[] }> {
  const { total, hits } = await searchHits(client, { query, ...(sort ? { sort } : {}) }, limit, PAGE);
  return { total, files: hits.map((h) => h._source) };
}

export const mediaFunctions = {
  getSignedUrl: define({
    description:
      "A signed URL of a file in a JWT-protected folder (the URL is a secret). Its value changes on every " +
      "run (it is signed anew, with a new expiry): use it as a stack output, not as an input of a resource.",
    args: z.strictObject({
      /** A name under `mediahost:accounts`; the provider's own credentials when absent. */
      account: Account,
      /** Absolute path of the protected file (at most 1024 characters). */
      path: ManagedPath.describe("Absolute path of the protected file (at most 1024 characters)."),
      /** The folder's protection key: pass it as a secret (`config.requireSecret`) to the Output form. */
      key: z
        .string()
        .min(1, { message: "must not be empty" })
        .describe("The folder's protection key (a secret)."),
      /** Seconds until the URL expires, 1 to 604800 (7 days). */
      expiresIn: z
        .number({ message: "must be a number" })
        .int({ message: "must be a whole number" })
        .min(1, { message: "must be at least 1" })
        .max(604800, { message: "must be at most 604800" })
        .describe("Seconds until the URL expires, 1 to 604800 (7 days)."),
      /** The alias whose CDN address the URL uses; the account's own when absent. */
      alias: z
        .string()
        .min(1)
        .optional()
        .describe("The alias whose CDN address the URL uses; the account's own when absent."),
      /** Parameters signed into the token (e.g. `{w: 300}`): a URL cannot change them. */
      secureParams: Params.optional().describe(
        "Parameters signed into the token (e.g. `{w: 300}`): a URL cannot change them.",
      ),
      /** Parameters added to the URL unsigned. */
      insecureParams: Params.optional().describe("Parameters added to the URL unsigned."),
    }),
    result: z.object({
      path: z.string(),
      /** The signed URL: always a secret output. Signed anew on every run. */
      url: z.string(),
    }),
    secretArgs: ["key"],
    secrets: ["url"],
    run: async (client, { path, key, expiresIn, alias, secureParams, insecureParams }) => {
      const body = { filename: path, key, expiresIn, alias, secureParams, insecureParams };
      const { url } = await client.ops.createJwt({ body });
      return { path, url };
    },
  }),
  searchFiles: define({
    description:
      "Files matching a search query (Elasticsearch query-string syntax, docs/api.md#search), up to `limit` " +
      "of them: past 1,000 by scrolling. Title, description, tags and product are not among a hit's fields.",
    args: z.strictObject({
      /** A name under `mediahost:accounts`; the provider's own credentials when absent. */
      account: Account,
      /**
       * The query in Elasticsearch query-string syntax, e.g. `extension:.jpg AND dirname:\/products*`
       * (at most 1024 characters).
       */
      query: z
        .string()
        .max(1024, { message: "must be at most 1024 characters" })
        .describe("The query, e.g. `extension:.jpg` (at most 1024 characters)."),
      /** Field to `asc` or `desc`, e.g. `{"filename.raw": "asc"}`. */
      sort: z
        .record(z.string(), z.enum(["asc", "desc"], { message: 'must be "asc" or "desc"' }))
        .optional()
        .describe('Field to `asc` or `desc`, e.g. `{"filename.raw": "asc"}`.'),
      /** The most files returned (default 1000, at most 100000): past 1,000 by scrolling. */
      limit: z
        .number({ message: "must be a number" })
        .int({ message: "must be a whole number" })
        .min(1, { message: "must be at least 1" })
        .max(SEARCH_LIMIT_MAX, { message: `must be at most ${SEARCH_LIMIT_MAX}` })
        .optional()
        .describe("The most files returned (default 1000, at most 100000)."),
    }),
    result: z.object({ total: z.number(), files: z.array(FoundFile) }),
    run: (client, { query, sort, limit }) => search(client, query, sort, limit ?? 1000),
  }),
  getStorageStats: define({
    description: "The storage in use at the start of each day of the range (`days`, in time order).",
    args: Range,
    result: z.object({ days: z.array(z.object({ day: z.string(), ...StorageRead.shape })) }),
    run: async (client, range) => ({
      days: byDay(await client.ops.getStorageStats({ query: rangeQuery(range) })),
    }),
  }),
  getHttpStats: define({
    description:
      "Requests (`count`) and bytes delivered (`size`) on each day of the range (`days`, in time order).",
    args: Range,
    result: z.object({
      days: z.array(z.object({ day: z.string(), count: z.number(), size: z.number() })),
    }),
    run: async (client, range) => ({
      days: byDay(await client.ops.getHttpStats({ query: rangeQuery(range) })).map(({ day, total }) => ({
        day,
        count: total.count,
        size: total.size,
      })),
    }),
  }),
  getTrafficStats: define({
    description:
      "The traffic of the range aggregated (`traffic`), as the service answers it; its shape is not documented.",
    args: Range,
    result: z.object({ traffic: z.record(z.string(), z.unknown()) }),
    run: async (client, range) => {
      const text = await client.ops.getTrafficStats({ query: rangeQuery(range) });
      try {
        const traffic = JSON.parse(text) as unknown;
        if (traffic && typeof traffic === "object" && !Array.isArray(traffic)) return { traffic };
      } catch {
        // reported below
      }
      throw new ProviderError("getTrafficStats: the service's answer is not a JSON object");
    },
  }),
};
