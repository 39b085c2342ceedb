// mediahost-drift at fleet scale with the real CLI: three stacks of examples/drift-ci (one per
// site) over two accounts, checked in one run. One stack drifts: exit 2, one summary, the drift in
// every format (JUnit XML: the drifted resource a failed test). Then one stack cannot be checked
// (credentials rotated; a config that cannot be decrypted): exit 1, and the others still reported.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { type DriftRun, type DriftSites, driftSites, DRIFT_CI as workDir } from "./helpers/drift-sites";
import { DEMO_CLIENT } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const EU = { alias: "eu", clientId: "eu-client", clientSecret: "eu-secret-fleet" };

describe("mediahost-drift over three stacks and two accounts", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let emulator: RunningEmulator;
  let sites: DriftSites;
  let stacks: Stack[];
  let out: string;
  const suffix = Math.random().toString(16).slice(2, 8);
  const names = { a: `site-a-${suffix}`, b: `site-b-${suffix}`, c: `site-c-${suffix}` };
  const drift = (args: string[]): Promise<DriftRun> => sites.drift(args);

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {}, accounts: [EU] });
    out = await mkdtemp(join(tmpdir(), "mediahost-drift-fleet-"));
    // two sites on the demo account (one manages its settings), one on the eu account
    sites = await driftSites(toolchain, emulator.url, [
      { name: names.a, site: "alpha", credentials: DEMO_CLIENT, settings: true },
      { name: names.b, site: "beta", credentials: DEMO_CLIENT, settings: false },
      { name: names.c, site: "gamma", credentials: EU, settings: true },
    ]);
    stacks = sites.stacks;
  });
  afterAll(async () => {
    await sites?.dispose();
    await emulator?.stop();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("is clean (exit 0) right after up, with one summary", async () => {
    const run = await drift(["--all-stacks"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/3 stacks: 3 clean, 0 drifted, 0 failed; 14 resources checked, 0 drifted/);
  });

  it("finds the one drifted stack (exit 2), in every format from one check", async () => {
    const api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
    await api.ops.setTitle({ query: { filename: "/beta/banners" }, body: { title: "Old banners" } });
    const junit = join(out, "drift.xml");
    const markdown = join(out, "drift.md");
    const json = join(out, "drift.json");
    const run = await drift([
      "--stack",
      names.a,
      "--stack",
      names.b,
      "--stack",
      names.c,
      "--report",
      `junit=${junit}`,
      "--report",
      `markdown=${markdown}`,
      "--report",
      `json=${json}`,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain(`Stack ${names.b}: 1 drifted`);
    expect(run.stdout).toMatch(/FolderMeta banners-meta\s+title\s+Banners\s+Old banners/);
    expect(run.stdout).toMatch(/3 stacks: 2 clean, 1 drifted, 0 failed/);

    const xml = await readFile(junit, "utf8");
    expect(xml).toMatch(/<testsuites name="mediahost-drift" tests="14" failures="1" errors="0">/);
    expect(xml).toContain(`<testsuite name="${names.b}" tests="4" failures="1" errors="0"`);
    expect(xml).toMatch(
      /<testcase classname="[^"]+" name="FolderMeta banners-meta">\s*<failure message="drift: title">title: Banners in the state, Old banners in the account<\/failure>/,
    );
    expect(xml).toContain(`<testcase classname="${names.a}" name="Alias alpha"/>`);

    const md = await readFile(markdown, "utf8");
    expect(md).toContain(`| ${names.b} | ⚠️ drift | 4 | 1 |`);
    expect(md).toContain("| FolderMeta banners-meta | title | Banners | Old banners |");

    const report = JSON.parse(await readFile(json, "utf8")) as {
      summary: { stacks: number; drifted: number };
      stacks: { stack: string; drift: boolean }[];
    };
    expect(report.summary).toMatchObject({ stacks: 3, drifted: 1 });
    expect(report.stacks.filter((s) => s.drift).map((s) => s.stack)).toEqual([names.b]);
  });

  it("reports a stack it cannot check as an error (exit 1), and the others still", async () => {
    await stacks[2]!.setConfig("mediahost:clientSecret", { value: "rotated-elsewhere", secret: true });
    const run = await drift(["--all-stacks", "--run-program", "--format", "markdown"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`| ${names.c} | ❌ error |`);
    expect(run.stdout).toContain(`| ${names.b} | ⚠️ drift |`);
    expect(run.stdout).toContain(`| ${names.a} | ✅ clean |`);
    expect(run.stdout).toMatch(
      /account \\?"default\\?": the service refused its credentials \(Invalid client credentials\).*check `mediahost:clientSecret`/,
    );
    expect(run.stdout + run.stderr).not.toContain("rotated-elsewhere");
  });

  it("reports a stack whose configuration cannot be read as an error, and the others still", async () => {
    // a secret that cannot be decrypted: reading the stack's config fails before any check
    const file = join(workDir, `Pulumi.${names.c}.yaml`);
    const yaml = await readFile(file, "utf8");
    await writeFile(
      file,
      yaml.replace(/^config:\n/m, "config:\n  broken:\n    secure: v1:bm90LWEtc2VjcmV0:bm90\n"),
    );
    const run = await drift(["--all-stacks", "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { stacks: { stack: string; drift: boolean; error?: string }[] };
    const byName = Object.fromEntries(report.stacks.map((s) => [s.stack, s]));
    expect(byName[names.c]?.error).toMatch(/its configuration could not be read/);
    expect(byName[names.a]).toMatchObject({ drift: false });
    expect(byName[names.a]?.error).toBeUndefined();
    expect(byName[names.b]).toMatchObject({ drift: true });
  });
});
