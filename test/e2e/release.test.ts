// The release as users get it (scripts/release.ts), with the real CLI: the archives and their
// checksums; `pulumi plugin install --file` of an archive, after which a program of the native face
// runs with no `plugins.providers` and no plugin on PATH; and, with a fresh PULUMI_HOME and no
// plugin at all, `pulumi up` downloading the plugin from the pluginDownloadURL the release wrote
// (a local HTTP server here, loopback only: every other address goes to a proxy that is not there).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { VERSION } from "../../provider/version";
import { openProject } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const PLUGIN = `pulumi-resource-mediahost-v${VERSION}-${platform()}-${arch() === "x64" ? "amd64" : arch()}.tar.gz`;

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const PROGRAM = `const mediahost = require("pulumi-mediahost/native");
const folder = new mediahost.Folder("released", { path: "/released" });
exports.path = folder.path;
exports.alias = mediahost.getAccountOutput({}).alias;
`;

describe("the plugin released and installed the standard ways", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let out: string;
  let program: string;
  let server: Server;
  let emulator: RunningEmulator;
  let template = "";
  const requests: string[] = [];
  // the CLI, its hosts and Node.js: no node_modules/.bin, so no pulumi-resource-mediahost
  const path = [...toolchain.binDirs, dirname(process.execPath), "/usr/bin", "/bin"].join(delimiter);

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "mediahost-release-"));
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      const [, version, file] = /^\/v([^/]+)\/([^/?]+)$/.exec(req.url ?? "") ?? [];
      if (version !== VERSION || !file || !existsSync(join(out, file))) {
        res.writeHead(404).end();
        return;
      }
      // the CLI refuses a download without a length
      void readFile(join(out, file)).then((body) =>
        res.writeHead(200, { "content-length": body.length, "content-type": "application/gzip" }).end(body),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v\${VERSION}`;
    const made = await run(
      "node",
      [join(repoRoot, "dist/scripts/release.js"), "--out", out, "--download-url", template],
      repoRoot,
      toolchain.env,
    );
    expect(made.code, made.out).toBe(0);
    // a user's project: the released npm package, its dependencies beside it
    program = await mkdtemp(join(tmpdir(), "mediahost-released-program-"));
    await mkdir(join(program, "node_modules"));
    for (const entry of await readdir(join(repoRoot, "node_modules"))) {
      if (entry.startsWith(".")) continue;
      await symlink(join(repoRoot, "node_modules", entry), join(program, "node_modules", entry));
    }
    const pkg = join(program, "node_modules", "pulumi-mediahost");
    await mkdir(pkg);
    const untar = await run(
      "tar",
      ["-xzf", join(out, `pulumi-mediahost-${VERSION}.tgz`), "-C", pkg, "--strip-components=1"],
      program,
      toolchain.env,
    );
    expect(untar.code, untar.out).toBe(0);
    await writeFile(join(program, "Pulumi.yaml"), "name: released\nruntime: nodejs\nmain: index.js\n");
    await writeFile(join(program, "index.js"), PROGRAM);
    emulator = await startEmulator({ log: () => {} });
  });
  afterAll(async () => {
    server?.close();
    await emulator?.stop();
    await rm(out, { recursive: true, force: true });
    if (program) await rm(program, { recursive: true, force: true });
  });

  it("writes one archive per platform, the npm packages and the schema, with their checksums", async () => {
    const files = (await readdir(out)).sort();
    expect(files).toEqual(
      [
        ...["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64"].map(
          (p) => `pulumi-resource-mediahost-v${VERSION}-${p}.tar.gz`,
        ),
        `mediahost-contract-${VERSION}.tgz`,
        `pulumi-mediahost-${VERSION}.tgz`,
        `pulumi-mediahost-v${VERSION}-checksums.txt`,
        `pulumi-mediahost-v${VERSION}-schema.json`,
      ].sort(),
    );
    const check = await run(
      "sha256sum",
      ["-c", `pulumi-mediahost-v${VERSION}-checksums.txt`],
      out,
      toolchain.env,
    );
    expect(check.code, check.out).toBe(0);
    expect(check.out.trim().split("\n")).toHaveLength(files.length - 1);
    const listing = await run("tar", ["-tvzf", join(out, PLUGIN)], out, toolchain.env);
    expect(listing.out).toMatch(/^-rwxr-xr-x .* pulumi-resource-mediahost$/m);
    expect(listing.out).toMatch(/ provider\.js$/m);
    const schema = JSON.parse(await readFile(join(out, `pulumi-mediahost-v${VERSION}-schema.json`), "utf8"));
    expect(schema.pluginDownloadURL).toBe(template);
    const manifest = JSON.parse(
      await readFile(join(program, "node_modules/pulumi-mediahost/package.json"), "utf8"),
    );
    expect(manifest.pulumi).toEqual({ name: "mediahost", server: template });
  });

  it("installs with `pulumi plugin install --file`; a program then runs with no plugins.providers, nothing on PATH", async () => {
    const p = await openProject(toolchain, {
      workDir: program,
      emulator,
      env: { PATH: path, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
    });
    try {
      const env = { ...toolchain.env, ...p.backend.envVars, PATH: path };
      const install = await run(
        "pulumi",
        ["plugin", "install", "resource", "mediahost", VERSION, "--file", join(out, PLUGIN)],
        program,
        env,
      );
      expect(install.code, install.out).toBe(0);
      const plugins = await run("pulumi", ["plugin", "ls", "--json"], program, env);
      expect(JSON.parse(plugins.out)).toEqual([
        expect.objectContaining({ name: "mediahost", kind: "resource", version: VERSION }),
      ]);
      const up = await p.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
      expect(up.outputs.path?.value).toBe("/released");
      expect(up.outputs.alias?.value).toBe(emulator.control.state().account.alias);
      expect(emulator.control.state().tree.map((e) => e.path)).toContain("/released");
      expect(p.output.join("")).not.toMatch(/from \$PATH/);
      // served by the plugin as installed: its version, from the plugin cache
      const saved = JSON.stringify(await p.stateFile());
      expect(saved).toContain(`pulumi:providers:mediahost::default_${VERSION.replace(/\./g, "_")}`);
      await p.stack.destroy();
      expect(emulator.control.state().tree.map((e) => e.path)).not.toContain("/released");
    } finally {
      await p.dispose();
    }
  });

  it("`pulumi package add` generates the TypeScript SDK, which npm refuses under the name pulumi-mediahost/native", async () => {
    // the schema names the Node.js SDK `pulumi-mediahost/native` (the npm package's native face),
    // so that `pulumi import` writes code for it; npm takes no such name for a local package
    const dir = await mkdtemp(join(tmpdir(), "mediahost-package-add-ts-"));
    const home = await mkdtemp(join(tmpdir(), "mediahost-package-add-home-"));
    try {
      const env = {
        ...toolchain.env,
        PATH: path,
        PULUMI_HOME: home,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      };
      await writeFile(
        join(dir, "Pulumi.yaml"),
        "name: added\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
      );
      await writeFile(
        join(dir, "package.json"),
        JSON.stringify({ name: "added", main: "index.ts", dependencies: {} }),
      );
      const install = await run(
        "pulumi",
        ["plugin", "install", "resource", "mediahost", VERSION, "--file", join(out, PLUGIN)],
        dir,
        env,
      );
      expect(install.code, install.out).toBe(0);
      // an archive is no source `pulumi package add` takes: the plugin installed from it is
      const archive = join(out, PLUGIN);
      const fromArchive = await run("pulumi", ["package", "add", archive], dir, env);
      expect(fromArchive.code).toBe(1);
      expect(fromArchive.out).toContain(
        `error: failed to get schema: unable to install ${archive}: stat ${archive}/pulumi-resource-: not a directory`,
      );
      const added = await run("pulumi", ["package", "add", `mediahost@${VERSION}`], dir, env);
      expect(added.out).toContain(
        `Successfully generated an SDK for the mediahost package at ${join(dir, "sdks")}`,
      );
      expect(existsSync(join(dir, "sdks/mediahost/folder.ts"))).toBe(true);
      expect(added.code).toBe(1);
      expect(added.out).toMatch(
        /npm error code EINVALIDPACKAGENAME\nnpm error Invalid package name "pulumi-mediahost\/native"/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });

  it("a YAML program runs on the plugin as installed; `pulumi package add` records it when the YAML host can link", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mediahost-package-add-yaml-"));
    const yaml =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML's interpolation
      "name: added-yaml\nruntime: yaml\nresources:\n  media:\n    type: mediahost:Folder\n    properties:\n      path: /from-yaml\noutputs:\n  path: ${media.path}\n";
    await writeFile(join(dir, "Pulumi.yaml"), yaml);
    const p = await openProject(toolchain, {
      workDir: dir,
      emulator,
      env: { PATH: path, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
    });
    try {
      const env = { ...toolchain.env, ...p.backend.envVars, PATH: path };
      const install = await run(
        "pulumi",
        ["plugin", "install", "resource", "mediahost", VERSION, "--file", join(out, PLUGIN)],
        dir,
        env,
      );
      expect(install.code, install.out).toBe(0);
      const added = await run("pulumi", ["package", "add", `mediahost@${VERSION}`], dir, env);
      if (added.code === 0) {
        expect(await readFile(join(dir, "Pulumi.yaml"), "utf8")).toMatch(
          /^packages:\n {2}mediahost: mediahost@/m,
        );
      } else {
        // Pulumi YAML before the host's Link (the v1.25.0 the toolchain builds): nothing recorded
        expect(added.out).toContain("error: linking package: method Link not implemented");
        expect(await readFile(join(dir, "Pulumi.yaml"), "utf8")).toBe(yaml);
      }
      const up = await p.stack.up();
      expect(up.outputs.path?.value).toBe("/from-yaml");
      expect(emulator.control.state().tree.map((e) => e.path)).toContain("/from-yaml");
      await p.stack.destroy();
      expect(emulator.control.state().tree.map((e) => e.path)).not.toContain("/from-yaml");
    } finally {
      await p.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("downloads the plugin from pluginDownloadURL when a fresh PULUMI_HOME has none", async () => {
    const p = await openProject(toolchain, {
      workDir: program,
      emulator,
      env: {
        PATH: path,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
        // loopback only: any other address would go through a proxy that is not there
        HTTP_PROXY: "http://127.0.0.1:9",
        HTTPS_PROXY: "http://127.0.0.1:9",
        NO_PROXY: "127.0.0.1",
      },
    });
    try {
      const installed = join(p.backend.pulumiHome, "plugins", `resource-mediahost-v${VERSION}`);
      expect(existsSync(installed)).toBe(false);
      requests.length = 0;
      const up = await p.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
      expect(requests).toEqual([`/v${VERSION}/${PLUGIN}`]);
      expect(existsSync(join(installed, "pulumi-resource-mediahost"))).toBe(true);
      expect(basename(installed)).toBe(`resource-mediahost-v${VERSION}`);
      const quiet = await p.stack.preview({ refresh: true, expectNoChanges: true });
      expect(quiet.changeSummary).toEqual({ same: 2 });
      await p.stack.destroy();
      expect(requests).toHaveLength(1);
    } finally {
      await p.dispose();
    }
  });
});
