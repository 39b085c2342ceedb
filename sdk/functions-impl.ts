// The data functions' work: argument checks and API calls, in the program's process, through the
// configuration and a session of their own (not the lifecycle). Loaded on the first call
// (sdk/functions.ts), so that programs that only declare resources never load the HTTP client or
// the schemas.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { listFolder as listAll, ProviderError } from "../provider/client";
import { readConfiguration } from "../provider/config";
import { ManagedPath } from "../provider/resources/schema";
import { Session } from "../provider/session";

let session: Session | undefined;

function client(account: string | undefined) {
  session ??= new Session(
    readConfiguration({ config: (key) => pulumi.runtime.getConfig(key), env: process.env }),
  );
  return session.context(account).client;
}

const Account = z.string().min(1, { message: "must not be empty" }).optional();
const AccountOnly = z.strictObject({ account: Account });
const UserArgs = z.strictObject({
  account: Account,
  userId: z
    .string({ message: "must be a string" })
    .min(1, { message: "must not be empty" })
    .max(256, { message: "must be at most 256 characters" }),
});
const FolderArgs = z.strictObject({ account: Account, path: ManagedPath });

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
  throw new ProviderError(`${fn}: invalid arguments: ${issues}`);
}

export async function getAccount(args: unknown) {
  const { account } = validated("getAccount", AccountOnly, args);
  return client(account).ops.getAccount();
}

export async function getAccountStorage(args: unknown) {
  const { account } = validated("getAccountStorage", AccountOnly, args);
  return client(account).ops.getStorage();
}

export async function getAccountLimits(args: unknown) {
  const { account } = validated("getAccountLimits", AccountOnly, args);
  return client(account).ops.getLimits();
}

export async function getBillingPlan(args: unknown) {
  const { account } = validated("getBillingPlan", AccountOnly, args);
  return client(account).ops.getBillingPlan();
}

export async function getAccountUsers(args: unknown) {
  const { account } = validated("getAccountUsers", AccountOnly, args);
  return { users: await client(account).ops.listUsers() };
}

export async function getUser(args: unknown) {
  const { account, userId } = validated("getUser", UserArgs, args);
  const { s3Secret, email, firstName, lastName, dateCreated } = await client(account).ops.getUser({
    query: { userId },
  });
  return { userId, email, firstName, lastName, dateCreated, s3Secret: pulumi.secret(s3Secret) };
}

export async function listFolder(args: unknown) {
  const { account, path } = validated("listFolder", FolderArgs, args);
  const entries = [];
  for await (const entry of listAll(client(account), path)) entries.push(entry);
  return { path, entries };
}
