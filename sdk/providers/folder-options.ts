// The FolderOptions provider shim as this module's whole export: Pulumi then serializes it as
// `require("pulumi-mediahost/dist/sdk/providers/folder-options.js")` when the package is installed.
import { providerFor } from "../provider";

export = providerFor("FolderOptions");
