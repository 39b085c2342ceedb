// mediahost-generate's account reader against the emulator: depth, paging past 100 entries,
// options and meta of each folder, and the bound on requests in flight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { readAccount } from "../../tools/lib/read-account";

/** An emulator of its own, and a client of its default account. */
async function emulatorWithClient(): Promise<{ emulator: RunningEmulator; client: MediahostClient }> {
  const emulator = await startEmulator({ log: () => {} });
  const client = new MediahostClient({
    baseUrl: emulator.url,
    clientId: "demo-client",
    clientSecret: "demo-secret",
  });
  return { emulator, client };
}

describe("readAccount", () => {
  let emulator: RunningEmulator;
  let client: MediahostClient;
  beforeAll(async () => {
    ({ emulator, client } = await emulatorWithClient());
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

  it("with files, reads each listed file's meta and points, those of a file too large to declare too", async () => {
    const put = (filename: string, size: number) =>
      client.ops.upload({ query: { filename }, body: { bytes: new Uint8Array(size) } });
    await client.ops.mkdir({ query: { dirname: "/media" } });
    await put("/media/hero.jpg", 10);
    await put("/media/huge.jpg", 5000);
    await put("/media/plain.jpg", 10);
    await client.ops.setMeta({
      query: { filename: "/media/hero.jpg" },
      body: { title: "Hero", product: { id: "sku-1", name: "" } },
    });
    for (const [name, x] of [
      ["logo", 0.5],
      ["face", 0.1],
    ] as const)
      await client.ops.setPoi({
        query: { filename: "/media/hero.jpg" },
        body: { name, x, y: 0.2, width: 0.3, height: 0.4 },
      });
    await client.ops.setPoi({
      query: { filename: "/media/huge.jpg" },
      body: { name: "all", x: 0, y: 0, width: 1, height: 1 },
    });
    const snap = await readAccount(client, { depth: 1, concurrency: 4, files: { maxSize: 1000 } });
    // beside the account's image profiles, which every account holds (docs/api.md#files-and-folders)
    expect(snap.files.map((f) => f.path)).toEqual([
      "/Profiles/Default.profile",
      "/Profiles/Thumbnail.profile",
      "/media/hero.jpg",
      "/media/plain.jpg",
    ]);
    expect(snap.largeFiles).toEqual([{ path: "/media/huge.jpg", size: 5000 }]);
    // by path, points by name; a file with neither is not listed
    expect(snap.fileDetails).toEqual([
      {
        path: "/media/hero.jpg",
        meta: { title: "Hero", product: { id: "sku-1" } },
        points: [
          { name: "face", x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
          { name: "logo", x: 0.5, y: 0.2, width: 0.3, height: 0.4 },
        ],
      },
      { path: "/media/huge.jpg", points: [{ name: "all", x: 0, y: 0, width: 1, height: 1 }] },
    ]);
    // without files, none of it is read
    expect((await readAccount(client, { depth: 1, concurrency: 4 })).fileDetails).toEqual([]);
  });
});

describe("readAccount and the account's system folders", () => {
  let emulator: RunningEmulator;
  let client: MediahostClient;
  beforeAll(async () => {
    ({ emulator, client } = await emulatorWithClient());
    // what a real account holds (docs/api.md#files-and-folders), whether or not the emulator seeds it
    for (const dirname of ["/.Trash", "/.processed", "/.well-known", "/Shared", "/Profiles", "/media"])
      await client.ops.mkdir({ query: { dirname } }).catch((err: { isConflictExists?: boolean }) => {
        if (!err.isConflictExists) throw err;
      });
    const put = (filename: string, text: string) =>
      client.ops.upload({ query: { filename }, body: { bytes: new TextEncoder().encode(text) } });
    await put("/.Trash/media/old.jpg", "old");
    await put("/.processed/a/b.jpg", "processed");
    await put("/Shared/team/x.txt", "shared");
    await put("/Profiles/Default.profile", "{}");
    await put("/Profiles/readme.txt", "not a profile");
    await put("/media/a.txt", "mine");
  }, 60_000);
  afterAll(() => emulator?.stop());

  it("declares none of them nor what is in them, but the image profiles, which are files", async () => {
    const snap = await readAccount(client, { depth: 3, concurrency: 4, files: { maxSize: 1000 } });
    expect(snap.systemFolders).toEqual(["/.Trash", "/.processed", "/.well-known", "/Profiles", "/Shared"]);
    expect(snap.folders.map((f) => f.path)).toEqual(["/", "/media"]);
    const files = snap.files.map((f) => f.path);
    expect(files).toContain("/Profiles/Default.profile");
    expect(files).toContain("/media/a.txt");
    expect(
      files.filter(
        (p) => /^\/(\.Trash|\.processed|\.well-known|Shared)\//.test(p) || p === "/Profiles/readme.txt",
      ),
    ).toEqual([]);
  });
});
