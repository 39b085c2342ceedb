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
} = functions;
// exports:end
