// docs/api.md's [live] facts: the emulator's default account is a real account. It holds the
// system folders with content (also a new account, and every account after a reset); it answers
// in the shapes the live service answers (nullable media meta, a system folder without `mtime` or
// `meta`, `continuation: null` on a last page, the token's scope as one string in an array,
// search hits without `_type`, the billing plan without `description`); an upload is typed by its
// name; a deleted file moves to /.Trash + its path. Each documented shape is a variant:
// `documented-shapes`, `content-type-declared`, `delete-final`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, type Emulator, setup, until } from "./helpers/emulator";
import { type Origin, PNG_1X1, putFile, startOrigin } from "./helpers/files";

let emu: Emulator;
let api: Client;
let origin: Origin;

beforeAll(async () => {
  ({ emu, api } = await setup());
  origin = await startOrigin();
});
afterAll(async () => {
  await emu?.stop();
  await origin?.close();
});
beforeEach(async () => {
  await api.variants([]);
});

const SYSTEM_FOLDERS = [".Trash", ".processed", ".well-known", "Profiles", "Shared"];
/** Every file a new account holds, in path order. */
const SYSTEM_FILES = [
  "/.Trash/.processed/D3/jF/old-banner_thumbnail.jpg",
  "/.Trash/old-banner.jpg",
  "/.processed/Kq/7w/welcome_thumbnail.jpg",
  "/Profiles/Default.profile",
  "/Profiles/Thumbnail.profile",
];

const readdir = (c: Client, dirname: string) => c.get("/v2/files/readdir", { dirname });
const stat = (c: Client, filename: string) => c.get("/v2/files/stat", { filename });
const names = async (c: Client, dirname: string) =>
  (await readdir(c, dirname)).body.contents.map((e: { filename: string }) => e.filename);
const download = async (c: Client, filename: string) => {
  const res = await fetch(new URL(`/v2/files/download?filename=${encodeURIComponent(filename)}`, c.url), {
    headers: { authorization: `Bearer ${await c.token()}` },
  });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
};
const upload = (filename: string, bytes: string | Uint8Array, contentType: string) =>
  api.call("POST", "/v2/files/upload", {
    query: { filename },
    rawBody: bytes,
    headers: { "content-type": contentType },
  });
const del = (filename: string) => api.post("/v2/files/delete", undefined, { filename });

/** Every path of an account's tree, from the control surface. */
async function paths(c: Client, alias: string): Promise<string[]> {
  return (await c.state(alias)).tree.map((e: { path: string }) => e.path);
}

/** A fresh account of its own, with a client for it. */
async function freshAccount(alias: string): Promise<Client> {
  await api.addAccount(alias, `${alias}-client`, `${alias}-secret`);
  return new Client(api.url, `${alias}-client`, `${alias}-secret`);
}

