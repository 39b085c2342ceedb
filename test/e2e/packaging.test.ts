// The installed-package path real users get: `npm pack`, then a fresh Pulumi project OUTSIDE the
// repository that depends on the tarball, installed with npm next to a given `@pulumi/pulumi`.
// The provider is declared the way Pulumi's own packages declare the SDK (a caret range from the
// oldest version it supports), so it is tried next to the newest version the registry offers and
// next to that oldest one: `up`, a refresh preview and `destroy` must work with each, with a single
// copy of the SDK installed. In the state every resource's `__provider` is a tiny
// `require("pulumi-mediahost/dist/sdk/providers/any-kind.js")`. The emulator is a package of its own:
// its tarball, installed alone into an empty directory, starts with `npx mediahost-emulator`.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedCopies, npmInstall, type PackedFile, pack, packProvider, run } from "./helpers/package";
import { openProject } from "./helpers/project";
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

const NATIVE_PROGRAM = `"use strict";
// A user's program on the native face: the plugin comes with the package.
const mediahost = require("pulumi-mediahost/native");

const media = new mediahost.Folder("media", { path: "/native" });
new mediahost.FolderMeta("media-meta", { path: media.path, title: "Native" });
exports.url = media.cdnUrl;
`;

interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  engines: { node: string };
}

/** Bytes of every file under `dir` (what a package costs on disk once installed). */
async function diskBytes(dir: string, env: Record<string, string>): Promise<number> {
  return Number((await run("du", ["-sb", dir], dir, env)).split("\t")[0]);
}

