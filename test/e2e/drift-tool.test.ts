// mediahost-drift with the real CLI: the quickstart stack, clean (exit 0), then drifted out of
// band in six ways (one of them a managed file's content) (exit 2, every drifted property named with both values, as a table and as
// JSON), and a stack that does not exist (exit 1). The tool runs as users run it: the compiled
// bin in a child process, the CLI found on PATH or given with --pulumi.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, type Toolchain, toolchainForTests } from "./helpers/toolchain";

const ORIGIN_PASSWORD = "origin-pw-drift-9c41";
const DRIFT_BIN = join(repoRoot, "dist/tools/drift.js");
const NODE = join(repoRoot, "node_modules/.bin/node");
// the quickstart's thumbnail profile, as its program writes it, and as someone edits it
const QUICKSTART_PROFILE = JSON.stringify({
  resize: { width: 320, height: 320, fit: "cover" },
  format: "webp",
});
const EDITED_PROFILE = JSON.stringify({ resize: { width: 640 }, format: "jpeg" });
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

function runDrift(
  toolchain: Toolchain,
  p: Project,
  args: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      NODE,
      [
        DRIFT_BIN,
        "--cwd",
        join(repoRoot, "examples/quickstart"),
        "--backend-url",
        p.backend.backendUrl,
        ...args,
      ],
      {
        // the backend comes from the flag; PULUMI_HOME and the passphrase as a user's CI sets them
        env: {
          ...toolchain.env,
          PULUMI_BACKEND_URL: "",
          PULUMI_HOME: p.backend.pulumiHome,
          PULUMI_CONFIG_PASSPHRASE: p.backend.envVars.PULUMI_CONFIG_PASSPHRASE as string,
          ...env,
        },
        maxBuffer: 16 << 20,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 });
      },
    );
  });
}

/** The table's data rows as [resource, property, state, account], split on runs of 2+ spaces. */
function tableRows(stdout: string): string[][] {
  return stdout
    .trim()
    .split("\n")
    .slice(1)
    .filter((l) => !l.startsWith("Calls: "))
    .map((l) => l.split(/ {2,}/));
}

