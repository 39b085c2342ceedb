// The data functions, declared once for both faces: the dynamic face's SDK runs them in the
// program's process (sdk/functions-impl.ts), the native face serves them as `Invoke`s
// (`mediahost:index:<name>`), and the package schema lists them. Each has its arguments' schema
// (checked before any API call, naming the field and the rule), what it returns, and which of
// its results are secrets.
import { joinPath, SYSTEM_FOLDERS, type SystemFolder } from "mediahost-contract";
import { z } from "zod";

export type { DataFunction } from "./data-function";

import { type AccountRead, FolderEntry, listFolder, ProviderError, reads } from "./client";
import { type DataFunction, define } from "./data-function";
import { mediaFunctions } from "./media-functions";
import { ManagedPath } from "./resources/schema";

const Account = z.string().min(1, { message: "must not be empty" }).optional();
const AccountOnly = z.strictObject({
  /** A name under `mediahost:accounts`; the provider's own credentials when absent. */
  account: Account,
});

/**
 * The account with its write-only credentials read as empty, as the documentation has them: a
 * service may show them masked or in clear (docs/api.md#account), and a program must not get them.
 */
function withoutCredentials(account: AccountRead): AccountRead {
  const out = structuredClone(account);
  const auth = out.fetching?.http?.auth;
  if (auth?.password) auth.password = "";
  const s3 = out.fetching?.s3 as Record<string, unknown> | undefined;
  if (s3 && "secretAccessKey" in s3) delete s3.secretAccessKey;
  return out;
}

/** The functions over the account; provider/media-functions.ts holds those over its media. */
const accountFunctions = {
  getAccount: define({
    description:
      "The account object: settings, aliases (with custom domains), CDN host names, status. Secrets read as empty.",
    args: AccountOnly,
    result: reads.getAccount,
    run: async (client) => withoutCredentials(await client.ops.getAccount()),
  }),
  getAccountStorage: define({
    description: "Storage plan, usage and file count.",
    args: AccountOnly,
    result: reads.getStorage,
    run: (client) => client.ops.getStorage(),
  }),
  getAccountLimits: define({
    description:
      "Every rate-limit counter over the past 60 minutes (`counters`, by name): count, limit, remaining, reset.",
    args: AccountOnly,
    // a map of counters, under a property of its own: a function's result has named properties
    result: z.object({ counters: reads.getLimits }),
    run: async (client) => ({ counters: await client.ops.getLimits() }),
  }),
  getBillingPlan: define({
    description: "The billing plan.",
    args: AccountOnly,
    result: reads.getBillingPlan,
    run: (client) => client.ops.getBillingPlan(),
  }),
  getAccountUsers: define({
    description: "The account's users and their roles.",
    args: AccountOnly,
    result: z.object({ users: reads.listUsers }),
    run: async (client) => ({ users: await client.ops.listUsers() }),
  }),
  getUser: define({
    description: "One user's details. `s3Secret` is a credential and comes back as a secret.",
    args: z.strictObject({
      /** A name under `mediahost:accounts`; the provider's own credentials when absent. */
      account: Account,
      /** The user's id, as `getAccountUsers` lists it (at most 256 characters). */
      userId: z
        .string({ message: "must be a string" })
        .min(1, { message: "must not be empty" })
        .max(256, { message: "must be at most 256 characters" })
        .describe("The user's id (at most 256 characters)."),
    }),
    // the contract's user, named by its id (the answer does not repeat it)
    result: z.object({
      userId: z.string(),
      ...reads.getUser.shape,
      /** The user's storage access secret: always a secret output. */
      s3Secret: reads.getUser.shape.s3Secret,
    }),
    secrets: ["s3Secret"],
    run: async (client, { userId }) => {
      const { s3Secret, email, firstName, lastName, dateCreated } = await client.ops.getUser({
        query: { userId },
      });
      return { userId, email, firstName, lastName, dateCreated, s3Secret };
    },
  }),
  listFolder: define({
    description:
      "Every entry of a folder, across all pages; the account's system folders say what they are (`systemFolder`).",
    args: z.strictObject({
      /** A name under `mediahost:accounts`; the provider's own credentials when absent. */
      account: Account,
      /** Absolute folder path (at most 1024 characters). */
      path: ManagedPath.describe("Absolute folder path (at most 1024 characters)."),
    }),
    result: z.object({
      path: z.string(),
      entries: z.array(FolderEntry.extend({ systemFolder: z.string().optional() })),
    }),
    run: async (client, { path }) => {
      const entries = [];
      for await (const entry of listFolder(client, path)) {
        const system = entry.isDirectory
          ? SYSTEM_FOLDERS[joinPath(path, entry.filename) as SystemFolder]
          : undefined;
        entries.push(system ? { ...entry, systemFolder: system } : entry);
      }
      return { path, entries };
    },
  }),
};

// typed by name, so that the declarations name the two groups rather than spell them out again
export const dataFunctions: typeof accountFunctions & typeof mediaFunctions = {
  ...accountFunctions,
  ...mediaFunctions,
};

export type DataFunctionName = keyof typeof dataFunctions;

/** Each data function as the faces call it, arguments as a record (checked by `argumentsOf` first). */
const byName: ReadonlyMap<string, DataFunction> = new Map(Object.entries(dataFunctions));

export function dataFunctionByName(name: string): DataFunction | undefined {
  return byName.get(name);
}

/**
 * Validates a data function's arguments before any API call, with the resources' rules: the
 * error names the function, each field and its rule (unknown properties included).
 */
export function argumentsOf<A extends z.ZodObject>(
  name: string,
  fn: DataFunction<A>,
  args: unknown,
): z.output<A> {
  const result = fn.args.safeParse(args ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`)
    .join("; ");
  throw new ProviderError(`${name}: invalid arguments: ${issues}`);
}