describe("the npm packages, installed from their tarballs into fresh projects", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as Manifest;
  const oldest = /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies["@pulumi/pulumi"] ?? "")?.[1];
  let dir: string;
  let files: PackedFile[];
  let contract: string;
  let dependencies: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-packaging-"));
    ({ files, contract, dependencies } = await packProvider(dir, toolchain.env));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("declares @pulumi/pulumi as a caret range from the oldest supported version, and only what the provider needs", () => {
    expect(oldest, "a caret range such as ^3.216.0").toBeDefined();
    // the API contract (a package of this repository), a lock per object written whole,
    // tus-js-client for large files (File); nothing of the emulator, and HTTP is Node.js's own
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@pulumi/pulumi",
      "async-mutex",
      "mediahost-contract",
      "tus-js-client",
      "zod",
    ]);
    expect(manifest.engines.node).toMatch(/^>=\d+\.\d+\.\d+$/);
  });

  it("ships the provider, SDK and tools with types, README, CHANGELOG and LICENSE, and no emulator code", () => {
    const paths = files.map((f) => f.path);
    for (const must of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
      "dist/sdk/index.js",
      "dist/sdk/index.d.ts",
      "dist/sdk/providers/folder.js",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/tools/drift.js",
      "dist/provider/native/schema.json",
      "dist/sdk/legacy/index.d.ts",
      "dist/sdk/legacy/native.d.ts",
      "plugin/pulumi-resource-mediahost",
    ]) {
      expect(paths, must).toContain(must);
    }
    expect(paths.filter((x) => x.includes("emulator"))).toEqual([]);
    expect(paths.filter((x) => x.endsWith(".map"))).toEqual([]);
    // the example policy pack, which users run from the installed package, and no other example
    expect(paths.filter((x) => /(^|\/)(test|tests|examples|scripts|node_modules)\//.test(x)).sort()).toEqual([
      "examples/policy-pack/PulumiPolicy.yaml",
      "examples/policy-pack/index.js",
      "examples/policy-pack/package.json",
    ]);
    const outsideDist = files.filter((f) => !f.path.startsWith("dist/") && !f.path.startsWith("examples/"));
    expect(outsideDist.map((f) => f.path).sort()).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "package.json",
      "plugin/pulumi-resource-mediahost",
    ]);
    const total = files.reduce((n, f) => n + f.size, 0);
    console.log(`npm pack (provider): ${files.length} files, ${(total / 1024).toFixed(0)} KiB unpacked`);
    expect(total).toBeLessThan(1 << 20);
  });

  const newest = (await run("npm", ["view", "@pulumi/pulumi", "version"], repoRoot, toolchain.env)).trim();
  const versions = [...new Set([newest, oldest ?? "(none)"])];
  describe.each(versions)("next to @pulumi/pulumi %s", (sdkVersion) => {
    let project: string;
    let p: Awaited<ReturnType<typeof openProject>> | undefined;
    afterAll(async () => {
      await p?.dispose();
    });

    it("installs with a single copy of the SDK", async () => {
      project = join(dir, `user-project-${sdkVersion}`);
      await mkdir(project, { recursive: true });
      await writeFile(
        join(project, "package.json"),
        JSON.stringify(
          {
            name: "user-project",
            private: true,
            main: "index.js",
            dependencies: { "@pulumi/pulumi": sdkVersion, ...dependencies },
          },
          null,
          2,
        ),
      );
      await writeFile(join(project, "Pulumi.yaml"), "name: packaged-user\nruntime: nodejs\n");
      await writeFile(join(project, "index.js"), PROGRAM);
      const started = Date.now();
      await npmInstall(project, [], toolchain.env);
      console.log(
        `npm install next to @pulumi/pulumi ${sdkVersion}: ${((Date.now() - started) / 1000).toFixed(1)}s`,
      );
      expect(await installedCopies(project, "@pulumi/pulumi", toolchain.env)).toEqual([
        `@pulumi/pulumi@${sdkVersion}`,
      ]);
      // the program's SDK is the provider's too: none nested under the provider
      expect(existsSync(join(project, "node_modules/pulumi-mediahost/node_modules/@pulumi"))).toBe(false);
      const installed = join(project, "node_modules/pulumi-mediahost");
      const nested = existsSync(join(installed, "node_modules"))
        ? await diskBytes(join(installed, "node_modules"), toolchain.env)
        : 0;
      const own = (await diskBytes(installed, toolchain.env)) - nested;
      console.log(
        `installed size of pulumi-mediahost: ${(own / 1024).toFixed(0)} KiB, plus ${(nested / 1024).toFixed(0)} KiB of dependencies npm nested under it`,
      );
      expect(own).toBeLessThan(1 << 20);
    });

    it("runs up, a quiet refresh preview and destroy", async () => {
      p = await openProject(toolchain, { workDir: project });
      const up = await p.stack.up();
      expect(up.summary.resourceChanges?.create).toBe(5); // 4 resources and the stack
      expect(up.outputs.url?.value).toMatch(/^https:\/\/.+\/packaged$/);
      const state = p.emulator.control.state();
      expect(state.tree.map((e) => e.path)).toContain("/packaged");
      expect(state.meta["/packaged"]?.title).toBe("Packaged");
      expect(state.options["/packaged"]?.allowListing).toBe(true);
      expect(state.account.aliases?.packaged).toMatchObject({ prefix: "/packaged", cdn: true });

      const saved = (await p.stateFile()) as {
        checkpoint: { latest: { resources: { type: string; inputs?: { __provider?: string } }[] } };
      };
      const resources = saved.checkpoint.latest.resources.filter((r) =>
        r.type.startsWith("pulumi-nodejs:dynamic/"),
      );
      expect(resources).toHaveLength(4);
      for (const r of resources) {
        const kind = r.type.split(":").pop()!;
        const provider = r.inputs?.__provider ?? "";
        expect(provider).toContain('require("pulumi-mediahost/dist/sdk/providers/any-kind.js")');
        expect(provider.length, kind).toBeLessThan(2048);
        expect(JSON.stringify(r).length, kind).toBeLessThan(3072);
      }

      const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: 5 });
      const destroyed = await p.stack.destroy();
      expect(destroyed.summary.result).toBe("succeeded");
      const after = p.emulator.control.state();
      expect(after.tree.map((e) => e.path)).not.toContain("/packaged");
      expect(after.meta).toEqual({});
    });
  });

  it("brings the native plugin at the package's version: a fresh project finds it offline through Pulumi.yaml, as the README says", async () => {
    const project = join(dir, "native-project");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "native-project", private: true, main: "index.js", dependencies }, null, 2),
    );
    // the two lines the README's "Two faces" section tells users to add
    await writeFile(
      join(project, "Pulumi.yaml"),
      "name: native-user\nruntime: nodejs\nplugins:\n  providers:\n    - name: mediahost\n      path: ./node_modules/pulumi-mediahost/plugin\n",
    );
    await writeFile(join(project, "index.js"), NATIVE_PROGRAM);
    await npmInstall(project, [], toolchain.env);
    const p = await openProject(toolchain, { workDir: project });
    try {
      const up = await p.stack.up();
      expect(up.summary.result).toBe("succeeded");
      const s = p.emulator.control.state();
      expect(s.meta["/native"]?.title).toBe("Native");
      const saved = (await p.stateFile()) as {
        checkpoint: {
          latest: {
            resources: { type: string }[];
          };
        };
      };
      expect(
        saved.checkpoint.latest.resources.filter((r) => r.type.startsWith("mediahost:index:")),
      ).toHaveLength(2);
      // the plugin the project found is this package's: its schema names the package's version
      const manifest = JSON.parse(
        await readFile(join(project, "node_modules/pulumi-mediahost/package.json"), "utf8"),
      );
      const schema = JSON.parse(
        await run(
          join(toolchain.pulumiRoot, "bin/pulumi"),
          ["package", "get-schema", "./node_modules/pulumi-mediahost/plugin/pulumi-resource-mediahost"],
          project,
          { ...toolchain.env, ...p.backend.envVars },
        ),
      ) as { name: string; version: string };
      expect(schema).toMatchObject({ name: "mediahost", version: manifest.version });
      await p.stack.preview({ refresh: true, expectNoChanges: true });
      await p.stack.destroy();
      expect(p.emulator.control.state().tree.map((e) => e.path)).not.toContain("/native");
      // found through Pulumi.yaml: nothing was installed into the plugin cache
      expect(p.output.join("\n")).not.toMatch(/downloading|installing plugin/i);
    } finally {
      await p.dispose();
    }
  });

  it("ships the example policy pack: run from the installed package, it judges a program", async () => {
    const project = join(dir, "policy-project");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "policy-project", private: true, main: "index.js", dependencies }, null, 2),
    );
    await writeFile(
      join(project, "Pulumi.yaml"),
      "name: policy-user\nruntime: nodejs\nplugins:\n  providers:\n    - name: mediahost\n      path: ./node_modules/pulumi-mediahost/plugin\n",
    );
    // a CDN alias without a default profile: the pack's rule cdn-alias-default-profile refuses it
    await writeFile(
      join(project, "index.js"),
      'const mediahost = require("pulumi-mediahost/native");\n' +
        'new mediahost.Alias("web", { name: "web", prefix: "/", cdn: true });\n',
    );
    // the README's steps: the provider, and @pulumi/policy beside it
    await npmInstall(project, [], toolchain.env);
    await npmInstall(project, ["--save-dev", "@pulumi/policy@^1.21.0"], toolchain.env);
    const pack = join(project, "node_modules/pulumi-mediahost/examples/policy-pack");
    const p = await openProject(toolchain, { workDir: project });
    try {
      const refused = await p.stack.preview({ policyPacks: [pack] }).then(
        () => "",
        (e: Error) => e.message,
      );
      expect(refused).toMatch(/cdn-alias-default-profile/);
      expect(refused).toContain('Alias web: alias "web" is served through the CDN without a defaultProfile');
      await writeFile(
        join(project, "index.js"),
        'const mediahost = require("pulumi-mediahost/native");\n' +
          'new mediahost.Alias("web", { name: "web", prefix: "/", cdn: true, defaultProfile: "thumbnail" });\n',
      );
      await p.stack.preview({ policyPacks: [pack] });
    } finally {
      await p.dispose();
    }
  });

  it("the emulator's own tarball, installed alone into an empty directory, starts with npx", async () => {
    const { tarball: emulatorTarball, files: emulatorFiles } = await pack(
      join(repoRoot, "emulator"),
      dir,
      toolchain.env,
    );
    expect(emulatorFiles.map((f) => f.path)).toContain("bin/mediahost-emulator.js");
    // the web console's assets ship inside the package: the page, its style sheet and every module
    const consoleAssets = readdirSync(join(repoRoot, "emulator/console"));
    expect(consoleAssets).toEqual(expect.arrayContaining(["index.html", "console.js", "console.css"]));
    for (const asset of consoleAssets) expect(emulatorFiles.map((f) => f.path)).toContain(`console/${asset}`);
    const alone = await mkdtemp(join(tmpdir(), "mediahost-emulator-alone-"));
    try {
      await npmInstall(alone, [emulatorTarball, contract], toolchain.env);
      const child = spawn("npx", ["--no-install", "mediahost-emulator", "--port", "0"], {
        cwd: alone,
        env: toolchain.env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true, // its own process group: npx and the emulator under it stop together
      });
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`no listening line within 20 s: ${out}`)), 20_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const m = /^listening on (\S+)$/m.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1] as string);
          }
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code} before listening: ${out}`)));
      });
      const token = await fetch(`${url}/v2/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId: "demo-client", clientSecret: "demo-secret" }),
      });
      expect(token.status).toBe(200);
      // the console is served from the installed package
      const page = await fetch(`${url}/_emulator/console`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(
        '<script type="module" src="/_emulator/console/console.js"></script>',
      );
      for (const module of consoleAssets.filter((a) => a.endsWith(".js"))) {
        const served = await fetch(`${url}/_emulator/console/${module}`);
        expect(served.status, module).toBe(200);
        expect(served.headers.get("content-type"), module).toBe("text/javascript; charset=utf-8");
      }
      const exited = new Promise<unknown>((resolve) =>
        child.once("exit", (code, signal) => resolve(code ?? signal)),
      );
      process.kill(-child.pid!, "SIGTERM");
      expect([0, "SIGTERM"]).toContain(await exited);
      await expect(fetch(`${url}/v2/account`)).rejects.toThrow();
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  });
});
