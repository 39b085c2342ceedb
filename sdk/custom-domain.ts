import * as pulumi from "@pulumi/pulumi";
import { ownerInput } from "./owner";

import provider = require("./providers/custom-domain");

export interface CustomDomainArgs {
  /** The alias the domain serves. Changing it replaces the domain. */
  alias: pulumi.Input<string>;
  /** Host name such as `img.example.com`. Changing it replaces the domain (the old one is removed first). */
  domain: pulumi.Input<string>;
  /** Take over the domain if the alias carries it already. */
  adopt?: pulumi.Input<boolean>;
  account?: pulumi.Input<string>;
}

/** A custom CDN domain of an alias, read back from the alias entry. */
export class CustomDomain extends pulumi.dynamic.Resource {
  declare readonly alias: pulumi.Output<string>;
  declare readonly domain: pulumi.Output<string>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;

  constructor(name: string, args: CustomDomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { ...args, ...ownerInput(), accountAlias: undefined },
      opts,
      "mediahost",
      "CustomDomain",
    );
  }
}
