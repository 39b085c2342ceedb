import * as pulumi from "@pulumi/pulumi";

import provider = require("./providers/folder-options");

export interface FolderOptionsArgs {
  /** The folder's absolute path. Changing it replaces the resource. */
  path: pulumi.Input<string>;
  /** Detect 360 spins in the folder. */
  scanSpins?: pulumi.Input<boolean>;
  /** Name detected spins after the folder. */
  nameSpinsAfterFolder?: pulumi.Input<boolean>;
  /** Allow public listing of the folder. */
  allowListing?: pulumi.Input<boolean>;
  account?: pulumi.Input<string>;
}

/** The options of one folder. Only the options given are managed; deleting leaves them as they are (the API cannot unset an option). */
export class FolderOptions extends pulumi.dynamic.Resource {
  declare readonly path: pulumi.Output<string>;
  declare readonly scanSpins: pulumi.Output<boolean | undefined>;
  declare readonly nameSpinsAfterFolder: pulumi.Output<boolean | undefined>;
  declare readonly allowListing: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;

  constructor(name: string, args: FolderOptionsArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args, accountAlias: undefined }, opts, "mediahost", "FolderOptions");
  }
}
