// mediahost-generate's account reader against the emulator: depth, paging past 100 entries,
// options and meta of each folder, and the bound on requests in flight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { readAccount } from "../../tools/lib/read-account";

describe("readAccount", () => {
  let emulator: RunningEmulator;
  let client: MediahostClient;
  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    client = new MediahostClient({
      baseUrl: emulator.url,
      clientId: "demo-client",
      clientSecret: "demo-secret",
    });
    await client.ops.mkdir({ query: { dirname: "/many" } });
    for (let i = 0; i < 130; i++)
      await client.ops.mkdir({ query: { dirname: `/many/f${String(i).padStart(3, "0")}` } });
    await client.ops.mkdir({ query: { dirname: "/many/f000/deep" } });
    await client.ops.setMeta({ query: { filename: "/many/f129" }, body: { title: "Last", description: "" } });
    await client.ops.addTags({ query: { filename: "/many/f129" }, body: { tags: ["t"] } });
    await client.ops.setFolderOptions({ query: { filename: "/many" }, body: { allowListing: true } });
    await client.ops.setMeta({
      query: { filename: "/many/f128" },
      body: { product: { id: "sku-9", brand: "" }, approval: { approved: true } },
    });
    await client.ops.updateAccount({ body: { minify: { enabled: true } } });
  }, 60_000);
  afterAll(() => emulator?.stop());

  it("reads every folder to the depth asked, past the first page, with its options and meta", async () => {
    const snap = await readAccount(client, { depth: 2, concurrency: 8 });
    expect(snap.accountAlias).toBe("demo");
    expect(snap.minify).toEqual({ enabled: true });
    expect(snap.fetching).toEqual({ enabled: false });
    expect(snap.aliases).toEqual([{ name: "demo", prefix: "/", cdn: true }]);
    expect(snap.folders.map((f) => f.path)).toHaveLength(1 + 1 + 130);
    expect(snap.folders[0]).toEqual({ path: "/" });
    expect(snap.folders.at(-1)).toEqual({ path: "/many/f129", meta: { title: "Last", tags: ["t"] } });
    // product without its empty fields; approval without the time the service stamped
    expect(snap.folders.at(-2)).toEqual({
      path: "/many/f128",
      meta: { product: { id: "sku-9" }, approval: { approved: true } },
    });
    expect(snap.folders.find((f) => f.path === "/many")).toEqual({
      path: "/many",
      options: { allowListing: true },
    });
    expect(snap.truncatedAt).toEqual(["/many/f000"]);
  });

  it("reads no folders at depth 0, and the nested one at depth 3", async () => {
    expect((await readAccount(client, { depth: 0, concurrency: 4 })).folders).toEqual([{ path: "/" }]);
    const deep = await readAccount(client, { depth: 3, concurrency: 4 });
    expect(deep.folders.map((f) => f.path)).toContain("/many/f000/deep");
    expect(deep.truncatedAt).toEqual([]);
  });

  it("keeps at most `concurrency` requests in flight, listings and per-folder reads together", async () => {
    let active = 0;
    let peak = 0;
    const ops = new Proxy(client.ops, {
      get:
        (target, name) =>
        async (...args: unknown[]) => {
          active++;
          peak = Math.max(peak, active);
          try {
            return await (target[name as keyof typeof target] as (...a: unknown[]) => Promise<unknown>)(
              ...args,
            );
          } finally {
            active--;
          }
        },
    });
    const snapshot = await readAccount({ ...client, ops } as MediahostClient, { depth: 2, concurrency: 3 });
    expect(snapshot.folders.length).toBeGreaterThan(10);
    expect(peak).toBe(3);
  });
});
