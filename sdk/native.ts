// pulumi-mediahost/native: the native face's SDK for TypeScript programs. The same resource
// classes (arguments, outputs) as the dynamic face's, served by the provider plugin
// `pulumi-resource-mediahost` (type tokens `mediahost:index:<Kind>`), a `Provider` class for
// explicit provider instances, and the data functions run by the plugin.
//
//   import * as mediahost from "pulumi-mediahost/native";
//   const eu = new mediahost.Provider("eu", { baseUrl, clientId, clientSecret });
//   new mediahost.Folder("media", { path: "/media" }, { provider: eu });
import * as pulumi from "@pulumi/pulumi";
import { dataFunctionsOn } from "./functions";
import { PLUGIN_OPTIONS } from "./resource";
import { native } from "./resources";

/** One account's credentials under a provider's `accounts`. */
export interface AccountCredentials {
  /** The API's base URL (default: the provider's `baseUrl`). */
  baseUrl?: string;
  clientId: string;
  clientSecret: string;
}

export interface ProviderArgs {
  /** The API's base URL (`https://…`; plain `http://` only for loopback). Default: MEDIAHOST_BASE_URL. */
  baseUrl?: pulumi.Input<string>;
  /** API client ID. Default: MEDIAHOST_CLIENT_ID. */
  clientId?: pulumi.Input<string>;
  /** API client secret (always kept secret). Default: MEDIAHOST_CLIENT_SECRET. */
  clientSecret?: pulumi.Input<string>;
  /** Several accounts through one provider: resources pick one with `account: <name>` (kept secret). */
  accounts?: pulumi.Input<Record<string, AccountCredentials>>;
  /** Each API operation's deadline, retries included (default 30). */
  operationTimeoutSeconds?: pulumi.Input<number>;
  /** How long a call may wait for an exhausted rate-limit counter (default 60; 0 never waits). */
  maxRateLimitWaitSeconds?: pulumi.Input<number>;
  /** The share of each rate-limit counter's hourly limit one run may spend (percent; default: no bound). */
  rateBudgetPercent?: pulumi.Input<number>;
}

/**
 * An instance of the native provider: one account (or several, under `accounts`). Resources
 * reach it with `{ provider }`; without one they use the default provider, configured by the
 * stack's `mediahost:*` config as the dynamic face is.
 */
export class Provider extends pulumi.ProviderResource {
  static readonly __pulumiType = "mediahost";

  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const secret = <T>(value: pulumi.Input<T> | undefined) =>
      value === undefined ? undefined : pulumi.secret(value);
    super(
      "mediahost",
      name,
      {
        ...args,
        clientSecret: secret(args.clientSecret),
        accounts:
          args.accounts === undefined
            ? undefined
            : secret(pulumi.output(args.accounts).apply(JSON.stringify)),
      },
      { ...PLUGIN_OPTIONS, ...opts },
    );
  }
}

type Declarations = typeof import("../provider/functions");
let declarations: Declarations | undefined;

const functions = dataFunctionsOn(async (name, args, opts) => {
  const token = `mediahost:index:${name}`;
  const result = (await pulumi.runtime
    .invoke(token, args, { ...PLUGIN_OPTIONS, ...opts })
    .catch((err: Error) => {
      // the plugin's message is the line to show: without the engine's wrapping of it, and as a
      // RunError, which the program's host prints as it is, with no stack
      throw new pulumi.RunError(err.message.replace(`invocation of ${token} returned an error: `, ""));
    })) as Record<string, unknown>;
  // which results are secrets, as the function declares it (loaded on the first call)
  declarations ??= require("../provider/functions") as Declarations;
  for (const key of declarations.dataFunctions[name].secrets ?? []) result[key] = pulumi.secret(result[key]);
  return result;
});

// exports:start (made by `npm run docs` from provider/resources and provider/functions.ts)
export const {
  AccountSettings,
  Alias,
  CustomDomain,
  File,
  Folder,
  FolderMeta,
  FolderOptions,
  PointOfInterest,
  SubAccount,
} = native;
export type AccountSettings = native.AccountSettings;
export type Alias = native.Alias;
export type CustomDomain = native.CustomDomain;
export type File = native.File;
export type Folder = native.Folder;
export type FolderMeta = native.FolderMeta;
export type FolderOptions = native.FolderOptions;
export type PointOfInterest = native.PointOfInterest;
export type SubAccount = native.SubAccount;
export type {
  AccountSettingsArgs,
  AliasArgs,
  CustomDomainArgs,
  FileArgs,
  FolderArgs,
  FolderMetaArgs,
  FolderOptionsArgs,
  PointOfInterestArgs,
  SubAccountArgs,
} from "./resources";
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