describe("the system folders every account holds", () => {
  it("a new account's root lists the five system folders, and nothing else", async () => {
    const c = await freshAccount("sys-new");
    expect(await names(c, "/")).toEqual(SYSTEM_FOLDERS);
    const files = (await c.state("sys-new")).tree.filter((e: { isDirectory: boolean }) => !e.isDirectory);
    expect(files.map((e: { path: string }) => e.path)).toEqual(SYSTEM_FILES);
  });

  it("hold a trashed image and its trashed thumbnail, a processed copy, two profiles; .well-known and Shared empty", async () => {
    const c = await freshAccount("sys-content");
    expect(await names(c, "/.Trash")).toEqual([".processed", "old-banner.jpg"]);
    const banner = (await readdir(c, "/.Trash")).body.contents[1];
    expect(banner).toMatchObject({ contentType: "image/jpeg", isDirectory: false });
    expect(banner.meta).toEqual({ width: 8, height: 4, duration: 0 });
    expect(await names(c, "/.Trash/.processed/D3/jF")).toEqual(["old-banner_thumbnail.jpg"]);
    expect(await names(c, "/.processed/Kq/7w")).toEqual(["welcome_thumbnail.jpg"]);
    expect(await names(c, "/Profiles")).toEqual(["Default.profile", "Thumbnail.profile"]);
    for (const name of ["Default.profile", "Thumbnail.profile"]) {
      const s = await stat(c, `/Profiles/${name}`);
      expect(s.body).toMatchObject({ contentType: "application/json", isDirectory: false, meta: {} });
      const d = await download(c, `/Profiles/${name}`);
      expect(d.status).toBe(200);
      expect(d.type).toContain("application/json");
      expect(JSON.parse(d.bytes.toString())).toBeTypeOf("object");
      expect(d.bytes.length).toBe(s.body.size);
    }
    const image = await download(c, "/.Trash/old-banner.jpg");
    expect(image.bytes.subarray(0, 2).toString("hex")).toBe("ffd8");
    expect((await readdir(c, "/.well-known")).body.contents).toEqual([]);
    expect((await readdir(c, "/Shared")).body.contents).toEqual([]);
  });

  it("count in storage as any file", async () => {
    const c = await freshAccount("sys-storage");
    let used = 0;
    for (const path of SYSTEM_FILES) used += (await stat(c, path)).body.size;
    expect(used).toBeGreaterThan(0);
    const storage = (await c.get("/v2/account/storage")).body;
    expect(storage).toMatchObject({ files: SYSTEM_FILES.length, used, extra: 0, quotaExceededDate: null });
    expect(Object.keys(storage).sort()).toEqual(
      ["burstable", "extra", "files", "plan", "quotaExceededDate", "used"].sort(),
    );
  });

  it("are what a reset goes back to, the same as before, whatever was done to them", async () => {
    const before = await api.state("demo");
    await del("/Profiles/Default.profile");
    await del("/.Trash/old-banner.jpg");
    await api.post("/v2/files/mkdir", undefined, { dirname: "/Shared/mine" });
    await putFile(api, origin, "/after-reset.txt", "x");
    await api.reset();
    const after = await api.state("demo");
    expect(after.tree).toEqual(before.tree);
    expect(await names(api, "/")).toEqual(SYSTEM_FOLDERS);
    expect((await download(api, "/Profiles/Default.profile")).status).toBe(200);
  });

  it("answer as the live service does: the root's entries and stat without mtime, ctime or meta", async () => {
    const root = (await readdir(api, "/")).body;
    const system = root.contents.filter((e: { filename: string }) => SYSTEM_FOLDERS.includes(e.filename));
    expect(system).toHaveLength(5);
    for (const e of system) expect(e).toEqual({ filename: e.filename, size: 0, isDirectory: true });
    for (const name of SYSTEM_FOLDERS)
      expect((await stat(api, `/${name}`)).body).toEqual({ size: 0, isDirectory: true });
    // a folder inside one is any folder
    const inside = (await readdir(api, "/.Trash")).body.contents[0];
    expect(inside).toMatchObject({ filename: ".processed", size: 0, isDirectory: true, meta: {} });
    expect(Number.isNaN(Date.parse(inside.mtime))).toBe(false);
  });

  it("documented-shapes: their entries and stat are complete", async () => {
    await api.variants(["documented-shapes"]);
    for (const e of (await readdir(api, "/")).body.contents) {
      expect(e).toMatchObject({ isDirectory: true, size: 0, meta: {} });
      expect(Number.isNaN(Date.parse(e.mtime))).toBe(false);
    }
    const s = (await stat(api, "/.Trash")).body;
    expect(s).toMatchObject({ size: 0, isDirectory: true, meta: {} });
    expect(Number.isNaN(Date.parse(s.mtime))).toBe(false);
    expect(Number.isNaN(Date.parse(s.ctime))).toBe(false);
  });
});

