import * as pulumi from "@pulumi/pulumi";

import provider = require("./providers/folder-meta");

export interface FolderMetaArgs {
  /** Absolute path of the folder (or file). Changing it replaces the resource. */
  path: pulumi.Input<string>;
  /** At most 256 characters. */
  title?: pulumi.Input<string>;
  /** At most 1024 characters; for images it is the alt text. */
  description?: pulumi.Input<string>;
  /** At most 50 distinct tags of at most 32 characters; compared as a set. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  account?: pulumi.Input<string>;
}

/** Title, description and tags of a folder or file. Only the fields given are managed; deleting clears them. */
export class FolderMeta extends pulumi.dynamic.Resource {
  declare readonly path: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string | undefined>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly tags: pulumi.Output<string[] | undefined>;
  declare readonly account: pulumi.Output<string | undefined>;
  declare readonly accountAlias: pulumi.Output<string>;

  constructor(name: string, args: FolderMetaArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args, accountAlias: undefined }, opts, "mediahost", "FolderMeta");
  }
}
