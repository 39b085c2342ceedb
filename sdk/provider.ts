// The provider objects Pulumi serializes into every resource's `__provider`. They are stable,
// tiny shims: each method forwards to the implementation, which it `require`s at run time from
// the installed package. Nothing else is captured: no implementation code, no schema, no
// credentials (those arrive through `configure()`).
//
// Every state ever written names one of these shims (docs/upgrading.md): resources made since
// 0.2.0 share `providers/any-kind.js`, whose methods take the kind from the resource's hidden
// `__mediahostKind` property; resources made by 0.1.0 name one shim per kind, which pass their kind.
import type * as pulumi from "@pulumi/pulumi";

/** One shim per kind (and one for every kind), reused, so Pulumi serializes each only once. */
const shims = new Map<string | undefined, pulumi.dynamic.ResourceProvider>();

export function providerFor(kind?: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    shim = {
      configure: async (req) => impl().configure(req),
      check: async (olds, news) => impl().check(kind, olds, news),
      diff: async (id, olds, news) => impl().diff(kind, id, olds, news),
      create: async (inputs) => impl().create(kind, inputs),
      read: async (id, props) => impl().read(kind, id, props),
      update: async (id, olds, news) => impl().update(kind, id, olds, news),
      delete: async (id, props) => impl().remove(kind, id, props),
    };
    shims.set(kind, shim);
  }
  return shim;
}

type Implementation = typeof import("../provider");
let implementation: Implementation | undefined;

/**
 * The implementation, loaded once per provider process with Node's compile cache on: its modules
 * and zod compile from cached code after the first run. Once it has loaded, V8's young generation
 * is held at the size @pulumi/pulumi's start-up gave it: the objects the implementation makes as
 * it loads would have V8 double it, and keep the process larger for the rest of the run
 * (docs/benchmark.md, "What dominates", 6). The flag is the process's, which only dynamic
 * providers share. (This module is serialized by value for programs inside this repository,
 * where every byte of it is in each resource's state: hence no helper.)
 */
function impl(): Implementation {
  if (implementation) return implementation;
  const loader = require("node:module") as {
    enableCompileCache?: () => unknown;
    flushCompileCache?: () => void;
  };
  loader.enableCompileCache?.();
  try {
    implementation = locate();
  } finally {
    // the engine stops its plugins with a signal, before Node would write the cache at exit
    loader.flushCompileCache?.();
  }
  (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--semi-space-growth-factor=1");
  return implementation;
}

/**
 * The implementation, resolved from the program's directory (the dynamic provider's working
 * directory). A program inside this package's own repository (the quickstart, the examples)
 * has no node_modules/pulumi-mediahost, so the package is found by walking up instead.
 */
function locate(): Implementation {
  try {
    return require("pulumi-mediahost/provider");
  } catch (err) {
    if ((err as { code?: string }).code !== "MODULE_NOT_FOUND" || !String(err).includes("pulumi-mediahost"))
      throw err;
    const path = require("node:path");
    const fs = require("node:fs");
    for (let dir = process.cwd(); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const manifest = path.join(dir, "package.json");
      if (
        fs.existsSync(manifest) &&
        JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-mediahost"
      ) {
        return require(path.join(dir, "dist", "provider"));
      }
    }
    throw err;
  }
}
