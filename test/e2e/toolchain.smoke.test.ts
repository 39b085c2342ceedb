// Smoke test of the toolchain itself: the real CLI, our language host and the dynamic provider
// plugin run a throwaway JS program through up / preview / destroy. If this fails, every other e2e
// test would too, for reasons that have nothing to do with the provider.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTemporaryBackend,
  pulumiCommand,
  repoRoot,
  type TemporaryBackend,
  toolchainForTests,
} from "./helpers/toolchain";

// The fake "external system" is a directory of JSON files, one per resource, so the test can see
// that create and delete really ran in the provider process.
const program = `"use strict";
const pulumi = require("@pulumi/pulumi");

const provider = {
  async create(inputs) {
    const fs = require("node:fs");
    const path = require("node:path");
    const id = "greeting-" + inputs.name;
    fs.writeFileSync(path.join(inputs.worldDir, id + ".json"), JSON.stringify(inputs));
    return {
      id,
      outs: { ...inputs, greeting: "hello " + inputs.name, providerCwd: process.cwd() },
    };
  },
  async diff(_id, olds, news) {
    return { changes: olds.name !== news.name || olds.worldDir !== news.worldDir };
  },
  async delete(id, props) {
    require("node:fs").rmSync(require("node:path").join(props.worldDir, id + ".json"));
  },
};

class Greeting extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { ...args, greeting: undefined, providerCwd: undefined }, opts);
  }
}

const config = new pulumi.Config();
const greeting = new Greeting("greeting", { name: config.require("name"), worldDir: config.require("worldDir") });
exports.greeting = greeting.greeting;
exports.providerCwd = greeting.providerCwd;
exports.tokenLength = config.requireSecret("token").apply((t) => t.length);
`;

describe("toolchain smoke: real pulumi CLI with a dynamic provider", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) {
    it.skip("needs the Pulumi toolchain (see the warning above)");
    return;
  }
  let workDir: string;
  let worldDir: string;
  let backend: TemporaryBackend;
  let stack: Stack;
  const logs: string[] = [];
  const onOutput = (s: string) => logs.push(s);

  beforeAll(async () => {
    backend = await createTemporaryBackend();
    workDir = realpathSync(await mkdtemp(join(tmpdir(), "mediahost-smoke-")));
    worldDir = join(workDir, "world");
    await mkdir(worldDir);
    await writeFile(
      join(workDir, "Pulumi.yaml"),
      "name: mediahost-smoke\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
    );
    await writeFile(
      join(workDir, "package.json"),
      JSON.stringify({ name: "mediahost-smoke", main: "index.js" }),
    );
    await writeFile(join(workDir, "index.js"), program);
    // The program and the provider process both require @pulumi/pulumi from here.
    await symlink(join(repoRoot, "node_modules"), join(workDir, "node_modules"), "dir");

    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "smoke", workDir },
      { pulumiCommand: await pulumiCommand(toolchain), envVars: { ...toolchain.env, ...backend.envVars } },
    );
    await stack.setConfig("name", { value: "world" });
    await stack.setConfig("worldDir", { value: worldDir });
    await stack.setConfig("token", { value: "s3cret", secret: true });
  });

  afterAll(async () => {
    await stack?.workspace.removeStack("smoke", { force: true }).catch(() => {});
    await backend?.dispose();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("uses the CLI provision.sh chose: the one it built at cli-version, or an installed one new enough", async () => {
    const version = await stack.workspace.pulumiVersion;
    const script = readFileSync(join(repoRoot, "scripts/toolchain/provision.sh"), "utf8");
    const minimum = /^MIN_CLI=(\S+)$/m.exec(script)?.[1];
    const built = readFileSync(join(repoRoot, "scripts/toolchain/cli-version"), "utf8").trim();
    expect(minimum).toMatch(/^\d+\.\d+\.\d+$/);
    const cli = realpathSync(join(toolchain.pulumiRoot, "bin", "pulumi"));
    // provision.sh lists its own bin directory last
    const ours = join(toolchain.binDirs[toolchain.binDirs.length - 1] as string, "pulumi");
    const fromCache = existsSync(ours) && realpathSync(ours) === cli;
    if (fromCache) expect(version).toBe(built);
    else expect(atLeast(version, minimum as string), `installed pulumi v${version} < v${minimum}`).toBe(true);
  });

  it("up creates the dynamic resource through the provider", async () => {
    const up = await stack.up({ onOutput });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 2 }); // the stack + the greeting
    expect(up.outputs.greeting).toEqual({ value: "hello world", secret: false });
    // config secrets reach the program, and stay secret
    expect(up.outputs.tokenLength).toEqual({ value: 6, secret: true });
    // the provider process runs in the program directory (that is where its require() resolves)
    expect(up.outputs.providerCwd?.value).toBe(workDir);
    expect(JSON.parse(readFileSync(join(worldDir, "greeting-world.json"), "utf8"))).toMatchObject({
      name: "world",
    });
  });

  it("a second preview sees no changes", async () => {
    const preview = await stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  it("the state holds the resource with its id and outputs", async () => {
    const state = await stack.exportStack();
    const resources: Array<{ type: string; id?: string; outputs?: Record<string, unknown> }> =
      state.deployment.resources ?? [];
    const greeting = resources.find((r) => r.type === "pulumi-nodejs:dynamic:Resource");
    expect(greeting?.id).toBe("greeting-world");
    expect(greeting?.outputs).toMatchObject({ name: "world", greeting: "hello world" });
    expect(typeof greeting?.outputs?.__provider).toBe("string");
  });

  it("destroy deletes the resource through the provider", async () => {
    const destroy = await stack.destroy({ onOutput });
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
    expect(existsSync(join(worldDir, "greeting-world.json"))).toBe(false);
    const state = await stack.exportStack();
    expect(state.deployment.resources ?? []).toEqual([]);
  });
});

/** a >= b for X.Y.Z versions. */
function atLeast(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if ((x?.[i] ?? 0) !== (y?.[i] ?? 0)) return (x?.[i] ?? 0) > (y?.[i] ?? 0);
  return true;
}
