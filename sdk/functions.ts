// Data functions: read the account through the same config and account names as the
// resources. They run in the program's process (not the provider's), share one client per
// account there, and each has an `...Output` variant in the Pulumi style. Their work
// (sdk/functions-impl.ts: the HTTP client, the schemas) loads on the first call, not with the SDK.
import * as pulumi from "@pulumi/pulumi";
import type { schemas } from "mediahost-contract";
import type { z } from "zod";

type Impl = typeof import("./functions-impl");
let impl: Impl | undefined;
const work = (): Impl => {
  impl ??= require("./functions-impl") as Impl;
  return impl;
};

export interface AccountArgs {
  /** A name under `mediahost:accounts`; the top-level credentials when absent. */
  account?: string;
}
type OutputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

function outputOf<A extends object, R>(fn: (args: A) => Promise<R>) {
  return (args?: OutputArgs<A>): pulumi.Output<R> =>
    pulumi.output((args ?? {}) as A).apply((plain) => fn(plain as A));
}

export type Account = z.infer<typeof schemas.Account>;
/** The account object: settings, aliases (with custom domains), CDN host names, status. Secrets read as empty. */
export async function getAccount(args: AccountArgs = {}): Promise<Account> {
  return work().getAccount(args);
}
export const getAccountOutput = outputOf(getAccount);

export type AccountStorage = z.infer<typeof schemas.Storage>;
/** Storage plan, usage and file count. */
export async function getAccountStorage(args: AccountArgs = {}): Promise<AccountStorage> {
  return work().getAccountStorage(args);
}
export const getAccountStorageOutput = outputOf(getAccountStorage);

export type AccountLimits = z.infer<typeof schemas.Limits>;
/** Every rate-limit counter over the past 60 minutes: count, limit, remaining, reset. */
export async function getAccountLimits(args: AccountArgs = {}): Promise<AccountLimits> {
  return work().getAccountLimits(args);
}
export const getAccountLimitsOutput = outputOf(getAccountLimits);

export type BillingPlan = z.infer<typeof schemas.BillingPlan>;
export async function getBillingPlan(args: AccountArgs = {}): Promise<BillingPlan> {
  return work().getBillingPlan(args);
}
export const getBillingPlanOutput = outputOf(getBillingPlan);

export type AccountUser = z.infer<typeof schemas.AccountUser>;
/** The account's users and their roles. */
export async function getAccountUsers(args: AccountArgs = {}): Promise<{ users: AccountUser[] }> {
  return work().getAccountUsers(args);
}
export const getAccountUsersOutput = outputOf(getAccountUsers);

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
/** One user's details. `s3Secret` is a credential and comes back as a secret output. */
export async function getUser(args: GetUserArgs): Promise<GetUserResult> {
  return work().getUser(args);
}
export const getUserOutput = (args: OutputArgs<GetUserArgs>) => outputOf(getUser)(args);

export interface ListFolderArgs extends AccountArgs {
  /** Absolute folder path. */
  path: string;
}
export type FolderEntry = z.infer<typeof schemas.DirEntry>;
/** Every entry of a folder, across all pages. */
export async function listFolder(args: ListFolderArgs): Promise<{ path: string; entries: FolderEntry[] }> {
  return work().listFolder(args);
}
export const listFolderOutput = (args: OutputArgs<ListFolderArgs>) => outputOf(listFolder)(args);
