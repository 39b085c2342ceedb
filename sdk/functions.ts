// Data functions: read the account through the same config and account names as the resources,
// each with an `...Output` variant in the Pulumi style. What each one takes and returns is
// declared once (provider/functions.ts); the two faces only differ in where it runs: the dynamic
// face's run in the program's process (sdk/functions-impl.ts, loaded on the first call, not with
// the SDK), the native face's in the provider plugin, through the engine (sdk/native.ts).
import * as pulumi from "@pulumi/pulumi";
import type { schemas } from "mediahost-contract";
import type { z } from "zod";
import type { DataFunctionName } from "../provider/functions";

export interface AccountArgs {
  /** A name under `mediahost:accounts`; the top-level credentials when absent. */
  account?: string;
}
type OutputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export type Account = z.infer<typeof schemas.Account>;
export type AccountStorage = z.infer<typeof schemas.Storage>;
export type AccountLimits = z.infer<typeof schemas.Limits>;
export type BillingPlan = z.infer<typeof schemas.BillingPlan>;
export type AccountUser = z.infer<typeof schemas.AccountUser>;
export type FolderEntry = z.infer<typeof schemas.DirEntry>;

export interface GetUserArgs extends AccountArgs {
  userId: string;
}
export interface GetUserResult {
  userId: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  dateCreated?: string;
  /** The user's storage access secret: always a secret output. */
  s3Secret: pulumi.Output<string | undefined>;
}
export interface ListFolderArgs extends AccountArgs {
  /** Absolute folder path. */
  path: string;
}

export interface GetSignedUrlArgs extends AccountArgs {
  /** Absolute path of the protected file. */
  path: string;
  /** The folder's protection key: pass it as a secret (`config.requireSecret`) to the Output form. */
  key: string;
  /** Seconds until the URL expires, 1 to 604800 (7 days). */
  expiresIn: number;
  /** The alias whose CDN address the URL uses; the account's own when absent. */
  alias?: string;
  /** Parameters signed into the token: a URL cannot change them. */
  secureParams?: Record<string, string | number>;
  /** Parameters added to the URL unsigned. */
  insecureParams?: Record<string, string | number>;
}
export interface GetSignedUrlResult {
  path: string;
  /** The signed URL: always a secret output. Signed anew on every run. */
  url: pulumi.Output<string>;
}
export interface SearchFilesArgs extends AccountArgs {
  /** Elasticsearch query-string syntax, e.g. `extension:.jpg AND dirname:\/products*`. */
  query: string;
  /** Field to `asc` or `desc`, e.g. `{"filename.raw": "asc"}`. */
  sort?: Record<string, "asc" | "desc">;
  /** The most files returned (default 1000, at most 100000): past 1,000 by scrolling. */
  limit?: number;
}
export type FoundFile = z.infer<typeof schemas.SearchHit>["_source"];
export interface StatsArgs extends AccountArgs {
  /** Start of the range, an ISO 8601 date-time (UTC without a zone), or a date: the start of that day (UTC). */
  from?: string;
  /** End of the range, as `from`; a date is the end of that day (UTC). */
  to?: string;
}
export type StorageDay = { day: string } & AccountStorage;
export interface HttpDay {
  day: string;
  count: number;
  size: number;
}

/** Where a face runs a data function. */
export type Runner = (
  name: DataFunctionName,
  args: object,
  opts?: pulumi.InvokeOptions,
) => Promise<Record<string, unknown>>;