describe("answers in the live shapes; documented-shapes plays the documentation's", () => {
  it("a video's duration and dimensions are null, an image's duration 0; no format in readdir or stat", async () => {
    await upload("/shapes/clip.mp4", "not a real video", "video/mp4");
    await upload("/shapes/pixel.png", PNG_1X1, "image/png");
    const byName = Object.fromEntries(
      (await readdir(api, "/shapes")).body.contents.map((e: { filename: string }) => [e.filename, e]),
    );
    expect(byName["clip.mp4"].meta).toEqual({ width: null, height: null, duration: null });
    expect(byName["pixel.png"].meta).toEqual({ width: 1, height: 1, duration: 0 });
    expect((await stat(api, "/shapes/clip.mp4")).body.meta).toEqual({
      width: null,
      height: null,
      duration: null,
    });

    await api.variants(["documented-shapes"]);
    expect((await stat(api, "/shapes/clip.mp4")).body.meta).toEqual({
      width: null,
      height: null,
      duration: 0,
    });
    const entry = (await readdir(api, "/shapes")).body.contents.find(
      (e: { filename: string }) => e.filename === "clip.mp4",
    );
    expect(entry.meta.duration).toBe(0);
  });

  it("a last readdir page carries continuation: null (documented-shapes: none)", async () => {
    const live = (await readdir(api, "/")).body;
    expect(live).toHaveProperty("continuation", null);
    await api.variants(["documented-shapes"]);
    expect((await readdir(api, "/")).body).not.toHaveProperty("continuation");
  });

  it("the token's scope is one space-separated string in an array (documented-shapes: separate scopes; token-scope-string: a bare string)", async () => {
    const token = () =>
      api.call("POST", "/v2/token", {
        body: { clientId: "demo-client", clientSecret: "demo-secret" },
        token: null,
      });
    const live = (await token()).body.scope;
    expect(live).toHaveLength(1);
    expect(live[0]).toMatch(/^account:read account:write( [a-z:]+)+$/);
    await api.variants(["documented-shapes"]);
    const documented = (await token()).body.scope;
    expect(documented).toEqual(live[0].split(" "));
    await api.variants(["token-scope-string"]);
    expect((await token()).body.scope).toBe(live[0]);
  });

  it("search hits have no _type or _routing, and a null duration (documented-shapes: _type _doc, _routing, 0)", async () => {
    await upload("/hits/movie.mp4", "frames", "video/mp4");
    const query = { query: "dirname:\\/hits" };
    const [live] = (await api.post("/v2/files/search", query)).body.hits;
    expect(Object.keys(live).sort()).toEqual(["_id", "_index", "_score", "_source"]);
    expect(live._index).toBe("sirvfs-v4");
    expect(live._source.meta).toEqual({ width: null, height: null, duration: null, format: "mp4" });
    await api.variants(["documented-shapes"]);
    const [documented] = (await api.post("/v2/files/search", query)).body.hits;
    expect(documented).toMatchObject({ _type: "_doc", _routing: "demo", _index: "sirvfs-v4" });
    expect(documented._source.meta.duration).toBe(0);
  });

  it("the billing plan has no description (documented-shapes: it has)", async () => {
    expect((await api.get("/v2/billing/plan")).body).not.toHaveProperty("description");
    await api.variants(["documented-shapes"]);
    expect(typeof (await api.get("/v2/billing/plan")).body.description).toBe("string");
  });
});

describe("an upload is typed by its name; content-type-declared keeps the type sent", () => {
  it("the simple upload", async () => {
    await upload("/typed/photo.jpg", "jpeg bytes", "text/plain");
    await upload("/typed/no-extension", "bytes", "image/png");
    await upload("/typed/profile.profile", "{}", "application/json");
    expect((await stat(api, "/typed/photo.jpg")).body.contentType).toBe("image/jpeg");
    expect((await stat(api, "/typed/no-extension")).body.contentType).toBe("application/octet-stream");
    expect((await stat(api, "/typed/profile.profile")).body.contentType).toBe("application/octet-stream");

    await api.variants(["content-type-declared"]);
    await upload("/typed/kept.jpg", "jpeg bytes", "text/plain");
    await upload("/typed/kept.profile", "{}", "application/json");
    await upload("/typed/unsaid.jpg", "jpeg bytes", "application/octet-stream");
    expect((await stat(api, "/typed/kept.jpg")).body.contentType).toBe("text/plain");
    expect((await stat(api, "/typed/kept.profile")).body.contentType).toBe("application/json");
    expect((await stat(api, "/typed/unsaid.jpg")).body.contentType).toBe("image/jpeg");
  });

  it("a tus upload", async () => {
    const put = async (filename: string, filetype: string) => {
      const link = JSON.parse((await api.get("/v2/files/tus/url", { location: "local" })).text).url as string;
      const meta = [filename, filetype].map((v) => Buffer.from(v).toString("base64"));
      const created = await fetch(link, {
        method: "POST",
        headers: {
          "tus-resumable": "1.0.0",
          "upload-length": "3",
          "upload-metadata": `filename ${meta[0]},filetype ${meta[1]}`,
          "content-type": "application/offset+octet-stream",
        },
        body: "abc",
      });
      expect(created.status).toBe(201);
      await until(`${filename} to exist`, async () =>
        (await stat(api, filename)).status === 200 ? true : undefined,
      );
    };
    await put("/typed/tus.png", "text/plain");
    expect((await stat(api, "/typed/tus.png")).body.contentType).toBe("image/png");
    await api.variants(["content-type-declared"]);
    await put("/typed/tus-kept.png", "text/plain");
    expect((await stat(api, "/typed/tus-kept.png")).body.contentType).toBe("text/plain");
  });
});

