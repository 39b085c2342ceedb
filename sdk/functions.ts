// Data functions: read the account through the same config and account names as the resources,
// each with an `...Output` variant in the Pulumi style. What each one takes and returns is
// declared once (provider/functions.ts): the types below are its schemas' (the doc comments of
// their fields included), secret results as Outputs; the two faces only differ in where it runs: the dynamic
// face's run in the program's process (sdk/functions-impl.ts, loaded on the first call, not with
// the SDK), the native face's in the provider plugin, through the engine (sdk/native.ts).
import * as pulumi from "@pulumi/pulumi";
import type { schemas } from "mediahost-contract";
import type { z } from "zod";
import type { DataFunctionName, dataFunctions } from "../provider/functions";

type Functions = typeof dataFunctions;

/** What the data function `N` takes, as its schema takes it (with the doc comments of its fields). */
type FunctionArgs<N extends DataFunctionName> = z.input<Functions[N]["args"]>;

/** The results `N` declares secret. */
type SecretsOf<N extends DataFunctionName> = Functions[N] extends { secrets?: readonly (infer S)[] }
  ? S
  : never;

/** An object type with its intersections flattened, its properties' doc comments kept. */
type Flat<T> = { [K in keyof T]: T[K] };

/** What `N` returns: its result schema's type, each secret result an Output (a secret one). */
type FunctionResult<N extends DataFunctionName> = Flat<
  { [K in keyof Output<N> as K extends SecretsOf<N> ? never : K]: Output<N>[K] } & {
    [K in keyof Output<N> as K extends SecretsOf<N> ? K : never]-?: pulumi.Output<Output<N>[K]>;
  }
>;
type Output<N extends DataFunctionName> = z.output<Functions[N]["result"]>;

// interfaces, so that the declarations name them rather than spell them out

export interface AccountArgs extends FunctionArgs<"getAccount"> {}
type OutputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export type Account = z.infer<typeof schemas.Account>;
export type AccountStorage = z.infer<typeof schemas.Storage>;
export type AccountLimits = FunctionResult<"getAccountLimits">["counters"];
export type BillingPlan = z.infer<typeof schemas.BillingPlan>;
export type AccountUser = FunctionResult<"getAccountUsers">["users"][number];
export type FolderEntry = z.infer<typeof schemas.DirEntry>;

export interface GetUserArgs extends FunctionArgs<"getUser"> {}
export interface GetUserResult extends FunctionResult<"getUser"> {}
export interface ListFolderArgs extends FunctionArgs<"listFolder"> {}
export interface GetSignedUrlArgs extends FunctionArgs<"getSignedUrl"> {}
export interface GetSignedUrlResult extends FunctionResult<"getSignedUrl"> {}
export interface SearchFilesArgs extends FunctionArgs<"searchFiles"> {}
export type FoundFile = z.infer<typeof schemas.SearchHit>["_source"];
export interface StatsArgs extends FunctionArgs<"getStorageStats"> {}
export type StorageDay = { day: string } & AccountStorage;
export type HttpDay = FunctionResult<"getHttpStats">["days"][number];

/** Where a face runs a data function. */
export type Runner = (
  name: DataFunctionName,
  args: object,
  opts?: pulumi.InvokeOptions,
) => Promise<Record<string, unknown>>;

/** The data functions, typed, run by `run`. */
export function dataFunctionsOn(run: Runner) {
  // named by the types above, which the declarations then name rather than spell out
  const call =
    <N extends DataFunctionName, A extends FunctionArgs<N>, R>(name: N) =>
    (args: A, opts?: pulumi.InvokeOptions): Promise<R> =>
      run(name, args, opts) as Promise<R>;
  const output =
    <A extends object, R>(fn: (args: A, opts?: pulumi.InvokeOptions) => Promise<R>) =>
    (args?: OutputArgs<A>, opts?: pulumi.InvokeOptions): pulumi.Output<R> =>
      pulumi.output((args ?? {}) as A).apply((plain) => fn(plain as A, opts));
  const getAccount = call<"getAccount", AccountArgs, Account>("getAccount");
  const getAccountStorage = call<"getAccountStorage", AccountArgs, AccountStorage>("getAccountStorage");
  const limits = call<"getAccountLimits", AccountArgs, { counters: AccountLimits }>("getAccountLimits");
  // the TypeScript SDK returns the counters themselves, as it always did
  const getAccountLimits = (args: AccountArgs, opts?: pulumi.InvokeOptions) =>
    limits(args, opts).then((r) => r.counters);
  const getBillingPlan = call<"getBillingPlan", AccountArgs, BillingPlan>("getBillingPlan");
  const getAccountUsers = call<"getAccountUsers", AccountArgs, { users: AccountUser[] }>("getAccountUsers");
  const getUser = call<"getUser", GetUserArgs, GetUserResult>("getUser");
  const listFolder = call<"listFolder", ListFolderArgs, { path: string; entries: FolderEntry[] }>(
    "listFolder",
  );
  const getSignedUrl = call<"getSignedUrl", GetSignedUrlArgs, GetSignedUrlResult>("getSignedUrl");
  const searchFiles = call<"searchFiles", SearchFilesArgs, { total: number; files: FoundFile[] }>(
    "searchFiles",
  );
  const getStorageStats = call<"getStorageStats", StatsArgs, { days: StorageDay[] }>("getStorageStats");
  const getTrafficStats = call<"getTrafficStats", StatsArgs, FunctionResult<"getTrafficStats">>(
    "getTrafficStats",
  );
  const getHttpStats = call<"getHttpStats", StatsArgs, { days: HttpDay[] }>("getHttpStats");
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
