// The contract with every stack ever created (docs/upgrading.md), checked on the built package:
// a stored `__provider` requires a shim module of `dist/sdk/providers/` and calls its provider
// methods, or (serialized by value inside this repository) calls the implementation's exports.
// The lists below only ever grow: a name released once is kept forever.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const dist = resolve(__dirname, "../../dist");

/** Every shim module ever released, with the kind it serves ("" for the one every kind shares). */
const RELEASED_SHIMS: Record<string, string> = {
  "any-kind": "",
  "account-settings": "AccountSettings",
  alias: "Alias",
  "custom-domain": "CustomDomain",
  "sub-account": "SubAccount",
  folder: "Folder",
  "folder-options": "FolderOptions",
  "folder-meta": "FolderMeta",
};

/** Every kind name a release has served through the shared shim (its `__mediahostKind`). */
const KINDS_OF_THE_SHARED_SHIM = ["File"];

/** What a stored shim calls on `pulumi-mediahost/provider`. */
const IMPLEMENTATION_EXPORTS = ["configure", "check", "diff", "create", "read", "update", "remove"];

const PROVIDER_METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];

describe("the upgrade contract of the built package", () => {
  it("keeps every shim module ever released, each exporting the provider methods", () => {
    for (const file of Object.keys(RELEASED_SHIMS)) {
      const path = join(dist, "sdk/providers", `${file}.js`);
      expect(existsSync(path), path).toBe(true);
      const shim = require(path) as Record<string, unknown>;
      for (const method of PROVIDER_METHODS)
        expect(typeof shim[method], `${file}.${method}`).toBe("function");
    }
  });

  it("exports every function a stored shim calls, and knows every released kind", () => {
    const impl = require(join(dist, "provider")) as Record<string, unknown> & {
      kinds: Record<string, unknown>;
    };
    for (const name of IMPLEMENTATION_EXPORTS) expect(typeof impl[name], name).toBe("function");
    for (const kind of [...Object.values(RELEASED_SHIMS), ...KINDS_OF_THE_SHARED_SHIM])
      if (kind) expect(impl.kinds[kind], kind).toBeDefined();
  });

  it("is what the package's exports map lets a program require", () => {
    const manifest = require(resolve(__dirname, "../../package.json")) as {
      exports: Record<string, unknown>;
    };
    expect(manifest.exports["./provider"]).toBeDefined();
    expect(manifest.exports["./dist/sdk/providers/*"]).toBe("./dist/sdk/providers/*");
  });

  it("types every subpath for programs that resolve as Node 10 did, which read no exports map", () => {
    // Pulumi's TypeScript template has `moduleResolution: "node"`: `typesVersions` serves it
    const manifest = require(resolve(__dirname, "../../package.json")) as {
      exports: Record<string, { types?: string }>;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    const typed = Object.entries(manifest.exports).flatMap(([path, entry]) =>
      path !== "." && typeof entry === "object" && entry.types
        ? [[path.slice(2), [entry.types.slice(2)]]]
        : [],
    );
    expect(typed.length).toBeGreaterThan(0);
    expect(manifest.typesVersions["*"]).toEqual(Object.fromEntries(typed));
  });
});
