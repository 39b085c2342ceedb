// Stacks of examples/drift-ci (one per site) on a temporary backend, and mediahost-drift run
// against them: what the fleet tests of the drift tool share.
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { expect } from "vitest";
import {
  createTemporaryBackend,
  pulumiCommand,
  repoRoot,
  type TemporaryBackend,
  type Toolchain,
} from "./toolchain";

const DRIFT_BIN = join(repoRoot, "dist/tools/drift.js");
const NODE = join(repoRoot, "node_modules/.bin/node");
export const DRIFT_CI = join(repoRoot, "examples/drift-ci");

export interface DriftRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Site {
  /** The stack's name. */
  name: string;
  /** Its alias and folder are named after it. */
  site: string;
  credentials: { clientId: string; clientSecret: string };
  /** Whether this stack manages the account's settings (one stack per account does). */
  settings: boolean;
}

export interface DriftSites {
  backend: TemporaryBackend;
  stacks: Stack[];
  /** mediahost-drift on the example's project and this backend. */
  drift(args: string[]): Promise<DriftRun>;
  dispose(): Promise<void>;
}

/** Makes each site's stack (config, then `up`) on a new temporary backend. */
export async function driftSites(toolchain: Toolchain, baseUrl: string, sites: Site[]): Promise<DriftSites> {
  const backend = await createTemporaryBackend();
  const stacks: Stack[] = [];
  const envVars = { ...toolchain.env, ...backend.envVars };
  const dispose = async () => {
    for (const stack of stacks)
      await stack.workspace.removeStack(stack.name, { force: true }).catch(() => {});
    for (const s of sites) await rm(join(DRIFT_CI, `Pulumi.${s.name}.yaml`), { force: true });
    await backend.dispose();
  };
  try {
    await upAll();
  } catch (err) {
    await dispose();
    throw err;
  }
  async function upAll() {
    for (const s of sites) {
      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: s.name, workDir: DRIFT_CI },
        { pulumiCommand: await pulumiCommand(toolchain), envVars },
      );
      await stack.setAllConfig({
        "mediahost:baseUrl": { value: baseUrl },
        "mediahost:clientId": { value: s.credentials.clientId },
        "mediahost:clientSecret": { value: s.credentials.clientSecret, secret: true },
        site: { value: s.site },
        manageSettings: { value: String(s.settings) },
      });
      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");
      stacks.push(stack);
    }
  }
  return {
    backend,
    stacks,
    drift: (args) =>
      new Promise((resolve) => {
        execFile(
          NODE,
          [DRIFT_BIN, "--cwd", DRIFT_CI, "--backend-url", backend.backendUrl, ...args],
          { env: envVars, maxBuffer: 16 << 20 },
          (err, stdout, stderr) => resolve({ code: err ? ((err.code as number) ?? 1) : 0, stdout, stderr }),
        );
      }),
    dispose,
  };
}
