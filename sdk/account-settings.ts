import * as pulumi from "@pulumi/pulumi";
import { providerFor } from "./provider";

export interface FetchingHttpAuthArgs {
  enabled: pulumi.Input<boolean>;
  username?: pulumi.Input<string>;
  /** Write-only at the service; stored as a secret. */
  password?: pulumi.Input<string>;
}

export interface FetchingArgs {
  enabled: pulumi.Input<boolean>;
  /** Required when enabled. */
  type?: pulumi.Input<"http" | "s3">;
  /** Required when type is "http". */
  http?: pulumi.Input<{ url: pulumi.Input<string>; auth?: pulumi.Input<FetchingHttpAuthArgs> }>;
  /** Required when type is "s3". */
  s3?: pulumi.Input<{
    accessKeyId: pulumi.Input<string>;
    /** Write-only at the service; stored as a secret. */
    secretAccessKey: pulumi.Input<string>;
    bucket: pulumi.Input<string>;
    endpoint?: pulumi.Input<string>;
    prefix?: pulumi.Input<string>;
    forcePathStyle?: pulumi.Input<boolean>;
  }>;
}

export interface AccountSettingsArgs {
  /** Automatic minification of JS and CSS files. */
  minify?: pulumi.Input<{ enabled: pulumi.Input<boolean> }>;
  /** Remote fetching of files missing from the account. */
  fetching?: pulumi.Input<FetchingArgs>;
  /** On delete, turn the managed options off. Default false: delete leaves the account as it is. */
  resetOnDelete?: pulumi.Input<boolean>;
  account?: pulumi.Input<string>;
}

type Plain<T> = pulumi.Unwrap<T>;

/** Marks the write-only credentials of `fetching` as secrets, wherever the program got them from. */
function withSecrets(fetching: Plain<FetchingArgs> | undefined) {
  if (!fetching) return fetching;
  const { http, s3 } = fetching;
  return {
    ...fetching,
    http: http && {
      ...http,
      auth: http.auth && {
        ...http.auth,
        password: http.auth.password === undefined ? undefined : pulumi.secret(http.auth.password),
      },
    },
    s3: s3 && { ...s3, secretAccessKey: pulumi.secret(s3.secretAccessKey) },
  };
}

/**
 * The account singleton's minify and remote-fetching options. Only the groups given are managed.
 * Secrets are write-only at the service, so their drift cannot be seen.
 */
export class AccountSettings extends pulumi.dynamic.Resource {
  declare readonly minify: pulumi.Output<{ enabled: boolean } | undefined>;
  declare readonly fetching: pulumi.Output<Plain<FetchingArgs> | undefined>;
  declare readonly resetOnDelete: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;
  /** The account's CDN host name. */
  declare readonly cdnUrl: pulumi.Output<string | undefined>;

  constructor(name: string, args: AccountSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const fetching =
      args.fetching === undefined ? undefined : pulumi.output(args.fetching).apply(withSecrets);
    super(
      providerFor("AccountSettings"),
      name,
      { ...args, fetching, accountAlias: undefined, cdnUrl: undefined },
      opts,
      "mediahost",
      "AccountSettings",
    );
  }
}
