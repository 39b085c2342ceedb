// Data functions: read the account through the same config and account names as the
// resources. They run in the program's process (not the provider's), share one client per
// account there, and each has an `...Output` variant in the Pulumi style.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { schemas } from "../provider/api";
import { listFolder as listAll } from "../provider/client";
import { credentialsFor, resolveAccounts } from "../provider/config";
import { ContextRegistry } from "../provider/context";

let registry: ContextRegistry | undefined;

function client(account: string | undefined) {
  if (!registry) {
    const accounts = resolveAccounts({ config: (key) => pulumi.runtime.getConfig(key), env: process.env });
    registry = new ContextRegistry((name) => credentialsFor(accounts, name));
  }
  return registry.get(account).client;
}

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
  return client(args.account).ops.getAccount();
}
export const getAccountOutput = outputOf(getAccount);

export type AccountStorage = z.infer<typeof schemas.Storage>;
/** Storage plan, usage and file count. */
export async function getAccountStorage(args: AccountArgs = {}): Promise<AccountStorage> {
  return client(args.account).ops.getStorage();
}
export const getAccountStorageOutput = outputOf(getAccountStorage);

export type AccountLimits = z.infer<typeof schemas.Limits>;
/** Every rate-limit counter over the past 60 minutes: count, limit, remaining, reset. */
export async function getAccountLimits(args: AccountArgs = {}): Promise<AccountLimits> {
  return client(args.account).ops.getLimits();
}
export const getAccountLimitsOutput = outputOf(getAccountLimits);

export type BillingPlan = z.infer<typeof schemas.BillingPlan>;
export async function getBillingPlan(args: AccountArgs = {}): Promise<BillingPlan> {
  return client(args.account).ops.getBillingPlan();
}
export const getBillingPlanOutput = outputOf(getBillingPlan);

export type AccountUser = z.infer<typeof schemas.AccountUser>;
/** The account's users and their roles. */
export async function getAccountUsers(args: AccountArgs = {}): Promise<{ users: AccountUser[] }> {
  return { users: await client(args.account).ops.listUsers() };
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
  const { s3Secret, email, firstName, lastName, dateCreated } = await client(args.account).ops.getUser({
    query: { userId: args.userId },
  });
  return { userId: args.userId, email, firstName, lastName, dateCreated, s3Secret: pulumi.secret(s3Secret) };
}
export const getUserOutput = (args: OutputArgs<GetUserArgs>) => outputOf(getUser)(args);

export interface ListFolderArgs extends AccountArgs {
  /** Absolute folder path. */
  path: string;
}
export type FolderEntry = z.infer<typeof schemas.DirEntry>;
/** Every entry of a folder, across all pages. */
export async function listFolder(args: ListFolderArgs): Promise<{ path: string; entries: FolderEntry[] }> {
  const entries: FolderEntry[] = [];
  for await (const entry of listAll(client(args.account), args.path)) entries.push(entry);
  return { path: args.path, entries };
}
export const listFolderOutput = (args: OutputArgs<ListFolderArgs>) => outputOf(listFolder)(args);
