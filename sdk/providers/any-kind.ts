// The provider shim every resource kind shares since 0.2.0, as this module's whole export: Pulumi
// then serializes it as `require("pulumi-mediahost/dist/sdk/providers/any-kind.js")` when the
// package is installed. Its methods take the kind from the resource's `__mediahostKind` property.
import { providerFor } from "../provider";

export = providerFor();
