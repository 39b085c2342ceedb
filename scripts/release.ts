// `npm run release [-- --out DIR] [--download-url TEMPLATE]`: what a release publishes, from the
// current build, into DIR (default release/):
// - the provider plugin as Pulumi names third-party plugins,
//   pulumi-resource-mediahost-v<version>-<os>-<arch>.tar.gz, one per platform in PLATFORMS: the
//   launcher `pulumi-resource-mediahost` (a Node.js script), the native face bundled into one
//   JavaScript file with every dependency, a package.json naming the version, LICENSE and a README;
// - the npm packages, pulumi-mediahost-<version>.tgz and mediahost-contract-<version>.tgz;
// - the package schema, pulumi-mediahost-v<version>-schema.json;
// - pulumi-mediahost-v<version>-checksums.txt: the SHA-256 of each file above (`sha256sum -c`).
// TEMPLATE is where the Pulumi CLI downloads the plugin (pluginDownloadURL; default package.json's
// `pulumi.server`): it goes into the schema the plugin serves and into the npm package's
// package.json, which the native SDK reads (docs/releasing.md).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { PLUGIN_DOWNLOAD_URL, VERSION } from "../provider/version";

/**
 * The platforms a release names. The plugin is JavaScript and a `#!/usr/bin/env node` launcher:
 * it runs wherever Node.js >= 22.19 is on PATH and a shebang is honoured, so the archives are the
 * same bytes under four names. Windows is left out: the CLI runs `pulumi-resource-<name>.exe`
 * there, which a script is not.
 */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"] as const;
export const MIN_NODE = "22.19.0";

/** The repository: from scripts/ (tests) or from dist/scripts (the build). */
const root = [join(__dirname, ".."), join(__dirname, "..", "..")].find((d) =>
  existsSync(join(d, "provider", "resources", "kind.ts")),
) as string;
const PLUGIN = "pulumi-resource-mediahost";

export const pluginArchive = (version: string, platform: string) =>
  `${PLUGIN}-v${version}-${platform}.tar.gz`;
export const checksumsFile = (version: string) => `pulumi-mediahost-v${version}-checksums.txt`;
export const schemaFile = (version: string) => `pulumi-mediahost-v${version}-schema.json`;

const LAUNCHER = `#!/usr/bin/env node
// The provider plugin of pulumi-mediahost ${VERSION}, as released: the Pulumi CLI runs it.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write("${PLUGIN}: needs Node.js >= ${MIN_NODE} on PATH, found " + process.version + "\\n");
  process.exit(1);
}
const loader = require("node:module");
loader.enableCompileCache?.();
const { main } = require("./provider.js");
loader.flushCompileCache?.();
main(process.argv.slice(2)).catch((err) => {
  process.stderr.write("${PLUGIN}: " + (err && err.stack ? err.stack : err) + "\\n");
  process.exit(1);
});
`;

const README = (downloadUrl: string) => `# ${PLUGIN} ${VERSION}

The Pulumi resource provider plugin of pulumi-mediahost (package \`mediahost\`). It needs Node.js
${MIN_NODE} or later on PATH, and nothing else: its dependencies are bundled in provider.js.

    pulumi plugin install resource mediahost ${VERSION} --file ${pluginArchive(VERSION, "linux-amd64")}

or let the CLI fetch it from ${downloadUrl}.
`;

/** server.ts loads gRPC and the protocol's stubs through @pulumi/pulumi's require: plain requires bundle them. */
const SDK_REQUIRE =
  /^const sdk = .*createRequire\)\(require\.resolve\("@pulumi\/pulumi\/package\.json"\)\);$/m;

