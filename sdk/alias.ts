import * as pulumi from "@pulumi/pulumi";
import { ownerInput } from "./owner";

import provider = require("./providers/alias");

export interface AliasArgs {
  /** The alias name (1-63 letters, digits, '-' or '_'). Changing it replaces the alias. */
  name: pulumi.Input<string>;
  /** Path prefix the alias serves. */
  prefix?: pulumi.Input<string>;
  /** Serve the alias through the CDN. */
  cdn?: pulumi.Input<boolean>;
  /** Default image profile. */
  defaultProfile?: pulumi.Input<string>;
  /** Take over an alias that exists already instead of failing. */
  adopt?: pulumi.Input<boolean>;
  account?: pulumi.Input<string>;
}

/**
 * One address alias of the account. Only the fields given are managed. Writes of several aliases
 * in one run are coalesced into one account update. The API cannot delete an alias: on delete
 * the map is written without it and read back; if the service kept it, a warning says so.
 */
export class Alias extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly prefix: pulumi.Output<string | undefined>;
  declare readonly cdn: pulumi.Output<boolean | undefined>;
  declare readonly defaultProfile: pulumi.Output<string | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;
  /** The custom CDN domain the service reports for this alias, if any. */
  declare readonly customDomain: pulumi.Output<string | undefined>;

  constructor(name: string, args: AliasArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { ...args, ...ownerInput(), accountAlias: undefined, customDomain: undefined },
      opts,
      "mediahost",
      "Alias",
    );
  }
}
