// examples/drift-ci's flow on Pulumi's DIY backend in a real S3 object store (versitygw), with the
// real CLI, each CI job on a fresh runner (its own checkout and PULUMI_HOME; only the bucket and the
// committed stack config are shared): the deploy job's `up`; the nightly fleet drift finding a
// change made out of band as the property that changed, writing nothing; remediation with
// `up --refresh`; a quiet check after.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import {
  BUCKET,
  type ObjectStoreBackend,
  objectStoreForTests,
  type RunningObjectStore,
} from "./helpers/objectstore";
import { DEMO_CLIENT, plaintextLocations } from "./helpers/project";
import { freshRunner, type Runner } from "./helpers/runner";
import { pulumiCommand, repoRoot, toolchainForTests } from "./helpers/toolchain";

const PROGRAM = "examples/drift-ci";
const PROJECT = "mediahost-drift-ci";

describe("examples/drift-ci on an S3 object store, each job on a fresh runner", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  const store = await objectStoreForTests();
  if (!store) return void it.skip("needs the object store (scripts/toolchain/objectstore.sh)");

  let objects: RunningObjectStore;
  let emulator: RunningEmulator;
  let backend: ObjectStoreBackend;
  let api: MediahostClient;
  const stack = `prod-${randomBytes(3).toString("hex")}`;
  /** What the team commits: the stack's config file, written by the deploy job. */
  const committed: Record<string, string> = {};
  const runners: Runner[] = [];
  const job = async () => {
    const runner = await freshRunner(toolchain, PROGRAM, await backend.runner(), committed);
    runners.push(runner);
    return runner;
  };
  const stateObject = () => objects.get(`${backend.prefix}/.pulumi/stacks/${PROJECT}/${stack}.json`);
  const locks = () => objects.list(`${backend.prefix}/.pulumi/locks/`);

  beforeAll(async () => {
    objects = await store.start();
    emulator = await startEmulator({ log: () => {} });
    backend = await objects.backend(`drift-ci-${randomBytes(3).toString("hex")}`);
    api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
  });
  afterAll(async () => {
    const last = runners.at(-1);
    if (last) await last.pulumi(["stack", "rm", "--yes", "--force", "--stack", stack]);
    for (const r of runners) await r.dispose();
    await backend?.dispose();
    await emulator?.stop();
    await objects?.stop();
  });

  it("deploy job: stack init, config and up, the state an object in the bucket", async () => {
    const deploy = await job();
    const ok = async (args: string[]) => {
      const run = await deploy.pulumi(args);
      expect(run.code, run.out).toBe(0);
      return run;
    };
    await ok(["stack", "init", stack, "--secrets-provider", "passphrase"]);
    await ok(["config", "set", "--stack", stack, "mediahost:baseUrl", emulator.url]);
    await ok(["config", "set", "--stack", stack, "mediahost:clientId", DEMO_CLIENT.clientId]);
    await ok([
      "config",
      "set",
      "--stack",
      stack,
      "--secret",
      "mediahost:clientSecret",
      DEMO_CLIENT.clientSecret,
    ]);
    const up = await ok(["up", "--yes", "--skip-preview", "--stack", stack]);
    expect(up.out).toMatch(/\+\s+\d+ created|\d+ created/);
    committed[`Pulumi.${stack}.yaml`] = await deploy.stackConfig(stack);
    expect(committed[`Pulumi.${stack}.yaml`]).not.toContain(DEMO_CLIENT.clientSecret);

    const state = JSON.parse((await stateObject()) ?? "null") as {
      checkpoint: { latest: { resources: unknown[] } };
    };
    expect(state.checkpoint.latest.resources.length).toBeGreaterThanOrEqual(6);
    expect(plaintextLocations(state, DEMO_CLIENT.clientSecret)).toEqual([]);
    expect(await locks()).toEqual([]);
  });

  it("nightly drift on a fresh runner: clean (exit 0), naming the backend", async () => {
    const nightly = await job();
    const drift = await nightly.tool("drift", ["--all-stacks", "--cwd", nightly.dir]);
    expect(drift.code, drift.out).toBe(0);
    expect(drift.out).toContain(`on s3://${BUCKET}/${backend.prefix}?endpoint=${objects.endpoint}`);
    expect(drift.stdout).toContain("No drift");
  });

  it("a change made out of band: drift exit 2 names the resource and property; nothing is written", async () => {
    await api.ops.updateAccount({ body: { minify: { enabled: false } } });
    await api.ops.setTitle({ query: { filename: "/media/banners" }, body: { title: "Old banners" } });
    const before = await stateObject();

    const nightly = await job();
    const drift = await nightly.tool("drift", ["--all-stacks", "--cwd", nightly.dir]);
    expect(drift.code, drift.out).toBe(2);
    expect(drift.stdout).toMatch(/FolderMeta banners-meta\s+title\s+Banners\s+Old banners/);
    expect(drift.stdout).toMatch(/AccountSettings settings\s+minify\.enabled\s+true\s+false/);
    expect(drift.stdout).not.toMatch(/Folder banners\s/);

    // Pulumi's own read-only check, as the CI recipe may run it instead: exit 7 (ExitNoChanges of the
    // CLI's exit-code taxonomy, which 3.259 has) on drift; 1 is any other failure
    const refresh = await nightly.pulumi([
      "refresh",
      "--preview-only",
      "--expect-no-changes",
      "--stack",
      stack,
    ]);
    console.log(`pulumi refresh --preview-only --expect-no-changes on drift: exit ${refresh.code}`);
    const version = (await pulumiCommand(toolchain)).version?.toString() ?? "";
    if (version === "3.259.0") expect(refresh.code, refresh.out).toBe(7);
    else expect(refresh.code, refresh.out).not.toBe(0);
    expect(refresh.out).toContain("no changes were expected");
    expect(`${drift.out}${refresh.out}`).not.toContain(DEMO_CLIENT.clientSecret);

    // neither check took a lock or wrote the state, and the account still has the drift
    expect(await stateObject()).toBe(before);
    expect(await locks()).toEqual([]);
    expect(emulator.control.state().account.minify).toEqual({ enabled: false });
  });

  it("remediation on a fresh runner: up --refresh puts the account back", async () => {
    const fix = await job();
    const up = await fix.pulumi(["up", "--refresh", "--yes", "--skip-preview", "--stack", stack]);
    expect(up.code, up.out).toBe(0);
    expect(up.out).toMatch(/2 updated/);
    expect(emulator.control.state().account.minify).toEqual({ enabled: true });
    expect(await locks()).toEqual([]);
  });

  it("the quiet check after: both checks exit 0 on a fresh runner", async () => {
    const nightly = await job();
    const drift = await nightly.tool("drift", ["--all-stacks", "--cwd", nightly.dir]);
    expect(drift.code, drift.out).toBe(0);
    const refresh = await nightly.pulumi([
      "refresh",
      "--preview-only",
      "--expect-no-changes",
      "--stack",
      stack,
    ]);
    expect(refresh.code, refresh.out).toBe(0);
  });

  it("ships workflows for an object store: drift in shards, and deploys one at a time with recovery", async () => {
    const dir = join(repoRoot, PROGRAM, ".github/workflows");
    const drift = await readFile(join(dir, "drift-object-store.yml"), "utf8");
    expect(drift).toMatch(/PULUMI_BACKEND_URL: s3:\/\//);
    expect(drift).toMatch(/shard: \[1, 2, 3\]/);
    expect(drift).toMatch(/npx mediahost-drift --all-stacks --shard \$\{\{ matrix\.shard \}\}\/3/);
    expect(drift).toContain("pulumi refresh --preview-only --expect-no-changes");
    expect(drift).toMatch(/7 on drift/);
    expect(drift).toMatch(/awskms:\/\//);
    const deploy = await readFile(join(dir, "deploy.yml"), "utf8");
    expect(deploy).toMatch(/concurrency:\n\s+group: mediahost-deploy-/);
    expect(deploy.indexOf("npx mediahost-recover")).toBeGreaterThan(0);
    expect(deploy.indexOf("npx mediahost-recover")).toBeLessThan(deploy.indexOf("pulumi up --yes"));
  });

  it("destroy from a fresh runner removes the folders it made", async () => {
    const teardown = await job();
    const destroyed = await teardown.pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack]);
    expect(destroyed.code, destroyed.out).toBe(0);
    const s = emulator.control.state();
    expect(s.tree.filter((e) => e.path.startsWith("/media"))).toEqual([]);
  });
});
