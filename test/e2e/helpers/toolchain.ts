// The real Pulumi CLI for e2e tests, provisioned by scripts/toolchain/provision.sh (built from Go
// source on first use, then cached outside the repo), plus hermetic per-test state.
//
// Usage in a test file (vitest awaits async describe factories, without a timeout, which suits a
// first-time build of the CLI; top-level await is unavailable as tests compile to CommonJS):
//   describe("...", async () => {
//     const toolchain = await toolchainForTests();
//     if (!toolchain) return void it.skip("needs the Pulumi toolchain");
//     ...
// Under CI=true an unavailable toolchain is a failure, never a skip.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { PulumiCommand } from "@pulumi/pulumi/automation";

export const repoRoot = resolve(__dirname, "../../..");
const provisionScript = join(repoRoot, "scripts/toolchain/provision.sh");

/** Public, documented test-only passphrase: state in these backends is throwaway. */
export const TEST_PASSPHRASE = "mediahost-e2e-test";

export interface Toolchain {
  /** Directories provision.sh asked to put first on PATH. */
  binDirs: string[];
  /** Root such that `<pulumiRoot>/bin/pulumi` is the CLI (what `PulumiCommand.get` wants). */
  pulumiRoot: string;
  /** process.env plus PATH (bin dirs, then the repo's Node 24) and offline defaults. */
  env: Record<string, string>;
}

let provisioning: Promise<Toolchain> | undefined;

/** Runs provision.sh once per process. Rejects with the script's stderr if it fails. */
export function provisionToolchain(): Promise<Toolchain> {
  provisioning ??= doProvision();
  return provisioning;
}

async function doProvision(): Promise<Toolchain> {
  const stdout = await new Promise<string>((res, rej) => {
    // No timeout: a cold build of the CLI takes minutes; the test runner's own timeouts apply.
    execFile("bash", [provisionScript], { cwd: repoRoot, maxBuffer: 64 << 20 }, (err, out, errOut) => {
      if (err) rej(new Error(`${provisionScript} failed (${err.message.split("\n")[0]}):\n${errOut.trim()}`));
      else res(out);
    });
  });
  const binDirs = stdout.trim().split(delimiter).filter(Boolean);
  if (binDirs.length === 0) throw new Error(`${provisionScript} printed no directories`);
  const pulumiDir =
    binDirs.find((d) => existsSync(join(d, "pulumi"))) ??
    (process.env.PATH ?? "").split(delimiter).find((d) => d && existsSync(join(d, "pulumi")));
  if (!pulumiDir) throw new Error(`no pulumi in ${binDirs.join(", ")} or on PATH after provisioning`);

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.PATH = [...binDirs, join(repoRoot, "node_modules/.bin"), process.env.PATH ?? ""].join(delimiter);
  env.PULUMI_SKIP_UPDATE_CHECK ??= "true";
  env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION ??= "true";

  return { binDirs, pulumiRoot: await pulumiRootFor(pulumiDir), env };
}

// PulumiCommand.get only takes a root containing bin/pulumi; a symlink is enough otherwise (the CLI
// resolves symlinks to find its bundled plugins).
async function pulumiRootFor(pulumiDir: string): Promise<string> {
  if (basename(pulumiDir) === "bin") return dirname(pulumiDir);
  const root = await mkdtemp(join(tmpdir(), "mediahost-pulumi-root-"));
  await mkdir(join(root, "bin"));
  await symlink(join(pulumiDir, "pulumi"), join(root, "bin", "pulumi"));
  return root;
}

/**
 * For the top level of e2e test files. Resolves to the toolchain, or to undefined (with a warning
 * saying why) when it cannot be provisioned locally. Under CI=true it rejects instead, failing the
 * file with the reason.
 */
export async function toolchainForTests(): Promise<Toolchain | undefined> {
  try {
    return await provisionToolchain();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (process.env.CI === "true") {
      throw new Error(
        `e2e: the Pulumi toolchain could not be provisioned (CI=true, not skipping):\n${reason}`,
      );
    }
    console.warn(`e2e: SKIPPING, the Pulumi toolchain could not be provisioned:\n${reason}`);
    return undefined;
  }
}

/** The Automation API's handle on our CLI (version-checked unless skipVersionCheck). */
export function pulumiCommand(
  toolchain: Toolchain,
  opts?: { skipVersionCheck?: boolean },
): Promise<PulumiCommand> {
  return PulumiCommand.get({ root: toolchain.pulumiRoot, skipVersionCheck: opts?.skipVersionCheck });
}

export interface TemporaryBackend {
  /** Parent of the state and PULUMI_HOME directories; removed by dispose(). */
  dir: string;
  backendUrl: string;
  pulumiHome: string;
  /** For LocalWorkspace's envVars (merge over toolchain.env). */
  envVars: Record<string, string>;
  dispose(): Promise<void>;
}

/** A fresh file backend and PULUMI_HOME, so tests share no stacks, plugins or credentials. */
export async function createTemporaryBackend(): Promise<TemporaryBackend> {
  const dir = await mkdtemp(join(tmpdir(), "mediahost-e2e-backend-"));
  const state = join(dir, "state");
  const pulumiHome = join(dir, "home");
  await mkdir(state);
  await mkdir(pulumiHome);
  const backendUrl = `file://${state}`;
  return {
    dir,
    backendUrl,
    pulumiHome,
    envVars: {
      PULUMI_BACKEND_URL: backendUrl,
      PULUMI_HOME: pulumiHome,
      PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Runs fn with a temporary backend, removed afterwards whatever happens. */
export async function withTemporaryBackend<T>(fn: (backend: TemporaryBackend) => Promise<T>): Promise<T> {
  const backend = await createTemporaryBackend();
  try {
    return await fn(backend);
  } finally {
    await backend.dispose();
  }
}
