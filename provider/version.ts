// The package's version and the `@pulumi/pulumi` range it supports, from its own package.json:
// found by walking up from this file, which works from the TypeScript source, from dist/ and from
// an installed copy alike.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  pulumi?: { server?: string };
}

function manifest(): Manifest {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    if (pkg.name === "pulumi-mediahost") return pkg;
  }
  return {};
}

const own = manifest();
export const VERSION = own.version ?? "0.0.0";
/** The `@pulumi/pulumi` versions the package supports, as its package.json declares them. */
export const PULUMI_RANGE = own.dependencies?.["@pulumi/pulumi"] ?? "^3.216.0";
/**
 * Where the Pulumi CLI downloads the plugin `pulumi-resource-mediahost` when it has none
 * (`pulumi.server`, a URL template with `${VERSION}`, `${OS}`, `${ARCH}`; docs/releasing.md).
 */
export const PLUGIN_DOWNLOAD_URL = own.pulumi?.server;
