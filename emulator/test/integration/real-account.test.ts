// The real-size account (`realAccount`, `--real-account`) seen through the /v2 API with the
// provider's client: its files, nested folders, listings that page, meta, points, folder options,
// storage counts and image dimensions, and the system folders beside it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SYSTEM_FOLDERS } from "mediahost-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFolder, MediahostClient } from "../../../provider/client";
import { type RunningEmulator, startEmulator } from "../../index";
import { REAL_ACCOUNT_FILES } from "../../real-account";

interface Listed {
  path: string;
  isDirectory: boolean;
  size: number;
  contentType?: string;
  meta?: { width?: number | null; height?: number | null };
}

describe("a real-size account", () => {
  let emulator: RunningEmulator;
  let client: MediahostClient;
  const entries: Listed[] = [];
  /** Pages each folder's listing took. */
  const pages = new Map<string, number>();

  beforeAll(async () => {
    emulator = await startEmulator({ realAccount: REAL_ACCOUNT_FILES, log: () => {} });
    client = new MediahostClient({
      baseUrl: emulator.url,
      clientId: "demo-client",
      clientSecret: "demo-secret",
    });
    const walk = async (dir: string): Promise<void> => {
      const found: Listed[] = [];
      for await (const e of listFolder(client, dir))
        found.push({ ...e, path: dir === "/" ? `/${e.filename}` : `${dir}/${e.filename}` } as Listed);
      entries.push(...found);
      await Promise.all(
        found
          .filter((e) => e.isDirectory && !SYSTEM_FOLDERS[e.path as keyof typeof SYSTEM_FOLDERS])
          .map((e) => walk(e.path)),
      );
    };
    await walk("/");
    for (const r of emulator.control.requests(0).requests) {
      if (r.operation !== "readdir") continue;
      const dir = new URLSearchParams(r.query).get("dirname") as string;
      pages.set(dir, (pages.get(dir) ?? 0) + 1);
    }
  }, 60_000);
  afterAll(() => emulator?.stop());

  it("holds 6,537 files outside the system folders, in folders nested several levels", () => {
    const files = entries.filter((e) => !e.isDirectory);
    expect(files).toHaveLength(REAL_ACCOUNT_FILES);
    const depths = entries.filter((e) => e.isDirectory).map((e) => e.path.split("/").length - 1);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(4);
    expect(depths.filter((d) => d >= 3).length).toBeGreaterThan(20);
  });

  it("has the system folders every account holds, with their content", async () => {
    const root = entries.filter((e) => e.path.lastIndexOf("/") === 0 && e.isDirectory).map((e) => e.path);
    for (const system of Object.keys(SYSTEM_FOLDERS)) expect(root).toContain(system);
    const profiles = [];
    for await (const e of listFolder(client, "/Profiles")) profiles.push(e.filename);
    expect(profiles).toEqual(["Default.profile", "Thumbnail.profile"]);
  });

  it("has folders of varied sizes: listings of more than one page, and small ones", () => {
    const counts = [...pages.values()];
    expect(counts.filter((n) => n > 1).length).toBeGreaterThan(5);
    expect(counts.filter((n) => n === 1).length).toBeGreaterThan(100);
  });

  it("gives a third of the files meta (title, tags, product), found by search", async () => {
    const third = Math.ceil(REAL_ACCOUNT_FILES / 3);
    const titled = await client.ops.search({
      body: { query: "meta.title:* AND -dirname.paths:\\/.Trash", size: 1 },
    });
    expect(titled.total).toBe(third);
    const tagged = await client.ops.search({
      body: { query: "meta.tags:* AND -dirname.paths:\\/.Trash", size: 1 },
    });
    expect(tagged.total).toBe(third);
    const hit = titled.hits[0]?._source.filename as string;
    const meta = await client.ops.getMeta({ query: { filename: hit } });
    expect(meta.title).toEqual(expect.any(String));
    expect(meta.tags?.length).toBeGreaterThan(0);
    expect(meta.product).toEqual(
      expect.objectContaining({ id: expect.stringMatching(/^SKU-/), brand: expect.any(String) }),
    );
  });

  it("gives some images points of interest", async () => {
    const images = entries.filter((e) => /\.(jpg|png|webp)$/.test(e.path)).slice(0, 120);
    const points = await Promise.all(images.map((e) => client.ops.getPoi({ query: { filename: e.path } })));
    const withPoints = points.filter((p) => Object.keys(p).length > 0);
    expect(withPoints.length).toBeGreaterThan(3);
    expect(withPoints.length).toBeLessThan(images.length / 4);
    expect(withPoints[0]).toEqual(
      expect.objectContaining({ face: { x: 0.1, y: 0.1, width: 0.3, height: 0.4 } }),
    );
  });

  it("sets options and meta on some folders, not on most", async () => {
    const folders = entries.filter(
      (e) => e.isDirectory && !SYSTEM_FOLDERS[e.path as keyof typeof SYSTEM_FOLDERS],
    );
    const options = await Promise.all(
      folders.map((f) => client.ops.getFolderOptions({ query: { filename: f.path } })),
    );
    const set = options.filter((o) => Object.values(o).some((v) => v !== undefined));
    expect(set.length).toBeGreaterThan(10);
    expect(set.length).toBeLessThan(folders.length / 2);
  });

  it("answers content types by extension, image dimensions from the bytes, and counts its storage", async () => {
    const byExt = (ext: string) => entries.find((e) => e.path.endsWith(`.${ext}`)) as Listed;
    for (const [ext, type] of [
      ["jpg", "image/jpeg"],
      ["png", "image/png"],
      ["webp", "image/webp"],
      ["gif", "image/gif"],
      ["mp4", "video/mp4"],
      ["pdf", "application/pdf"],
    ] as const) {
      const e = byExt(ext);
      expect(e.contentType, ext).toBe(type);
      if (type.startsWith("image/")) expect(e.meta?.width, ext).toBeGreaterThan(100);
    }
    const jpg = byExt("jpg");
    const bytes = await client.ops.download({ query: { filename: jpg.path } });
    expect(bytes.byteLength).toBe(jpg.size);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const storage = await client.ops.getStorage();
    const listedBytes = entries.filter((e) => !e.isDirectory).reduce((a, e) => a + e.size, 0);
    // the system folders' files (5 of them, a few hundred bytes) besides the account's own
    expect(storage.files).toBe(REAL_ACCOUNT_FILES + 5);
    expect(storage.used).toBeGreaterThan(listedBytes);
  });

  it("is the same account every run, and again after a reset", async () => {
    const content = () => {
      const { tree, meta, options } = emulator.control.state("demo");
      return { tree, meta, options };
    };
    const before = content();
    await emulator.control.reset();
    expect(content()).toEqual(before);
    const other = await startEmulator({ realAccount: 300, log: () => {} });
    try {
      const small = other.control.state("demo", { mtimes: true });
      expect(
        small.tree.filter((n) => !n.isDirectory && !/^\/(\.Trash|\.processed|Profiles)\//.test(n.path)),
      ).toHaveLength(300);
    } finally {
      await other.stop();
    }
  });

  it("with --data, is seeded once: a restart keeps the account as it is, changes included", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "mediahost-real-"));
    try {
      const first = await startEmulator({ realAccount: 200, dataDir, log: () => {} });
      const c = new MediahostClient({
        baseUrl: first.url,
        clientId: "demo-client",
        clientSecret: "demo-secret",
      });
      await c.ops.deleteFile({ query: { filename: "/banner.jpg" } });
      const before = first.control.state("demo").tree;
      await first.stop();
      const logged: string[] = [];
      const again = await startEmulator({ realAccount: 200, dataDir, log: (m) => logged.push(m) });
      try {
        expect(again.control.state("demo").tree).toEqual(before);
        expect(logged).toContain("--real-account: account demo already holds files; kept as it is");
      } finally {
        await again.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
