// The FolderMeta provider shim of release 0.1.0, kept for the stacks it made (docs/upgrading.md): their
// state holds `require("pulumi-mediahost/dist/sdk/providers/folder-meta.js")`. Resources made since
// use the shim every kind shares (any-kind.ts).
import { providerFor } from "../provider";

export = providerFor("FolderMeta");
