// mediahost-drift's fleet pieces: stacks of one account take turns within the concurrency bound,
// and the accounts a stack reaches are read from its config without any secret in the key.
import { describe, expect, it } from "vitest";
import { accountKeys, parseShard, runFleet, shardOf } from "../../tools/lib/fleet";
import { exitCode, render, type StackReport } from "../../tools/lib/reports";

describe("runFleet", () => {
  it("runs at most `concurrency` tasks at once and never two holding the same key", async () => {
    let running = 0;
    let peak = 0;
    const byKey = new Map<string, number>();
    const task = (key: string, i: number) => ({
      keys: [key],
      run: async () => {
        running++;
        byKey.set(key, (byKey.get(key) ?? 0) + 1);
        peak = Math.max(peak, running);
        expect(byKey.get(key)).toBe(1);
        await new Promise((r) => setTimeout(r, 10));
        byKey.set(key, (byKey.get(key) ?? 0) - 1);
        running--;
        return i;
      },
    });
    const results = await runFleet(
      Array.from({ length: 9 }, (_, i) => task(`account-${i % 3}`, i)),
      2,
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(peak).toBe(2);
  });
});

describe("accountKeys", () => {
  it("names each account a stack reaches by base URL and client id, never by secret", () => {
    const keys = accountKeys(
      {
        "mediahost:baseUrl": "https://api.example.com",
        "mediahost:clientId": "main",
        "mediahost:clientSecret": "s3cret-main",
        "mediahost:accounts": JSON.stringify({ eu: { clientId: "eu", clientSecret: "s3cret-eu" } }),
      },
      {},
    );
    expect(keys).toEqual(["https://api.example.com main", "https://api.example.com eu"]);
    expect(keys.join()).not.toMatch(/s3cret/);
  });
});

describe("reports", () => {
  const reports: StackReport[] = [
    { stack: "a", checked: 2, drift: false, resources: [], names: ["Folder f", "Alias <b>"] },
    {
      stack: "b",
      checked: 1,
      drift: false,
      resources: [],
      error: 'the refresh preview failed:\n  token: HTTP 401 "x"',
    },
  ];
  it("an error in any stack is exit 1, even beside drift", () => {
    expect(exitCode(reports)).toBe(1);
    expect(exitCode([reports[0]!])).toBe(0);
  });

  it("writes JUnit XML with every checked resource a test, escaped", () => {
    const xml = render("junit", reports);
    expect(xml).toContain('<testcase classname="a" name="Alias &lt;b&gt;"/>');
    expect(xml).toContain('<error message="the refresh preview failed:">');
    expect(xml).toContain("token: HTTP 401 &quot;x&quot;");
  });
});

describe("--shard K/N", () => {
  it("splits the stacks among N runners: none twice, none left out, sizes within one", () => {
    const names = Array.from({ length: 61 }, (_, i) => `site-${String(i).padStart(2, "0")}`).reverse();
    const shards = [1, 2, 3].map((k) => shardOf(names, parseShard(`${k}/3`)));
    expect(shards.flat().sort()).toEqual([...names].sort());
    expect(new Set(shards.flat()).size).toBe(names.length);
    expect(shards.map((s) => s.length)).toEqual([21, 20, 20]);
    // the same split whatever order the backend listed them in
    expect(shardOf([...names].sort(), parseShard("2/3"))).toEqual(shards[1]);
  });

  it("refuses a shard that is not K/N with 1 <= K <= N, naming the rule", () => {
    for (const bad of ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"])
      expect(() => parseShard(bad)).toThrow(`--shard must be K/N with 1 <= K <= N, got "${bad}"`);
  });
});
