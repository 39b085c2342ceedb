// The benchmark's Pulumi program (plain CommonJS, so no TypeScript compile is timed), written into
// a temporary project outside the repository. Stack config `bench:mode` picks what it declares:
//   ours      N Folders, each with FolderOptions and FolderMeta, one AccountSettings, 20 Aliases
//   native    the same resources on the native face (pulumi-mediahost/native, served by the plugin)
//   files     one Folder and N Files of 100 KB, each from a local file (FileAsset)
//   media     one Folder and N Files of 1 KB (local files), each with a FolderMeta (title, tags, product,
//             approval) and two PointOfInterest resources ("face" and "logo") on the File's path;
//             `bench:face` native puts it on the native face
//   baseline  the same resources and dependencies as trivial dynamic resources whose operations
//             only wait: BENCH_LATENCY_MS times the API calls the minimum model allows for that
//             operation (see MIN_CALLS), so ours/baseline is the provider's overhead.

export const ALIASES = 20;
/** Size of each local file of the media program (its calls are what it measures, not its bytes). */
export const MEDIA_FILE_BYTES = 1024;

/**
 * Sequential API calls the minimum model needs per resource operation (the floor a perfect
 * provider would wait for). Shared account calls (token, account GET, the one coalesced account
 * update) are counted once per run in the API-call minimum, and here as one wait per operation
 * because every operation waits for them.
 */
export const MIN_CALLS = {
  // a folder's read waits for its parent's listing page (shared by its siblings)
  folder: { create: 1, read: 1, update: 0, delete: 1 },
  // options are written whole: the write and its read-back
  options: { create: 2, read: 1, update: 3, delete: 0 },
  meta: { create: 2, read: 1, update: 2, delete: 2 },
  alias: { create: 1, read: 1, update: 1, delete: 1 },
  settings: { create: 1, read: 1, update: 1, delete: 1 },
} as const;

/** The baseline's provider for one kind: the module's whole export, as ours. */
export function baselineModule(kind: keyof typeof MIN_CALLS): string {
  return `"use strict";
const calls = ${JSON.stringify(MIN_CALLS[kind])};
const wait = (op) => new Promise((r) => setTimeout(r, Number(process.env.BENCH_LATENCY_MS || 0) * calls[op]));
module.exports = {
  async create(inputs) { await wait("create"); return { id: inputs.key, outs: inputs }; },
  async read(id, props) { await wait("read"); return { id, props }; },
  async diff() { return { changes: false }; },
  async update(id, olds, news) { await wait("update"); return { outs: news }; },
  async delete() { await wait("delete"); },
};
`;
}

export const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config("bench");
const n = config.requireNumber("n");
const mode = config.require("mode");
const ALIASES = ${ALIASES};

if (mode === "ours" || mode === "native") {
  const mh = require(mode === "native" ? "pulumi-mediahost/native" : "pulumi-mediahost");
  new mh.AccountSettings("settings", { minify: { enabled: true }, resetOnDelete: true });
  for (let i = 0; i < ALIASES; i++) {
    new mh.Alias("alias-" + i, { name: "bench" + i, prefix: "/bench-" + i, cdn: true });
  }
  for (let i = 0; i < n; i++) {
    const folder = new mh.Folder("f" + i, { path: "/bench-" + i });
    new mh.FolderOptions("f" + i + "-options", { path: folder.path, scanSpins: true });
    new mh.FolderMeta("f" + i + "-meta", { path: folder.path, title: "Folder " + i, tags: ["bench"] });
  }
} else if (mode === "files") {
  const fs = require("fs");
  const mh = require("pulumi-mediahost");
  fs.mkdirSync("bench-files", { recursive: true });
  const folder = new mh.Folder("files", { path: "/bench-files" });
  for (let i = 0; i < n; i++) {
    const local = "bench-files/f" + i + ".bin";
    if (!fs.existsSync(local)) fs.writeFileSync(local, Buffer.alloc(${100 * 1024}, i % 251));
    new mh.File("file-" + i, { path: "/bench-files/f" + i + ".bin", source: new pulumi.asset.FileAsset(local) }, { dependsOn: [folder] });
  }
} else if (mode === "media") {
  const fs = require("fs");
  const mh = require(config.get("face") === "native" ? "pulumi-mediahost/native" : "pulumi-mediahost");
  fs.mkdirSync("bench-media", { recursive: true });
  const folder = new mh.Folder("media", { path: "/bench-media" });
  for (let i = 0; i < n; i++) {
    const local = "bench-media/m" + i + ".jpg";
    if (!fs.existsSync(local)) fs.writeFileSync(local, Buffer.alloc(${MEDIA_FILE_BYTES}, i % 251));
    const file = new mh.File("media-" + i, { path: "/bench-media/m" + i + ".jpg", source: new pulumi.asset.FileAsset(local) }, { dependsOn: [folder] });
    new mh.FolderMeta("media-" + i + "-meta", {
      path: file.path,
      title: "Product shot " + i,
      tags: ["bench", "product"],
      product: { id: "sku-" + i },
      approval: { approved: true },
    });
    new mh.PointOfInterest("media-" + i + "-face", { path: file.path, name: "face", x: 0.1, y: 0.1, width: 0.3, height: 0.4 });
    new mh.PointOfInterest("media-" + i + "-logo", { path: file.path, name: "logo", x: 0.6, y: 0.75, width: 0.35, height: 0.2 });
  }
} else {
  // installed modules, so each provider is serialized as a require() like ours (see setup.ts)
  const providers = {};
  for (const kind of ${JSON.stringify(Object.keys(MIN_CALLS))}) providers[kind] = require("bench-baseline/" + kind + ".js");
  const res = (kind, name, props) =>
    new pulumi.dynamic.Resource(providers[kind], name, Object.assign({ key: name }, props), {}, "bench", kind);
  res("settings", "settings", { minify: { enabled: true } });
  for (let i = 0; i < ALIASES; i++) res("alias", "alias-" + i, { name: "bench" + i });
  for (let i = 0; i < n; i++) {
    const folder = res("folder", "f" + i, { path: "/bench-" + i });
    res("options", "f" + i + "-options", { path: folder.path, scanSpins: true });
    res("meta", "f" + i + "-meta", { path: folder.path, title: "Folder " + i, tags: ["bench"] });
  }
}
`;
