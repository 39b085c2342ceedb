// mediahost-drift paced to the hour's rate budget, with the real CLI: three stacks of
// examples/drift-ci over two accounts, the demo account's rest:global counter nearly used up. A
// fleet run with --budget ends with its report (exit 3, what was left named), never with a 429;
// without --budget a check that does not fit is not started, and says so in one line; after the
// counter frees up, the next run with the same --resume file checks what was left first.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { type DriftSites, driftSites } from "./helpers/drift-sites";
import { DEMO_CLIENT } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const EU = { alias: "eu", clientId: "eu-client", clientSecret: "eu-secret-budget" };
/** The demo account's rest:global limit in this test: its reserve is 5 + 1% = 6 calls. */
const LIMIT = 100;

interface Report {
  stack: string;
  checked: number;
  drift: boolean;
  error?: string;
  left?: string[];
  calls?: Record<string, Record<string, { calls: number; limit: number }>>;
}

describe("mediahost-drift within the hour's rate budget", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let emulator: RunningEmulator;
  let sites: DriftSites;
  let out: string;
  const suffix = Math.random().toString(16).slice(2, 8);
  const names = { a: `site-a-${suffix}`, b: `site-b-${suffix}`, c: `site-c-${suffix}` };
  const drift = (args: string[]) => sites.drift(args);
  /** Leaves `calls` for the demo account to spend beyond its reserve. */
  const leave = (calls: number) =>
    emulator.control.setLimit({ counter: "rest:global", limit: LIMIT, used: LIMIT - 6 - calls });
  const demoRequests = (since: number) =>
    emulator.control.requests(since).requests.filter((r) => r.account === "demo" && r.operation !== "token");

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {}, accounts: [EU] });
    out = await mkdtemp(join(tmpdir(), "mediahost-drift-budget-"));
    // two sites on the demo account, one on the eu account; each refresh needs 4 calls
    sites = await driftSites(
      toolchain,
      emulator.url,
      [
        { name: names.a, site: "alpha", credentials: DEMO_CLIENT },
        { name: names.b, site: "beta", credentials: DEMO_CLIENT },
        { name: names.c, site: "gamma", credentials: EU },
      ].map((s) => ({ ...s, settings: false })),
    );
  });
  afterAll(async () => {
    await sites?.dispose();
    await emulator?.stop();
    if (out) await rm(out, { recursive: true, force: true });
  });

  const resumeFile = () => join(out, "drift-resume.json");
  /** The fleet's nightly check: every stack, the whole hour's budget, what was left carried on. */
  const budgetRun = (...args: string[]) =>
    drift(["--all-stacks", "--budget", "100", "--resume", resumeFile(), ...args]);
  const leftInFile = async () =>
    (JSON.parse(await readFile(resumeFile(), "utf8")) as { left: Record<string, string[]> }).left;

  it("with --budget, checks what fits, ends with the report (exit 3) and never meets a 429", async () => {
    // room for one site's refresh (4 calls), half of another's, and the check's reads of the counters
    leave(9);
    const since = emulator.control.requests(0).next;
    const run = await budgetRun("--format", "json");
    expect(run.code, run.stderr).toBe(3);
    const { summary, stacks: reports } = JSON.parse(run.stdout) as {
      summary: { stacks: number; failed: number; partial: number; clean: number };
      stacks: Report[];
    };
    expect(summary).toMatchObject({ stacks: 3, failed: 0, partial: 1, clean: 2 });
    const partial = reports.find((r) => r.left?.length)!;
    expect([names.a, names.b]).toContain(partial.stack);
    // the alias and the site's folder fit (the account read and one stat); the rest is left
    expect(partial.checked).toBe(2);
    expect(partial.left).toEqual(["Folder banners", "FolderMeta banners-meta"]);
    expect(run.stderr).toMatch(
      /the check needs 4 rest:global calls and 2 may be spent now \(8 left, 6 kept back, --budget 100%\) until \S+Z: checking 2 of 4 resources \(2 calls\), the rest left for the next run/,
    );
    // every report says what its check cost on each counter, as its account counted it: its reads
    // and the last read of the counters
    const spent = (r: Report) => {
      const [account] = Object.keys(r.calls ?? {});
      expect(account).toMatch(/^(demo|eu)-client at 127\.0\.0\.1:\d+$/);
      return r.calls?.[account!]?.["rest:global"]?.calls;
    };
    for (const r of reports) expect(spent(r)).toBe(r === partial ? 3 : 5);
    const requests = emulator.control.requests(since).requests;
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    // the demo account spent what was left to it, and no more
    expect(demoRequests(since).length).toBeLessThanOrEqual(7 + 6);
    expect(Object.keys(await leftInFile())).toEqual([partial.stack]);
  });

  it("without --budget, a check that does not fit is not started and says why in one line (exit 1)", async () => {
    leave(2);
    const since = emulator.control.requests(0).next;
    const run = await drift(["--stack", names.b]);
    expect(run.code).toBe(1);
    const line = run.stderr.split("\n").find((l) => l.includes("nothing was checked"))!;
    expect(line).toMatch(
      /the check needs \d+ rest:global calls and \d+ may be spent now \(\d+ left, 6 kept back\) until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: nothing was checked; run again after the reset, or with --budget PERCENT to check part of it now/,
    );
    // one read of the counters, no refresh
    expect(demoRequests(since).map((r) => r.operation)).toEqual(["getLimits"]);
  });

  it("after the counter frees up, the next run checks what was left first, then the rest", async () => {
    const before = await leftInFile();
    const [held] = Object.keys(before);
    // room for one site again: the stack left over goes first and takes it
    leave(7);
    const first = await budgetRun("--format", "json");
    expect(first.code, first.stderr).toBe(3);
    const reports = (JSON.parse(first.stdout) as { stacks: Report[] }).stacks;
    expect(reports.find((r) => r.stack === held)).toMatchObject({ checked: 4, drift: false });
    // the other site of the demo account found nothing left to spend: not refreshed, nothing spent
    const other = reports.find((r) => r.stack !== held && r.left?.length)!;
    expect(other.checked).toBe(0);
    expect(other.left).toHaveLength(4);
    expect(other.calls).toBeUndefined();
    const now = await leftInFile();
    expect(Object.keys(now)).not.toContain(held);
    expect(Object.keys(now)).toHaveLength(1);

    // the counter resets: everything fits, nothing is left
    emulator.control.setLimit({ counter: "rest:global", limit: LIMIT, used: 0 });
    const last = await budgetRun();
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout.trim().split("\n").at(-1)).toMatch(
      /^3 stacks: 3 clean, 0 drifted, 0 failed; 12 resources checked, 0 drifted; calls: demo-client at 127\.0\.0\.1:\d+: rest:global 10 \(10\.0% of the hour's 100\); eu-client at 127\.0\.0\.1:\d+: rest:global 5 \(0\.1% of the hour's 7,000\)$/,
    );
    expect(await leftInFile()).toEqual({});
  });
});
