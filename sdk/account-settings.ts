import * as pulumi from "@pulumi/pulumi";

import provider = require("./providers/account-settings");

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

/**
 * `fetching` without its write-only credentials, and the credentials alone. They travel as two
 * properties because Pulumi keeps dynamic-provider secrets per top-level property: inside
 * `fetching` they would hide every fetching field (and its drift) behind "[secret]".
 */
function splitSecrets(fetching: pulumi.Input<FetchingArgs>) {
  const whole = pulumi.output(fetching);
  const plain = whole.apply((f) => {
    const copy = structuredClone(f) as {
      http?: { auth?: { password?: string } };
      s3?: { secretAccessKey?: string };
    };
    delete copy.http?.auth?.password;
    delete copy.s3?.secretAccessKey;
    return copy as Plain<FetchingArgs>;
  });
  const secrets = whole.apply((f) => ({
    httpPassword: f.http?.auth?.password,
    s3SecretAccessKey: f.s3?.secretAccessKey,
  }));
  // what is left once the credentials are out is not secret, even if they made the whole input so
  return { fetching: pulumi.unsecret(plain), fetchingSecrets: pulumi.secret(secrets) };
}

/**
 * The account singleton's minify and remote-fetching options. Only the groups given are managed.
 * Secrets are write-only at the service, so their drift cannot be seen.
 */
export class AccountSettings extends pulumi.dynamic.Resource {
  declare readonly minify: pulumi.Output<{ enabled: boolean } | undefined>;
  /** The fetching options, without the write-only credentials. */
  declare readonly fetching: pulumi.Output<Plain<FetchingArgs> | undefined>;
  declare readonly resetOnDelete: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;
  /** The account's CDN host name. */
  declare readonly cdnUrl: pulumi.Output<string | undefined>;

  constructor(name: string, args: AccountSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const split = args.fetching === undefined ? {} : splitSecrets(args.fetching);
    super(
      provider,
      name,
      { ...args, ...split, accountAlias: undefined, cdnUrl: undefined },
      opts,
      "mediahost",
      "AccountSettings",
    );
  }
}