describe("a deleted file moves to /.Trash + its path; delete-final deletes at once", () => {
  it("the file is found there, with its bytes, type and time; a second one gets .1; inside /.Trash a delete is final", async () => {
    await upload("/bin/a.txt", "first", "text/plain");
    const before = (await stat(api, "/bin/a.txt")).body;
    expect((await del("/bin/a.txt")).status).toBe(200);
    expect((await stat(api, "/bin/a.txt")).status).toBe(404);
    const trashed = await stat(api, "/.Trash/bin/a.txt");
    expect(trashed.status, trashed.text).toBe(200);
    expect(trashed.body).toMatchObject({ size: 5, contentType: "text/plain", mtime: before.mtime });
    expect((await download(api, "/.Trash/bin/a.txt")).bytes.toString()).toBe("first");

    await upload("/bin/a.txt", "second", "text/plain");
    await del("/bin/a.txt");
    expect(await names(api, "/.Trash/bin")).toEqual(["a.txt", "a.txt.1"]);
    expect((await download(api, "/.Trash/bin/a.txt.1")).bytes.toString()).toBe("second");

    expect((await del("/.Trash/bin/a.txt.1")).status).toBe(200);
    expect(await names(api, "/.Trash/bin")).toEqual(["a.txt"]);
    expect((await paths(api, "demo")).filter((p) => p.startsWith("/.Trash/.Trash"))).toEqual([]);
  });

  it("keeps at most 10 copies of a name: the next one replaces .9", async () => {
    for (let i = 0; i < 11; i++) {
      await upload("/ten/f.txt", `copy ${i}`, "text/plain");
      expect((await del("/ten/f.txt")).status).toBe(200);
    }
    expect(await names(api, "/.Trash/ten")).toEqual([
      "f.txt",
      ...Array.from({ length: 9 }, (_, i) => `f.txt.${i + 1}`),
    ]);
    expect((await download(api, "/.Trash/ten/f.txt")).bytes.toString()).toBe("copy 0");
    expect((await download(api, "/.Trash/ten/f.txt.8")).bytes.toString()).toBe("copy 8");
    expect((await download(api, "/.Trash/ten/f.txt.9")).bytes.toString()).toBe("copy 10");
  });

  it("a folder is deleted outright; a batch delete moves the files in a folder to the trash and removes its folders", async () => {
    await api.post("/v2/files/mkdir", undefined, { dirname: "/hollow" });
    await del("/hollow");
    expect((await stat(api, "/.Trash/hollow")).status).toBe(404);

    await upload("/batch/x.txt", "x", "text/plain");
    await upload("/batch/sub/y.txt", "y", "text/plain");
    await api.post("/v2/files/mkdir", undefined, { dirname: "/batch/empty" });
    const { id } = (await api.post("/v2/files/batch/delete", { filenames: ["/batch"] })).body;
    await until("the batch delete to finish", async () => {
      const job = (await api.get("/v2/files/batch/delete", { id })).body;
      return job.progress === 100 ? job : undefined;
    });
    expect((await stat(api, "/batch")).status).toBe(404);
    const trashed = (await paths(api, "demo")).filter((p) => p.startsWith("/.Trash/batch"));
    expect(trashed).toEqual([
      "/.Trash/batch",
      "/.Trash/batch/sub",
      "/.Trash/batch/sub/y.txt",
      "/.Trash/batch/x.txt",
    ]);
  });

  it("delete-final: a file is gone at once, by delete and by batch delete", async () => {
    await api.variants(["delete-final"]);
    await upload("/final/a.txt", "a", "text/plain");
    await upload("/final/b/c.txt", "c", "text/plain");
    const storage = (await api.get("/v2/account/storage")).body;
    await del("/final/a.txt");
    const { id } = (await api.post("/v2/files/batch/delete", { filenames: ["/final/b"] })).body;
    await until("the batch delete to finish", async () => {
      const job = (await api.get("/v2/files/batch/delete", { id })).body;
      return job.progress === 100 ? job : undefined;
    });
    expect((await paths(api, "demo")).filter((p) => p.startsWith("/.Trash/final"))).toEqual([]);
    expect((await api.get("/v2/account/storage")).body).toMatchObject({
      files: storage.files - 2,
      used: storage.used - 2,
    });
  });
});
