// Data functions: read the account through the same config and account names as the
// resources. They run in the program's process (not the provider's), share one client per
// account there, and each has an `...Output` variant in the Pulumi style.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { schemas } from "../provider/api";
import { listFolder as listAll } from "../provider/client";
import { credentialsFor, resolveAccounts } from "../provider/config";
import { ContextRegistry } from "../provider/context";
import { CommonInputs, ManagedPath } from "../provider/resources/common";

let registry: ContextRegistry | undefined;

function client(account: string | undefined) {
  if (!registry) {
    const accounts = resolveAccounts({ config: (key) => pulumi.runtime.getConfig(key), env: process.env });
    registry = new ContextRegistry((name) => credentialsFor(accounts, name));
  }
  return registry.get(account).client;
}

/**
 * Validates a data function's arguments before any API call, with the resources' rules: the
 * error names the function, each field and its rule (unknown properties included).
 */
function validated<T>(fn: string, schema: z.ZodType<T>, args: unknown): T {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`)
    .join("; ");
  throw new Error(`${fn}: invalid arguments: ${issues}`);
}

const AccountOnly = z.strictObject({ ...CommonInputs });
const UserArgs = z.strictObject({
  ...CommonInputs,
  userId: z
    .string({ message: "must be a string" })
    .min(1, { message: "must not be empty" })
    .max(256, { message: "must be at most 256 characters" }),
});
const FolderArgs = z.strictObject({ ...CommonInputs, path: ManagedPath });

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
  const { account } = validated("getAccount", AccountOnly, args);
  return client(account).ops.getAccount();
}
export const getAccountOutput = outputOf(getAccount);

export type AccountStorage = z.infer<typeof schemas.Storage>;
/** Storage plan, usage and file count. */
export async function getAccountStorage(args: AccountArgs = {}): Promise<AccountStorage> {
  const { account } = validated("getAccountStorage", AccountOnly, args);
  return client(account).ops.getStorage();
}
export const getAccountStorageOutput = outputOf(getAccountStorage);

export type AccountLimits = z.infer<typeof schemas.Limits>;
/** Every rate-limit counter over the past 60 minutes: count, limit, remaining, reset. */
export async function getAccountLimits(args: AccountArgs = {}): Promise<AccountLimits> {
  const { account } = validated("getAccountLimits", AccountOnly, args);
  return client(account).ops.getLimits();
}
export const getAccountLimitsOutput = outputOf(getAccountLimits);

export type BillingPlan = z.infer<typeof schemas.BillingPlan>;
export async function getBillingPlan(args: AccountArgs = {}): Promise<BillingPlan> {
  const { account } = validated("getBillingPlan", AccountOnly, args);
  return client(account).ops.getBillingPlan();
}
export const getBillingPlanOutput = outputOf(getBillingPlan);

export type AccountUser = z.infer<typeof schemas.AccountUser>;
/** The account's users and their roles. */
export async function getAccountUsers(args: AccountArgs = {}): Promise<{ users: AccountUser[] }> {
  const { account } = validated("getAccountUsers", AccountOnly, args);
  return { users: await client(account).ops.listUsers() };
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
  const { account, userId } = validated("getUser", UserArgs, args);
  const { s3Secret, email, firstName, lastName, dateCreated } = await client(account).ops.getUser({
    query: { userId },
  });
  return { userId, email, firstName, lastName, dateCreated, s3Secret: pulumi.secret(s3Secret) };
}
export const getUserOutput = (args: OutputArgs<GetUserArgs>) => outputOf(getUser)(args);

export interface ListFolderArgs extends AccountArgs {
  /** Absolute folder path. */
  path: string;
}
export type FolderEntry = z.infer<typeof schemas.DirEntry>;
/** Every entry of a folder, across all pages. */
export async function listFolder(args: ListFolderArgs): Promise<{ path: string; entries: FolderEntry[] }> {
  const { account, path } = validated("listFolder", FolderArgs, args);
  const entries: FolderEntry[] = [];
  for await (const entry of listAll(client(account), path)) entries.push(entry);
  return { path, entries };
}
export const listFolderOutput = (args: OutputArgs<ListFolderArgs>) => outputOf(listFolder)(args);