/** The native face and every module it loads, as one CommonJS file whose schema names `downloadUrl`. */
async function bundle(out: string, downloadUrl: string): Promise<void> {
  const { build } = await import("rolldown");
  await build({
    input: join(root, "dist/provider/native/main.js"),
    platform: "node",
    logLevel: "warn",
    plugins: [
      {
        name: "mediahost-release",
        transform(code, id) {
          if (id.endsWith("/provider/native/server.js")) {
            if (!SDK_REQUIRE.test(code))
              throw new Error(`${id}: the SDK's require is not where the release expects it`);
            return code.replace(SDK_REQUIRE, "").replace(/\bsdk\(("[^"]+")\)/g, "require($1)");
          }
          if (id.endsWith("/provider/native/schema.json")) {
            return JSON.stringify({ ...JSON.parse(code), pluginDownloadURL: downloadUrl });
          }
          return null;
        },
      },
    ],
    output: { file: out, format: "cjs", codeSplitting: false, minify: true },
  });
}

/** A gzipped tarball of `files` in `dir`, owned by root, with a fixed mtime: the same inputs make the same bytes. */
function tarball(dir: string, files: string[], dest: string): void {
  const tar = execFileSync(
    "tar",
    ["-c", "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0", "-C", dir, ...files],
    { maxBuffer: 256 << 20 },
  );
  writeFileSync(dest, gzipSync(tar, { level: 9 }));
}

/** `npm pack` of `dir` into `out`, its package.json's `pulumi.server` set to `downloadUrl` when it has one. */
function npmPackage(dir: string, out: string, downloadUrl: string): string {
  const packed = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
  });
  const name = (JSON.parse(packed.slice(packed.indexOf("["))) as { filename: string }[])[0]!.filename;
  const file = join(out, name);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    pulumi?: { server?: string };
  };
  if (!manifest.pulumi || manifest.pulumi.server === downloadUrl) return name;
  const work = mkdtempSync(join(tmpdir(), "mediahost-release-npm-"));
  try {
    execFileSync("tar", ["-xzf", file, "-C", work]);
    const pkg = join(work, "package", "package.json");
    const json = JSON.parse(readFileSync(pkg, "utf8"));
    json.pulumi.server = downloadUrl;
    writeFileSync(pkg, `${JSON.stringify(json, null, 2)}\n`);
    const schema = join(work, "package", "dist/provider/native/schema.json");
    writeFileSync(
      schema,
      JSON.stringify({ ...JSON.parse(readFileSync(schema, "utf8")), pluginDownloadURL: downloadUrl }),
    );
    tarball(work, ["package"], file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return name;
}

export interface ReleaseOptions {
  out: string;
  /** pluginDownloadURL: an http(s) URL template (`${VERSION}`, `${OS}`, `${ARCH}`) or `github://…`. */
  downloadUrl: string;
}

/** Writes the release into `out`, returning the names of the files written. */
export async function release({ out, downloadUrl }: ReleaseOptions): Promise<string[]> {
  mkdirSync(out, { recursive: true });
  const stage = mkdtempSync(join(tmpdir(), "mediahost-release-"));
  const files: string[] = [];
  try {
    await bundle(join(stage, "provider.js"), downloadUrl);
    writeFileSync(join(stage, PLUGIN), LAUNCHER);
    chmodSync(join(stage, PLUGIN), 0o755);
    // provider/version.ts finds the version (and the download URL) in the package.json beside the code
    const manifest = {
      name: "pulumi-mediahost",
      version: VERSION,
      description: "The Pulumi provider plugin of pulumi-mediahost (package mediahost)",
      license: "Apache-2.0",
      engines: { node: `>=${MIN_NODE}` },
      pulumi: { name: "mediahost", server: downloadUrl },
    };
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(stage, "README.md"), README(downloadUrl));
    cpSync(join(root, "LICENSE"), join(stage, "LICENSE"));
    for (const platform of PLATFORMS) {
      const name = pluginArchive(VERSION, platform);
      tarball(stage, [PLUGIN, "provider.js", "package.json", "README.md", "LICENSE"], join(out, name));
      files.push(name);
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  files.push(npmPackage(root, out, downloadUrl), npmPackage(join(root, "contract"), out, downloadUrl));
  const schema = JSON.parse(readFileSync(join(root, "provider/native/schema.json"), "utf8"));
  writeFileSync(
    join(out, schemaFile(VERSION)),
    `${JSON.stringify({ ...schema, pluginDownloadURL: downloadUrl }, null, 2)}\n`,
  );
  files.push(schemaFile(VERSION));
  const sums = files.map(
    (f) =>
      `${createHash("sha256")
        .update(readFileSync(join(out, f)))
        .digest("hex")}  ${f}\n`,
  );
  writeFileSync(join(out, checksumsFile(VERSION)), sums.join(""));
  return [...files, checksumsFile(VERSION)];
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith("--")) throw new Error(`${name}: needs a value`);
  return value;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const out = resolve(option(args, "--out") ?? join(root, "release"));
  const downloadUrl = option(args, "--download-url") ?? PLUGIN_DOWNLOAD_URL;
  if (!downloadUrl) {
    process.stderr.write("release: --download-url is required when package.json has no pulumi.server\n");
    process.exit(1);
  }
  release({ out, downloadUrl }).then(
    (files) => {
      for (const f of files) process.stdout.write(`${join(out, f)}\n`);
    },
    (err) => {
      process.stderr.write(`release: ${err instanceof Error ? err.message : err}\n`);
      process.exit(1);
    },
  );
}
