import * as pulumi from "@pulumi/pulumi";
import { ownerInput } from "./owner";

import provider = require("./providers/folder");

export interface FolderArgs {
  /** Absolute path, e.g. `/products/shoes`. Missing parents are created; only this folder is managed. Changing it replaces the folder. */
  path: pulumi.Input<string>;
  /** Delete the folder with everything in it (emptied with a batch delete job). Default false: deleting a non-empty folder fails. */
  forceDestroy?: pulumi.Input<boolean>;
  /** Take over a folder that exists already instead of failing. */
  adopt?: pulumi.Input<boolean>;
  /** A name under `mediahost:accounts`; the top-level `mediahost:*` credentials when absent. Changing it replaces the folder. */
  account?: pulumi.Input<string>;
}

/** A folder of the account's file tree. */
export class Folder extends pulumi.dynamic.Resource {
  declare readonly path: pulumi.Output<string>;
  declare readonly forceDestroy: pulumi.Output<boolean | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  /** The alias of the account the folder was created in. */
  declare readonly accountAlias: pulumi.Output<string>;
  /** Where the folder is served on the CDN. */
  declare readonly cdnUrl: pulumi.Output<string | undefined>;

  constructor(name: string, args: FolderArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { ...args, ...ownerInput(), accountAlias: undefined, cdnUrl: undefined },
      opts,
      "mediahost",
      "Folder",
    );
  }
}
