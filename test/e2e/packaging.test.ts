// The installed-package path real users get: `npm pack`, then a fresh Pulumi project OUTSIDE the
// repository that depends on the tarball, installed with npm, `pulumi up` against the emulator.
// In its state every resource's `__provider` is a tiny `require("pulumi-mediahost/dist/sdk/
// providers/<kind>.js")` reference (inside the repository the provider is serialized by value,
// ~3 KB, which is expected), and each resource's whole state is small.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PackedFile, pack, run } from "./helpers/package";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const PROGRAM = `"use strict";
// A user's program: plain JavaScript, the package installed from its tarball.
const mediahost = require("pulumi-mediahost");

const media = new mediahost.Folder("media", { path: "/packaged" });
const opts = new mediahost.FolderOptions("media-options", { path: media.path, allowListing: true });
const meta = new mediahost.FolderMeta("media-meta", { path: media.path, title: "Packaged", tags: ["npm"] });
new mediahost.Alias("cdn", { name: "packaged", prefix: "/packaged", cdn: true });

exports.url = media.cdnUrl;
exports.title = meta.title;
exports.listing = opts.allowListing;
`;

describe("the npm package, installed from its tarball into a fresh project", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let dir: string;
  let files: PackedFile[];
  let tarball: string;
  let p: Project;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-packaging-"));
    ({ tarball, files } = await pack(repoRoot, dir, toolchain.env));
  });
  afterAll(async () => {
    await p?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ships dist (provider, sdk, emulator) with types, README and LICENSE, and nothing else of size", () => {
    const paths = files.map((f) => f.path);
    for (const must of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/sdk/index.js",
      "dist/sdk/index.d.ts",
      "dist/sdk/providers/folder.js",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/emulator/index.js",
      "dist/emulator/cli.js",
    ]) {
      expect(paths, must).toContain(must);
    }
    expect(paths.filter((x) => x.endsWith(".map"))).toEqual([]);
    expect(paths.filter((x) => /(^|\/)(test|tests|examples|scripts|node_modules)\//.test(x))).toEqual([]);
    const outsideDist = files.filter((f) => !f.path.startsWith("dist/"));
    expect(outsideDist.map((f) => f.path).sort()).toEqual(["LICENSE", "README.md", "package.json"]);
    const total = files.reduce((n, f) => n + f.size, 0);
    console.log(`npm pack: ${files.length} files, ${(total / 1024).toFixed(0)} KiB unpacked`);
    expect(total).toBeLessThan(2 << 20);
  });

  it("installs into a fresh project outside the repository and runs `pulumi up` from it", async () => {
    const project = join(dir, "user-project");
    await run("mkdir", ["-p", project], dir, toolchain.env);
    const sdkVersion = JSON.parse(
      await readFile(join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
    ).version as string;
    await writeFile(
      join(project, "package.json"),
      JSON.stringify(
        {
          name: "user-project",
          private: true,
          main: "index.js",
          dependencies: { "@pulumi/pulumi": sdkVersion, "pulumi-mediahost": `file:${tarball}` },
        },
        null,
        2,
      ),
    );
    await writeFile(
      join(project, "Pulumi.yaml"),
      "name: packaged-user\nruntime: nodejs\ndescription: a user's project using the packed pulumi-mediahost\n",
    );
    await writeFile(join(project, "index.js"), PROGRAM);
    const started = Date.now();
    await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
      project,
      toolchain.env,
    );
    console.log(`npm install: ${((Date.now() - started) / 1000).toFixed(1)}s`);
    const installed = JSON.parse(
      await readFile(join(project, "node_modules/pulumi-mediahost/package.json"), "utf8"),
    ) as { name: string };
    expect(installed.name).toBe("pulumi-mediahost");

    p = await openProject(toolchain, { workDir: project });
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create).toBe(5); // 4 resources and the stack
    expect(up.outputs.url?.value).toMatch(/^https:\/\/.+\/packaged$/);
    const state = p.emulator.control.state() as {
      tree: { path: string }[];
      meta: Record<string, { title?: string }>;
      options: Record<string, { allowListing?: boolean }>;
      account: { aliases: Record<string, unknown> };
    };
    expect(state.tree.map((e) => e.path)).toContain("/packaged");
    expect(state.meta["/packaged"]?.title).toBe("Packaged");
    expect(state.options["/packaged"]?.allowListing).toBe(true);
    expect(state.account.aliases.packaged).toMatchObject({ prefix: "/packaged", cdn: true });
  });

  it("stores each provider as a tiny module reference, and each resource's state is small", async () => {
    const saved = (await p.stateFile()) as {
      checkpoint: {
        latest: {
          resources: { urn: string; type: string; inputs?: { __provider?: string }; outputs?: unknown }[];
        };
      };
    };
    const resources = saved.checkpoint.latest.resources.filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/"),
    );
    expect(resources.map((r) => r.type.split(":").pop()).sort()).toEqual([
      "Alias",
      "Folder",
      "FolderMeta",
      "FolderOptions",
    ]);
    const kinds: Record<string, string> = {
      Alias: "alias",
      Folder: "folder",
      FolderMeta: "folder-meta",
      FolderOptions: "folder-options",
    };
    for (const r of resources) {
      const kind = r.type.split(":").pop()!;
      const provider = r.inputs?.__provider ?? "";
      const size = JSON.stringify(r).length;
      console.log(`${kind.padEnd(14)} __provider ${provider.length} B, resource state ${size} B`);
      expect(provider).toContain(`require("pulumi-mediahost/dist/sdk/providers/${kinds[kind]}.js")`);
      expect(provider.length, kind).toBeLessThan(2048);
      expect(size, kind).toBeLessThan(3072);
    }
  });

  it("destroys what it made from the installed package", async () => {
    const destroyed = await p.stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    const state = p.emulator.control.state() as { tree: { path: string }[]; meta: Record<string, unknown> };
    expect(state.tree.map((e) => e.path)).not.toContain("/packaged");
    expect(state.meta).toEqual({});
  });
});