/** The data functions, typed, run by `run`. */
export function dataFunctionsOn(run: Runner) {
  const call =
    <A extends object, R>(name: DataFunctionName) =>
    (args: A, opts?: pulumi.InvokeOptions): Promise<R> =>
      run(name, args, opts) as Promise<R>;
  const output =
    <A extends object, R>(fn: (args: A, opts?: pulumi.InvokeOptions) => Promise<R>) =>
    (args?: OutputArgs<A>, opts?: pulumi.InvokeOptions): pulumi.Output<R> =>
      pulumi.output((args ?? {}) as A).apply((plain) => fn(plain as A, opts));
  const getAccount = call<AccountArgs, Account>("getAccount");
  const getAccountStorage = call<AccountArgs, AccountStorage>("getAccountStorage");
  const limits = call<AccountArgs, { counters: AccountLimits }>("getAccountLimits");
  // the TypeScript SDK returns the counters themselves, as it always did
  const getAccountLimits = (args: AccountArgs, opts?: pulumi.InvokeOptions) =>
    limits(args, opts).then((r) => r.counters);
  const getBillingPlan = call<AccountArgs, BillingPlan>("getBillingPlan");
  const getAccountUsers = call<AccountArgs, { users: AccountUser[] }>("getAccountUsers");
  const getUser = call<GetUserArgs, GetUserResult>("getUser");
  const listFolder = call<ListFolderArgs, { path: string; entries: FolderEntry[] }>("listFolder");
  const getSignedUrl = call<GetSignedUrlArgs, GetSignedUrlResult>("getSignedUrl");
  const searchFiles = call<SearchFilesArgs, { total: number; files: FoundFile[] }>("searchFiles");
  const getStorageStats = call<StatsArgs, { days: StorageDay[] }>("getStorageStats");
  const getTrafficStats = call<StatsArgs, { traffic: Record<string, unknown> }>("getTrafficStats");
  const getHttpStats = call<StatsArgs, { days: HttpDay[] }>("getHttpStats");
  return {
    /** The account object: settings, aliases (with custom domains), CDN host names, status. Secrets read as empty. */
    getAccount: (args: AccountArgs = {}, opts?: pulumi.InvokeOptions) => getAccount(args, opts),
    getAccountOutput: output(getAccount),
    /** Storage plan, usage and file count. */
    getAccountStorage: (args: AccountArgs = {}, opts?: pulumi.InvokeOptions) => getAccountStorage(args, opts),
    getAccountStorageOutput: output(getAccountStorage),
    /** Every rate-limit counter over the past 60 minutes: count, limit, remaining, reset. */
    getAccountLimits: (args: AccountArgs = {}, opts?: pulumi.InvokeOptions) => getAccountLimits(args, opts),
    getAccountLimitsOutput: output(getAccountLimits),
    /** The billing plan. */
    getBillingPlan: (args: AccountArgs = {}, opts?: pulumi.InvokeOptions) => getBillingPlan(args, opts),
    getBillingPlanOutput: output(getBillingPlan),
    /** The account's users and their roles. */
    getAccountUsers: (args: AccountArgs = {}, opts?: pulumi.InvokeOptions) => getAccountUsers(args, opts),
    getAccountUsersOutput: output(getAccountUsers),
    /** One user's details. `s3Secret` is a credential and comes back as a secret output. */
    getUser,
    getUserOutput: (args: OutputArgs<GetUserArgs>, opts?: pulumi.InvokeOptions) =>
      output(getUser)(args, opts),
    /** Every entry of a folder, across all pages. */
    listFolder,
    listFolderOutput: (args: OutputArgs<ListFolderArgs>, opts?: pulumi.InvokeOptions) =>
      output(listFolder)(args, opts),
    /**
     * A signed URL of a file in a JWT-protected folder, as a secret. It changes on every run (signed
     * anew): export it as a stack output; as a resource's input it would diff on every `up`.
     */
    getSignedUrl,
    getSignedUrlOutput: (args: OutputArgs<GetSignedUrlArgs>, opts?: pulumi.InvokeOptions) =>
      output(getSignedUrl)(args, opts),
    /** Files matching a search query, up to `limit` (past 1,000 by scrolling). */
    searchFiles,
    searchFilesOutput: (args: OutputArgs<SearchFilesArgs>, opts?: pulumi.InvokeOptions) =>
      output(searchFiles)(args, opts),
    /** The storage in use at the start of each day of the range. */
    getStorageStats: (args: StatsArgs = {}, opts?: pulumi.InvokeOptions) => getStorageStats(args, opts),
    getStorageStatsOutput: output(getStorageStats),
    /** The traffic of the range aggregated, as the service answers it. */
    getTrafficStats: (args: StatsArgs = {}, opts?: pulumi.InvokeOptions) => getTrafficStats(args, opts),
    getTrafficStatsOutput: output(getTrafficStats),
    /** Requests and bytes delivered on each day of the range. */
    getHttpStats: (args: StatsArgs = {}, opts?: pulumi.InvokeOptions) => getHttpStats(args, opts),
    getHttpStatsOutput: output(getHttpStats),
  };
}

type Impl = typeof import("./functions-impl");
let impl: Impl | undefined;

const functions = dataFunctionsOn((name, args) => {
  impl ??= require("./functions-impl") as Impl;
  return impl.run(name, args);
});

// exports:start (made by `npm run docs` from provider/resources and provider/functions.ts)
export const {
  getAccount,
  getAccountOutput,
  getAccountStorage,
  getAccountStorageOutput,
  getAccountLimits,
  getAccountLimitsOutput,
  getBillingPlan,
  getBillingPlanOutput,
  getAccountUsers,
  getAccountUsersOutput,
  getUser,
  getUserOutput,
  listFolder,
  listFolderOutput,
  getSignedUrl,
  getSignedUrlOutput,
  searchFiles,
  searchFilesOutput,
  getStorageStats,
  getStorageStatsOutput,
  getHttpStats,
  getHttpStatsOutput,
  getTrafficStats,
  getTrafficStatsOutput,
} = functions;
// exports:end
