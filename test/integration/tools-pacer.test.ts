// mediahost-generate's reads paced to the account's rate budget (tools/lib/pacer.ts), against the
// emulator over loopback: reads that fit go at once; reads that do not are refused after the
// listing, in one line, or with --wait-for-budget made as the counter frees up, never meeting a 429.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { TokenCache } from "../../provider/client/tokens";
import { runPaced } from "../../tools/lib/pacer";
import { type ReadOptions, readAccount } from "../../tools/lib/read-account";

const DEMO = { clientId: "demo-client", clientSecret: "demo-secret" };
/** rest:global in this test: its reserve is 5 + 1% = 6 calls. */
const LIMIT = 100;

describe("reads paced to the rate budget", () => {
  let emulator: RunningEmulator;
  let client: MediahostClient;
  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    client = new MediahostClient({ baseUrl: emulator.url, ...DEMO, tokenCache: new TokenCache() });
    await client.ops.mkdir({ query: { dirname: "/shop" } });
    for (let i = 0; i < 12; i++)
      await client.ops.upload({
        query: { filename: `/shop/p${i}.txt` },
        body: { bytes: new TextEncoder().encode(`product ${i}`), contentType: "text/plain" },
      });
    await client.ops.setMeta({ query: { filename: "/shop/p3.txt" }, body: { title: "Third" } });
  });
  afterAll(() => emulator?.stop());

  /** Leaves `calls` to spend beyond the reserve. */
  const leave = (calls: number) =>
    emulator.control.setLimit({ counter: "rest:global", limit: LIMIT, used: LIMIT - 6 - calls });
  const read = (lines: string[], wait: boolean, pollMs?: number) => {
    const options: ReadOptions = {
      depth: 2,
      concurrency: 4,
      files: { maxSize: 1 << 20 },
      runReads: (reads) =>
        runPaced(client, reads, { concurrency: 4, wait, pollMs, say: (l) => lines.push(l) }),
    };
    return readAccount(client, options);
  };

  it("goes at once when the reads fit, saying what they need", async () => {
    leave(80);
    const lines: string[] = [];
    const snap = await read(lines, false);
    // the 12 products and the account's two image profiles (/Profiles)
    expect(snap.files).toHaveLength(14);
    // the root's and /shop's details (2 each), each file's meta and points (2) and bytes (1); the
    // listing spent 5 (the account, three listings, the counters)
    expect(lines).toEqual([
      expect.stringMatching(
        /^the reads need 46 rest:global calls \(46% of the hour's 100\) and 75 may be spent now \(81 left, 6 kept back\) until \S+Z: within the budget$/,
      ),
    ]);
  });

  it("refuses after the listing, in one line, reads that do not fit", async () => {
    leave(20);
    const since = emulator.control.requests(0).next;
    const lines: string[] = [];
    const refused = await read(lines, false).then(
      () => "read",
      (err: Error) => err.message,
    );
    expect(refused).toMatch(
      /^the reads need 46 rest:global calls \(46% of the hour's 100\) and 15 may be spent now \(21 left, 6 kept back\) until \S+Z: nothing more was read; run again with --wait-for-budget to read at the service's pace \(about 1 h\), or read less \(--depth, --max-file-size\)$/,
    );
    const made = emulator.control.requests(since).requests.map((r) => r.operation);
    expect(made.filter((o) => o === "getMeta" || o === "getPoi" || o === "download")).toEqual([]);
  });

  it("with --wait-for-budget, reads what fits, waits for the counter, and finishes without a 429", async () => {
    leave(20);
    const since = emulator.control.requests(0).next;
    const lines: string[] = [];
    const reading = read(lines, true, 200);
    // the counter frees up once the reader waits on it (an hour on the service; here, by hand)
    await expect
      .poll(() => lines.some((l) => l.includes("waiting for rest:global")), { timeout: 10_000 })
      .toBe(true);
    emulator.control.setLimit({ counter: "rest:global", limit: LIMIT, used: 0 });
    const snap = await reading;
    expect(snap.files.map((f) => f.path)).toHaveLength(14);
    expect(snap.fileDetails).toEqual([{ path: "/shop/p3.txt", meta: { title: "Third" }, points: [] }]);
    expect(lines[0]).toMatch(/: reading at the service's pace, waiting for the counter as it frees up$/);
    expect(emulator.control.requests(since).requests.filter((r) => r.status === 429)).toEqual([]);
  });
});
