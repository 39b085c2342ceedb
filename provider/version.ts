// The package's version, from its own package.json: found by walking up from this file, which
// works from the TypeScript source, from dist/ and from an installed copy alike.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "pulumi-mediahost" && pkg.version) return pkg.version;
  }
  return "0.0.0";
}

export const VERSION = packageVersion();
