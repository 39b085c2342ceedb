// The package as users install it: the current build packed with `npm pack`, an earlier release
// built from this repository's own history, and a fresh project outside the repository that
// installs them from their tarballs with npm (the registry's cache only: nothing is published).
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./toolchain";

export interface PackedFile {
  path: string;
  size: number;
}

export interface Release {
  version: string;
  commit: string;
}

export function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((res, rej) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      err
        ? rej(new Error(`${cmd} ${args.join(" ")} (in ${cwd}) failed: ${err.message}\n${stderr}`))
        : res(stdout),
    );
  });
}

/** `npm pack` of the package in `dir` into `dest`: the tarball's path and the files it holds. */
export async function pack(
  dir: string,
  dest: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<{ tarball: string; files: PackedFile[] }> {
  const out = await run("npm", ["pack", "--json", "--pack-destination", dest, ...extra], dir, env);
  // npm may print lifecycle output before the JSON
  const packed = JSON.parse(out.slice(out.indexOf("["))) as { filename: string; files: PackedFile[] }[];
  return { tarball: join(dest, packed[0]!.filename), files: packed[0]!.files };
}

/**
 * The provider as npm installs it from this checkout: its tarball and the tarball of the API
 * contract it depends on (mediahost-contract, a package of this repository published beside it),
 * as `file:` dependencies of a project.
 */
export async function packProvider(
  dest: string,
  env: Record<string, string>,
): Promise<{ tarball: string; files: PackedFile[]; contract: string; dependencies: Record<string, string> }> {
  // without the `prepare` script: `npm test` has built dist/ already, and building it again here
  // rewrote its files while other test files' programs were loading them (a program once found
  // dist/sdk/provider.js empty: "providerFor is not a function")
  const provider = await pack(repoRoot, dest, env, ["--ignore-scripts"]);
  const contract = await pack(join(repoRoot, "contract"), dest, env, ["--ignore-scripts"]);
  return {
    ...provider,
    contract: contract.tarball,
    dependencies: {
      "pulumi-mediahost": `file:${provider.tarball}`,
      "mediahost-contract": `file:${contract.tarball}`,
    },
  };
}

/** The releases recorded in scripts/release/releases.json, oldest first. */
// Synchronous: test files list the releases while vitest collects them (no top-level await in CommonJS)
export function releases(): Release[] {
  const file = join(repoRoot, "scripts/release/releases.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { releases: Release[] }).releases;
}

function cacheDir(): string {
  const base =
    process.env.MEDIAHOST_TOOLCHAIN_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-mediahost");
  return join(base, "releases");
}

/**
 * The tarball of `release`, built from the repository's history the way it was built then
 * (`npm ci`, `tsc`, `npm pack`), cached outside the repository by commit.
 */
export async function releaseTarball(release: Release, env: Record<string, string>): Promise<string> {
  const dir = cacheDir();
  const cached = join(dir, `pulumi-mediahost-${release.version}-${release.commit.slice(0, 12)}.tgz`);
  if (existsSync(cached)) return cached;
  await mkdir(dir, { recursive: true });
  await run("git", ["cat-file", "-e", `${release.commit}^{commit}`], repoRoot, env).catch(() => {
    throw new Error(
      `release ${release.version} (commit ${release.commit}) is not in this clone's history; ` +
        "the upgrade test needs the full history (git fetch --unshallow)",
    );
  });
  const src = await mkdtemp(join(tmpdir(), `mediahost-release-${release.version}-`));
  try {
    await run(
      "bash",
      ["-c", `git -C "${repoRoot}" archive "${release.commit}" | tar -x -C "${src}"`],
      src,
      env,
    );
    await run("npm", ["ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], src, env);
    await run("node", [join(src, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], src, env);
    const { tarball } = await pack(src, src, env, ["--ignore-scripts"]);
    await rename(tarball, `${cached}.tmp`);
    await rename(`${cached}.tmp`, cached);
    return cached;
  } finally {
    await rm(src, { recursive: true, force: true });
  }
}

/** A fresh Pulumi project (plain JavaScript) outside the repository, with `dependencies` installed. */
export async function createUserProject(options: {
  name: string;
  program: string;
  dependencies: Record<string, string>;
  env: Record<string, string>;
}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `mediahost-${options.name}-`));
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify(
      { name: options.name, private: true, main: "index.js", dependencies: options.dependencies },
      null,
      2,
    ),
  );
  await writeFile(join(dir, "Pulumi.yaml"), `name: ${options.name}\nruntime: nodejs\n`);
  await writeFile(join(dir, "index.js"), options.program);
  await npmInstall(dir, [], options.env);
  return dir;
}

/** `npm install` in a user's project, offline where the cache allows. */
export function npmInstall(dir: string, packages: string[], env: Record<string, string>): Promise<string> {
  return run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      ...packages,
    ],
    dir,
    env,
  );
}

/** Every copy of `name` installed under `dir`'s node_modules (nested ones included), with its version. */
export async function installedCopies(
  dir: string,
  name: string,
  env: Record<string, string>,
): Promise<string[]> {
  const out = await run("npm", ["ls", name, "--all", "--parseable", "--long"], dir, env).catch(
    (e: Error) => e.message,
  );
  return out
    .split("\n")
    .filter((line) => line.includes(`/node_modules/${name}:`))
    .map((line) => line.slice(line.indexOf(":") + 1));
}

/**
 * `dir/node_modules` as npm would install this checkout beside its dependencies, without a
 * download: links to the repository's installed packages, and `pulumi-mediahost` to the
 * repository itself (its build), so a program outside the repository imports it by name.
 */
export async function linkCheckout(dir: string): Promise<void> {
  const { readdir, symlink } = await import("node:fs/promises");
  await mkdir(join(dir, "node_modules"), { recursive: true });
  for (const entry of await readdir(join(repoRoot, "node_modules"))) {
    if (entry.startsWith(".")) continue;
    await symlink(join(repoRoot, "node_modules", entry), join(dir, "node_modules", entry));
  }
  await symlink(repoRoot, join(dir, "node_modules", "pulumi-mediahost"));
}

/**
 * A user's tsconfig.json: Pulumi's TypeScript template's options (its `moduleResolution: "node"`
 * reads no `exports`: the package's `typesVersions` serve it), and `skipLibCheck`, as
 * mediahost-generate writes it (tools/lib/program.ts), so that `tsc` judges the program.
 */
const USER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    skipLibCheck: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/**
 * An empty TypeScript project of the native face in `dir` (the checkout linked as npm installs it,
 * the plugin named by path, a user's tsconfig), for `pulumi import --out index.ts` to write its
 * program into.
 */
export async function emptyNativeProject(dir: string): Promise<void> {
  await linkCheckout(dir);
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "imported", main: "index.ts" }));
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(USER_TSCONFIG, null, 2));
  await writeFile(
    join(dir, "Pulumi.yaml"),
    `name: imported\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nplugins:\n  providers:\n    - name: mediahost\n      path: ${join(repoRoot, "plugin")}\n`,
  );
  await writeFile(join(dir, "index.ts"), "");
}
