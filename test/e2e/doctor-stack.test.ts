// mediahost-doctor --stack with the real CLI: the credentials come from the stack's config (the
// secret decrypted by `pulumi config --show-secrets`), none from the environment; an account of
// mediahost:accounts with --account; the secret never printed; a stack that does not exist is
// exit 1 with the CLI's reason.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import {
  createTemporaryBackend,
  repoRoot,
  type TemporaryBackend,
  toolchainForTests,
} from "./helpers/toolchain";

const DOCTOR = join(repoRoot, "dist/tools/doctor.js");
const NODE = join(repoRoot, "node_modules/.bin/node");
const SECRET = "doctor-stack-secret-41";
const OTHER_SECRET = "doctor-other-secret-41";

function exec(file: string, args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { env, cwd, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("mediahost-doctor --stack", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  let emulator: RunningEmulator;
  let backend: TemporaryBackend;
  let env: Record<string, string>;
  const project = () => join(backend.dir, "project");

  beforeAll(async () => {
    emulator = await startEmulator({
      log: () => {},
      clientSecret: SECRET,
      accounts: [{ alias: "other", clientId: "other-client", clientSecret: OTHER_SECRET }],
    });
    backend = await createTemporaryBackend();
    env = { ...toolchain.env, ...backend.envVars };
    for (const k of ["MEDIAHOST_BASE_URL", "MEDIAHOST_CLIENT_ID", "MEDIAHOST_CLIENT_SECRET"]) delete env[k];
    await mkdir(project());
    await writeFile(join(project(), "Pulumi.yaml"), "name: doctor-stack\nruntime: nodejs\n");
    const pulumi = (...args: string[]) => exec("pulumi", args, env, project());
    expect((await pulumi("stack", "init", "dev")).code).toBe(0);
    await pulumi("config", "set", "mediahost:baseUrl", emulator.url);
    await pulumi("config", "set", "mediahost:clientId", "demo-client");
    await pulumi("config", "set", "--secret", "mediahost:clientSecret", SECRET);
    await pulumi("config", "set", "--path", "mediahost:accounts.other.clientId", "other-client");
    const set = await pulumi(
      "config",
      "set",
      "--secret",
      "--path",
      "mediahost:accounts.other.clientSecret",
      OTHER_SECRET,
    );
    expect(set.code, set.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await emulator?.stop();
    await backend?.dispose();
  });

  it("reads the stack's credentials, for the default account and for --account", async () => {
    for (const [args, alias] of [
      [[], "demo"],
      [["--account", "other"], "other"],
    ] as const) {
      const r = await exec(NODE, [DOCTOR, "--stack", "dev", "--cwd", project(), ...args], env, backend.dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`(account ${alias}), read-only`);
      for (const secret of [SECRET, OTHER_SECRET]) expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    }
  });

  it("exits 1 with the CLI's reason when the stack does not exist", async () => {
    const r = await exec(NODE, [DOCTOR, "--stack", "nope", "--cwd", project()], env, backend.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pulumi config of stack nope: .*nope/);
  });
});