describe("mediahost-drift with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  if (!existsSync(DRIFT_BIN)) throw new Error(`${DRIFT_BIN} is missing: run \`npm run build\` first`);

  let p: Project;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "examples/quickstart",
      config: { originPassword: { value: ORIGIN_PASSWORD, secret: true } },
    });
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
  });
  afterAll(() => p?.dispose());

  it("exits 0 and says so when the account matches the stack, a touched file included", async () => {
    // the same content written again: a new mtime, no drift
    await p.api.ops.upload({
      query: { filename: "/assets/thumbnail.profile.json" },
      body: { bytes: new TextEncoder().encode(QUICKSTART_PROFILE), contentType: "application/json" },
    });
    const since = p.emulator.control.requests(0).next;
    const run = await runDrift(toolchain, p, ["--stack", p.stack.name]);
    console.log(`drift (clean stack): ${run.seconds.toFixed(1)} s`);
    expect(run.stderr).toContain("refresh preview of stack");
    expect(run.code, run.stderr).toBe(0);
    // what the check cost, as the account counted it: every call after the first read of the
    // counters (a token is not counted: docs/api.md#rate-limits)
    const counted =
      p.emulator.control.requests(since).requests.filter((r) => r.operation !== "token").length - 1;
    const share = ((100 * counted) / 7000).toFixed(1);
    expect(run.stdout).toBe(
      `No drift: 13 resources match the account.\nCalls: rest:global ${counted} (${share}% of the hour's 7,000).\n`,
    );
    expect(run.stderr).toMatch(/planned \d+ rest:global calls: within the budget/);
  });

  it("exits 2 and names every drifted property with both values, and every deleted object", async () => {
    await p.api.ops.updateAccount({
      body: {
        minify: { enabled: false },
        fetching: {
          enabled: true,
          type: "http",
          http: {
            url: "https://mirror.example.com/media",
            auth: { enabled: true, username: "fetcher", password: ORIGIN_PASSWORD },
          },
        },
      },
    });
    await p.api.ops.updateAccount({
      body: { aliases: { thumbs: { prefix: "/catalog", cdn: true, defaultProfile: "thumbnail" } } },
    });
    await p.api.ops.setTitle({ query: { filename: "/products/shoes" }, body: { title: "Boots" } });
    await p.api.ops.addTags({ query: { filename: "/products/shoes" }, body: { tags: ["sale"] } });
    await p.api.ops.deleteFile({ query: { filename: "/products/bags" } });
    await p.api.ops.upload({
      query: { filename: "/assets/thumbnail.profile.json" },
      body: { bytes: new TextEncoder().encode(EDITED_PROFILE), contentType: "application/json" },
    });
    const before = JSON.stringify(p.emulator.control.state());

    // the CLI given explicitly this time, and nothing of pulumi on PATH but node
    const pulumi = join(toolchain.binDirs.find((d) => existsSync(join(d, "pulumi"))) as string, "pulumi");
    const run = await runDrift(toolchain, p, ["--stack", p.stack.name, "--pulumi", pulumi], {
      PATH: [...toolchain.binDirs, join(repoRoot, "node_modules/.bin"), "/usr/bin", "/bin"].join(":"),
    });
    console.log(`drift (drifted stack): ${run.seconds.toFixed(1)} s\n${run.stdout}`);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`from --pulumi`);
    expect(tableRows(run.stdout)).toEqual([
      [
        "AccountSettings settings",
        "fetching.http.url",
        "https://origin.example.com/media",
        "https://mirror.example.com/media",
      ],
      ["AccountSettings settings", "minify.enabled", "true", "false"],
      ["Alias thumbs", "prefix", "/products", "/catalog"],
      ["File thumbnail-profile", "contentSha256", sha256(QUICKSTART_PROFILE), sha256(EDITED_PROFILE)],
      ["Folder bags", "(resource)", "exists", "gone"],
      ["FolderMeta bags-meta", "(resource)", "exists", "gone"],
      ["FolderMeta shoes-meta", "tags", '["catalog","shoes"]', '["catalog","shoes","sale"]'],
      ["FolderMeta shoes-meta", "title", "Shoes", "Boots"],
    ]);
    expect(run.stdout.split("\n")[0]).toMatch(/^RESOURCE +PROPERTY +IN STATE +IN ACCOUNT$/);
    // a preview only: neither the account nor the stack changed
    expect(JSON.stringify(p.emulator.control.state())).toBe(before);
    for (const text of [run.stdout, run.stderr]) expect(text).not.toContain(ORIGIN_PASSWORD);
  });

  it("prints the same drift as JSON with --json", async () => {
    const run = await runDrift(toolchain, p, ["--stack", p.stack.name, "--json"]);
    expect(run.code, run.stderr).toBe(2);
    const report = JSON.parse(run.stdout) as {
      stack: string;
      checked: number;
      drift: boolean;
      resources: { name: string; type: string; kind: string; urn: string; properties: unknown[] }[];
    };
    expect(report).toMatchObject({ stack: p.stack.name, checked: 13, drift: true });
    const byName = Object.fromEntries(report.resources.map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual([
      "bags",
      "bags-meta",
      "settings",
      "shoes-meta",
      "thumbnail-profile",
      "thumbs",
    ]);
    expect(byName.settings).toMatchObject({
      type: "pulumi-nodejs:dynamic/mediahost:AccountSettings",
      kind: "changed",
      properties: [
        {
          property: "fetching.http.url",
          state: "https://origin.example.com/media",
          account: "https://mirror.example.com/media",
        },
        { property: "minify.enabled", state: true, account: false },
      ],
    });
    expect(byName["shoes-meta"]?.properties).toEqual([
      { property: "tags", state: ["catalog", "shoes"], account: ["catalog", "shoes", "sale"] },
      { property: "title", state: "Shoes", account: "Boots" },
    ]);
    expect(byName.thumbs?.properties).toEqual([
      { property: "prefix", state: "/products", account: "/catalog" },
    ]);
    expect(byName.bags).toMatchObject({ kind: "gone", properties: [] });
    expect(byName.bags?.urn).toMatch(/::pulumi-nodejs:dynamic\/mediahost:Folder::bags$/);
    expect(run.stdout).not.toContain(ORIGIN_PASSWORD);
  });

  it("exits 1 with the reason when the stack does not exist", async () => {
    const run = await runDrift(toolchain, p, ["--stack", "no-such-stack"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/mediahost-drift: error: .*no stack named 'no-such-stack' found/);
    console.log(`drift (missing stack), stderr:\n${run.stderr}`);
  });

  it("uses the provider config of the last update, or with --run-program the current one", async () => {
    await p.stack.setConfig("mediahost:baseUrl", { value: "http://127.0.0.1:9" });
    // like `pulumi refresh`: the credentials recorded at the last update still reach the emulator
    const recorded = await runDrift(toolchain, p, ["--stack", p.stack.name]);
    expect(recorded.code, recorded.stderr).toBe(2);

    // the current config names a port where nothing listens: exit 1, the cause said once
    const current = await runDrift(toolchain, p, ["--stack", p.stack.name, "--run-program"]);
    expect(current.code).toBe(1);
    expect(current.stdout).toBe("");
    const lines = current.stderr.split("\n").filter((l) => l.includes("ECONNREFUSED"));
    expect(lines, current.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}token: no answer from the service .*ECONNREFUSED.* \(.+\)$/);
    expect(current.stderr).toContain("mediahost-drift: error: the refresh preview failed:");
  });
});
