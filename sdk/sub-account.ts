import * as pulumi from "@pulumi/pulumi";
import { ownerInput } from "./owner";

import provider = require("./providers/sub-account");

export interface SubAccountArgs {
  /** The sub-account's alias. Changing it replaces the sub-account. */
  alias: pulumi.Input<string>;
  /** Take over a sub-account that exists already instead of failing. */
  adopt?: pulumi.Input<boolean>;
  account?: pulumi.Input<string>;
}

/**
 * A sub-account (shares the parent's plan). The API cannot list or read sub-accounts, so drift
 * is invisible: refresh keeps the state, and one deleted elsewhere is noticed only on delete.
 */
export class SubAccount extends pulumi.dynamic.Resource {
  declare readonly alias: pulumi.Output<string>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;

  constructor(name: string, args: SubAccountArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { ...args, ...ownerInput(), accountAlias: undefined },
      opts,
      "mediahost",
      "SubAccount",
    );
  }
}
