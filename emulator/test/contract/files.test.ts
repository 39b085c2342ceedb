// docs/api.md "Files and folders", "Errors" and "Bounds"; the file rows of the operation table.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, type Emulator, setup } from "./helpers/emulator";
import { mkdirs, type Origin, PNG_1X1, putFile, putFiles, startOrigin } from "./helpers/files";
import { fsErrorMessage } from "./helpers/samples";

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
  await api.reset();
});

const stat = (filename: string) => api.get("/v2/files/stat", { filename });
const readdir = (dirname: string, continuation?: string) =>
  api.get("/v2/files/readdir", { dirname, continuation });
const download = async (filename: string) => {
  const res = await fetch(new URL(`/v2/files/download?filename=${encodeURIComponent(filename)}`, api.url), {
    headers: { authorization: `Bearer ${await api.token()}` },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

/** The simple upload: the body is the file, sent with its content type. */
const upload = (filename: string, bytes: string | Uint8Array, contentType = "application/octet-stream") =>
  api.call("POST", "/v2/files/upload", {
    query: { filename },
    rawBody: bytes,
    headers: { "content-type": contentType },
  });

/** docs/api.md: file-system errors are `{name, message: "<text>: <path>"}`. */
function expectFsError(
  r: { status: number; body: unknown; text: string },
  status: number,
  text: string,
  path: string,
) {
  expect(r.status, r.text).toBe(status);
  const e = fsErrorMessage(r.body);
  expect(e.message).toBe(`${text}: ${path}`);
}

async function names(dirname: string): Promise<string[]> {
  const r = await readdir(dirname);
  expect(r.status, r.text).toBe(200);
  return r.body.contents.map((e: { filename: string }) => e.filename).sort();
}

describe("POST /v2/files/mkdir (mkdir)", () => {
  it("creates a folder: 200, then stat says isDirectory", async () => {
    const r = await api.post("/v2/files/mkdir", undefined, { dirname: "/photos" });
    expect(r.status, r.text).toBe(200);
    const s = await stat("/photos");
    expect(s.status).toBe(200);
    expect(s.body.isDirectory).toBe(true);
  });

  it("an existing path answers as documented: HTTP 200 with the RiakFsError body", async () => {
    await mkdirs(api, "/photos");
    const r = await api.post("/v2/files/mkdir", undefined, { dirname: "/photos" });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ name: "RiakFsError", message: "Path already exists: /photos" });
  });

  it("an existing path fails with 409 Path already exists once the behaviour says 409", async () => {
    await mkdirs(api, "/photos");
    await api.behaviour({ mkdirExists: "409" });
    try {
      const r = await api.post("/v2/files/mkdir", undefined, { dirname: "/photos" });
      expectFsError(r, 409, "Path already exists", "/photos");
    } finally {
      await api.behaviour({ mkdirExists: "200" });
    }
  });

  it("does not create missing parents: 404 No such file or directory, nothing created", async () => {
    const r = await api.post("/v2/files/mkdir", undefined, { dirname: "/no-parent/child" });
    expect(r.status, r.text).toBe(404);
    // the message names the missing parent, not the folder asked for
    expect(r.body).toEqual({ name: "NoSuchFileError", message: "No such file or directory: /no-parent" });
    expect((await stat("/no-parent")).status).toBe(404);
    expect((await stat("/no-parent/child")).status).toBe(404);
  });

  it("creates nested folders one level at a time", async () => {
    await mkdirs(api, "/a", "/a/b", "/a/b/c");
    expect(await names("/a/b")).toEqual(["c"]);
  });

  it("a trailing slash names the same folder", async () => {
    await mkdirs(api, "/a", "/a/b/");
    expect((await stat("/a/b")).body.isDirectory).toBe(true);
    expect(await names("/a")).toEqual(["b"]);
  });
});

describe("GET /v2/files/readdir (readdir)", () => {
  it("lists at most 100 entries a page, with continuation only while more follow (150 entries)", async () => {
    await mkdirs(api, "/many");
    for (let i = 0; i < 150; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          api.post("/v2/files/mkdir", undefined, { dirname: `/many/d${String(i + k).padStart(3, "0")}` }),
        ),
      ).then((rs) => {
        for (const r of rs) expect(r.status, r.text).toBe(200);
      });
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let continuation: string | null | undefined;
    let pages = 0;
    do {
      const r = await readdir("/many", continuation ?? undefined);
      expect(r.status, r.text).toBe(200);
      pages++;
      sizes.push(r.body.contents.length);
      expect(r.body.contents.length).toBeLessThanOrEqual(100);
      expect(r.body.contents.length).toBeGreaterThan(0);
      seen.push(...r.body.contents.map((e: { filename: string }) => e.filename));
      continuation = r.body.continuation;
      if (typeof continuation === "string") {
        expect(continuation.length).toBeLessThanOrEqual(1024);
      } else {
        // docs/api.md#files-and-folders [live]: a last page may carry `continuation: null`
        expect(continuation, "continuation is null on the last page").toBeNull();
      }
      expect(pages).toBeLessThan(10);
    } while (typeof continuation === "string");
    expect(pages).toBe(2);
    expect(sizes, "full pages first").toEqual([100, 50]);
    // in name order, across pages
    expect(seen).toEqual(Array.from({ length: 150 }, (_, i) => `d${String(i).padStart(3, "0")}`));
  });

  it("a folder of 100 entries is one page with no continuation", async () => {
    await mkdirs(api, "/hundred");
    const rs = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api.post("/v2/files/mkdir", undefined, { dirname: `/hundred/e${i}` }),
      ),
    );
    for (const r of rs) expect(r.status).toBe(200);
    const r = await readdir("/hundred");
    expect(r.status).toBe(200);
    expect(r.body.contents).toHaveLength(100);
    expect(r.body.continuation).toBeNull();
  });

  it("entries have the documented shape: base names; folders size 0, no contentType, meta {}; media meta {width,height,duration}, other files {}", async () => {
    await mkdirs(api, "/mixed", "/mixed/sub");
    await putFile(api, origin, "/mixed/hello.txt", "hello world");
    await putFile(api, origin, "/mixed/pixel.png", PNG_1X1, "image/png");
    const r = await readdir("/mixed");
    expect(r.status).toBe(200);
    expect(r.body.continuation).toBeNull();
    const byName = Object.fromEntries(r.body.contents.map((e: { filename: string }) => [e.filename, e]));
    expect(Object.keys(byName).sort()).toEqual(["hello.txt", "pixel.png", "sub"]);
    const dir = byName.sub;
    expect(dir).toMatchObject({ isDirectory: true, size: 0, meta: {} });
    expect(dir.contentType).toBeUndefined();
    expect(Number.isNaN(Date.parse(dir.mtime))).toBe(false);
    const file = byName["hello.txt"];
    expect(file).toMatchObject({ isDirectory: false, size: 11 });
    expect(typeof file.contentType).toBe("string");
    expect(Number.isNaN(Date.parse(file.mtime))).toBe(false);
    expect(file.meta).toEqual({});
    // a still image: its dimensions and a duration of 0, never null
    expect(byName["pixel.png"].meta).toEqual({ width: 1, height: 1, duration: 0 });
  });

  it("lists the root", async () => {
    await mkdirs(api, "/top1", "/top2");
    expect(await names("/")).toEqual(expect.arrayContaining(["top1", "top2"]));
  });

  it("a missing folder → 404 No such file or directory", async () => {
    expectFsError(await readdir("/absent"), 404, "No such file or directory", "/absent");
  });

  it("a file is not a directory → 400", async () => {
    await putFile(api, origin, "/plain.txt", "x");
    const r = await readdir("/plain.txt");
    expect(r.status, r.text).toBe(400);
    expect(fsErrorMessage(r.body).message).toMatch(/^Not a directory/);
  });
});

describe("GET /v2/files/stat (stat)", () => {
  it("a file → {mtime, ctime, contentType, size, isDirectory: false, meta}, no filename", async () => {
    await putFile(api, origin, "/img/pixel.png", PNG_1X1, "image/png");
    const r = await stat("/img/pixel.png");
    expect(r.status).toBe(200);
    expect(r.body.isDirectory).toBe(false);
    expect(r.body.size).toBe(PNG_1X1.length);
    expect(r.body.contentType).toBe("image/png");
    expect(Number.isNaN(Date.parse(r.body.mtime))).toBe(false);
    expect(Number.isNaN(Date.parse(r.body.ctime))).toBe(false);
    expect(r.body.meta).toBeTypeOf("object");
    expect(r.body.meta).toEqual({ width: 1, height: 1, duration: 0 });
    expect(r.body.filename).toBeUndefined();
  });

  it("a missing path → 404 with {name, message: 'No such file or directory: <path>'}", async () => {
    expectFsError(await stat("/nope/missing.jpg"), 404, "No such file or directory", "/nope/missing.jpg");
  });
});

describe("GET /v2/files/download (download)", () => {
  it("returns the file's bytes", async () => {
    await putFile(api, origin, "/dl/pixel.png", PNG_1X1, "image/png");
    const r = await download("/dl/pixel.png");
    expect(r.status).toBe(200);
    expect(r.bytes.equals(PNG_1X1)).toBe(true);
  });

  it("sends the content type, an etag and last-modified as documented", async () => {
    await putFile(api, origin, "/dl/pixel.png", PNG_1X1, "image/png");
    const r = await download("/dl/pixel.png");
    expect(r.headers.get("content-type")).toBe("image/png");
    expect(r.headers.get("etag")).toMatch(/^"[^"]+"$/);
    const mtime = (await stat("/dl/pixel.png")).body.mtime;
    expect(new Date(r.headers.get("last-modified") ?? "").getTime()).toBe(
      Math.floor(new Date(mtime).getTime() / 1000) * 1000,
    );
    // another content, another tag
    await putFile(api, origin, "/dl/other.png", Buffer.concat([PNG_1X1, Buffer.from([0])]), "image/png");
    expect((await download("/dl/other.png")).headers.get("etag")).not.toBe(r.headers.get("etag"));
  });

  it("a missing file → 404", async () => {
    const r = await api.get("/v2/files/download", { filename: "/dl/none.png" });
    expectFsError(r, 404, "No such file or directory", "/dl/none.png");
  });
});

describe("POST /v2/files/upload (upload), as documented", () => {
  it("writes the raw body as the file: 200 empty, then stat and download agree, missing folders made", async () => {
    const r = await upload("/up/deep/notes.txt", "hello, world", "text/plain");
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    const s = await stat("/up/deep/notes.txt");
    expect(s.body).toMatchObject({ size: 12, isDirectory: false, contentType: "text/plain" });
    expect((await download("/up/deep/notes.txt")).bytes.toString()).toBe("hello, world");
    expect((await stat("/up/deep")).body.isDirectory).toBe(true);
  });

  it("takes any content type as bytes, JSON included, and replaces a file in place", async () => {
    const json = '{"not": "parsed"}';
    expect((await upload("/up/data.json", json, "application/json")).status).toBe(200);
    expect((await download("/up/data.json")).bytes.toString()).toBe(json);
    expect((await upload("/up/data.json", "[]", "application/json")).status).toBe(200);
    expect((await download("/up/data.json")).bytes.toString()).toBe("[]");
  });

  it("reads an image's dimensions and counts rest:post:files:upload", async () => {
    const r = await upload("/up/pixel.png", PNG_1X1, "image/png");
    expect(r.headers.get("x-ratelimit-type")).toBe("rest:post:files:upload");
    expect((await stat("/up/pixel.png")).body.meta).toMatchObject({ width: 1, height: 1 });
  });

  it("onto a folder is 400 File is a directory; a path that is not absolute is 400 naming filename", async () => {
    await mkdirs(api, "/up");
    expectFsError(await upload("/up", "x"), 400, "File is a directory", "/up");
    const bad = await upload("up.txt", "x");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("filename");
  });
});

describe("POST /v2/files/delete (deleteFile)", () => {
  it("deletes a file: 200 empty body, then stat → 404", async () => {
    await putFile(api, origin, "/del/a.txt", "a");
    const r = await api.post("/v2/files/delete", undefined, { filename: "/del/a.txt" });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    expect((await stat("/del/a.txt")).status).toBe(404);
  });

  it("deletes an empty folder", async () => {
    await mkdirs(api, "/empty");
    const r = await api.post("/v2/files/delete", undefined, { filename: "/empty" });
    expect(r.status, r.text).toBe(200);
    expect((await stat("/empty")).status).toBe(404);
  });

  it("a non-empty folder → 409 Directory not empty, and nothing is deleted", async () => {
    await mkdirs(api, "/full", "/full/inner");
    const r = await api.post("/v2/files/delete", undefined, { filename: "/full" });
    expectFsError(r, 409, "Directory not empty", "/full");
    expect((await stat("/full/inner")).status).toBe(200);
  });

  it("a missing path → 404 No such file or directory", async () => {
    const r = await api.post("/v2/files/delete", undefined, { filename: "/ghost.txt" });
    expectFsError(r, 404, "No such file or directory", "/ghost.txt");
  });
});

describe("POST /v2/files/copy (copy)", () => {
  it("copies a file: 200 empty body; both exist with the same content", async () => {
    await putFile(api, origin, "/c/src.txt", "copy me");
    await mkdirs(api, "/c2");
    const r = await api.post("/v2/files/copy", undefined, { from: "/c/src.txt", to: "/c2/dst.txt" });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    expect((await stat("/c/src.txt")).status).toBe(200);
    const d = await download("/c2/dst.txt");
    expect(d.status).toBe(200);
    expect(d.bytes.toString()).toBe("copy me");
  });

  it("a missing source → 404", async () => {
    const r = await api.post("/v2/files/copy", undefined, { from: "/c/none.txt", to: "/c/x.txt" });
    expectFsError(r, 404, "No such file or directory", "/c/none.txt");
    expect((await stat("/c/x.txt")).status).toBe(404);
  });

  it("copies a folder with its contents, and storage counts the copy until it is deleted", async () => {
    await putFile(api, origin, "/src/x.txt", "12345");
    const before = (await api.get("/v2/account/storage")).body;
    const r = await api.post("/v2/files/copy", undefined, { from: "/src", to: "/copy" });
    expect(r.status, r.text).toBe(200);
    expect((await download("/copy/x.txt")).bytes.toString()).toBe("12345");
    expect((await stat("/src/x.txt")).status).toBe(200);
    expect((await api.get("/v2/account/storage")).body).toMatchObject({
      used: before.used + 5,
      files: before.files + 1,
    });
    // a deleted file moves to the trash, where it still counts; a delete there is final
    expect((await api.post("/v2/files/delete", undefined, { filename: "/copy/x.txt" })).status).toBe(200);
    expect((await api.get("/v2/account/storage")).body).toMatchObject({
      used: before.used + 5,
      files: before.files + 1,
    });
    const final = await api.post("/v2/files/delete", undefined, { filename: "/.Trash/copy/x.txt" });
    expect(final.status, final.text).toBe(200);
    expect((await api.get("/v2/account/storage")).body).toMatchObject({
      used: before.used,
      files: before.files,
    });
  });

  it("onto an existing path → 409 Path already exists; into itself → 400", async () => {
    await mkdirs(api, "/src", "/copy");
    const onto = await api.post("/v2/files/copy", undefined, { from: "/src", to: "/copy" });
    expectFsError(onto, 409, "Path already exists", "/copy");
    const into = await api.post("/v2/files/copy", undefined, { from: "/src", to: "/src/inner" });
    expect(into.status, into.text).toBe(400);
    expect((await stat("/src/inner")).status).toBe(404);
  });
});

describe("POST /v2/files/rename (rename)", () => {
  it("renames a file: the old path is gone, the new one has the content", async () => {
    await putFile(api, origin, "/r/old.txt", "moving");
    const r = await api.post("/v2/files/rename", undefined, { from: "/r/old.txt", to: "/r/new.txt" });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    expect((await stat("/r/old.txt")).status).toBe(404);
    expect((await download("/r/new.txt")).bytes.toString()).toBe("moving");
  });

  it("moves a folder with its contents", async () => {
    await mkdirs(api, "/from", "/from/kid", "/to");
    await putFile(api, origin, "/from/kid/f.txt", "x");
    const r = await api.post("/v2/files/rename", undefined, { from: "/from", to: "/to/moved" });
    expect(r.status, r.text).toBe(200);
    expect((await stat("/from")).status).toBe(404);
    expect(await names("/to/moved")).toEqual(["kid"]);
    expect((await stat("/to/moved/kid/f.txt")).status).toBe(200);
  });

  it("a missing source → 404", async () => {
    const r = await api.post("/v2/files/rename", undefined, { from: "/r/none.txt", to: "/r/x.txt" });
    expectFsError(r, 404, "No such file or directory", "/r/none.txt");
  });
});

describe("storage and accounts", () => {
  it("GET /v2/account/storage counts the files stored and their bytes", async () => {
    const before = (await api.get("/v2/account/storage")).body;
    await putFiles(api, origin, { "/st/one.txt": "12345", "/st/two.txt": "1234567890" });
    const after = (await api.get("/v2/account/storage")).body;
    expect(after.files).toBe(before.files + 2);
    expect(after.used).toBe(before.used + 15);
  });

  it("each account has its own tree", async () => {
    await api.addAccount("tree-b", "tree-b-client", "tree-b-secret");
    const b = new Client(emu.url, "tree-b-client", "tree-b-secret");
    await mkdirs(api, "/only-in-a");
    expect((await b.get("/v2/files/stat", { filename: "/only-in-a" })).status).toBe(404);
    expect((await stat("/only-in-a")).status).toBe(200);
  });
});

describe("POST /v2/files/fetch (fetch)", () => {
  it("fetches a public URL into a path whose folders are created → [{filename, success: true}]", async () => {
    const url = origin.serve("/remote/pic.png", PNG_1X1, { contentType: "image/png" });
    const r = await api.post("/v2/files/fetch", [{ url, filename: "/fetched/deep/pic.png", wait: true }]);
    expect(r.status, r.text).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({ filename: "/fetched/deep/pic.png", success: true });
    expect((await stat("/fetched/deep")).body.isDirectory).toBe(true);
    expect((await download("/fetched/deep/pic.png")).bytes.equals(PNG_1X1)).toBe(true);
  });

  it("fetches a URL protected by HTTP authentication when auth is given", async () => {
    const url = origin.serve("/private/doc.txt", "secret doc", { auth: ["user", "pw"] });
    const r = await api.post("/v2/files/fetch", [
      { url, filename: "/priv/doc.txt", auth: { username: "user", password: "pw" }, wait: true },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.body[0]).toMatchObject({ filename: "/priv/doc.txt", success: true });
    expect((await download("/priv/doc.txt")).bytes.toString()).toBe("secret doc");
  });

  it("answers each item in the documented shape: attempts with initiator, headers, timing; retryAfter a date-time", async () => {
    const good = origin.serve("/remote/shape.png", PNG_1X1, { contentType: "image/png" });
    const r = await api.post("/v2/files/fetch", [
      { url: good, filename: "/shape/ok.png" },
      { url: `${origin.url}/remote/none.png`, filename: "/shape/none.png" },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("x-ratelimit-type")).toBe("rest:post:files:fetch");
    const [ok, failed] = r.body;
    for (const item of [ok, failed]) {
      expect(Object.keys(item).sort()).toEqual([
        "attempted",
        "attempts",
        "filename",
        "retryAfter",
        "success",
      ]);
      expect(Number.isNaN(Date.parse(item.retryAfter))).toBe(false);
      const attempt = item.attempts[0];
      expect(attempt.initiator).toMatchObject({ type: expect.any(String), remoteAddr: expect.any(String) });
      expect(Number.isNaN(Date.parse(attempt.initiator.date))).toBe(false);
      expect(attempt.headers).toBeTypeOf("object");
      for (const k of ["ns", "connect", "start", "total"]) expect(attempt.timing[k]).toBeTypeOf("number");
    }
    expect(ok.attempts[0]).toMatchObject({ url: good, statusCode: 200 });
    expect(ok.attempts[0].headers["content-type"]).toBe("image/png");
    expect(ok.attempts[0].error).toBeUndefined();
    expect(failed).toMatchObject({ success: false, attempted: true });
    expect(failed.attempts[0]).toMatchObject({ statusCode: 404, error: { name: expect.any(String) } });
    expect(failed.attempts[0].error.message).toContain("404");
  });

  it("never keeps or shows credentials given in the URL: not in the answer, events or search", async () => {
    const url = origin.serve("/private/creds.txt", "with creds", { auth: ["user", "s3cr3t-pw"] });
    const withCreds = url.replace("http://", "http://user:s3cr3t-pw@");
    const missing = `${origin.url.replace("http://", "http://user:s3cr3t-pw@")}/private/absent.txt`;
    const r = await api.post("/v2/files/fetch", [
      { url: withCreds, filename: "/creds/ok.txt" },
      { url: missing, filename: "/creds/absent.txt" },
    ]);
    expect(r.body.map((i: { success: boolean }) => i.success)).toEqual([true, false]);
    expect((await download("/creds/ok.txt")).bytes.toString()).toBe("with creds");
    const events = await api.post("/v2/account/events/search", { module: "fetching" });
    const search = await api.post("/v2/files/search", { query: "creds" });
    for (const text of [r.text, events.text, search.text]) expect(text).not.toContain("s3cr3t-pw");
    expect(events.body[0].fetching.url).toBe(`${origin.url}/private/absent.txt`);
  });

  it("a fetched file counts under fetch:file (8.1)", async () => {
    const before = (await api.get("/v2/account/limits")).body["fetch:file"];
    expect(before).toMatchObject({ count: 0, limit: 1000 });
    await putFile(api, origin, "/counted/one.txt", "1");
    const after = (await api.get("/v2/account/limits")).body["fetch:file"];
    expect(after).toMatchObject({ count: 1, remaining: 999 });
  });

  it("more than 20 items → 400", async () => {
    const items = Array.from({ length: 21 }, (_, i) => ({
      url: `${origin.url}/x${i}`,
      filename: `/f/x${i}`,
    }));
    const r = await api.post("/v2/files/fetch", items);
    expect(r.status, r.text).toBe(400);
  });
});

describe("POST /v2/files/search (search)", () => {
  it("finds files by name → {hits: [{_id, _source}], total}", async () => {
    await putFiles(api, origin, { "/s/unicorn.txt": "u", "/s/other.txt": "o" });
    const r = await api.post("/v2/files/search", { query: "unicorn" });
    expect(r.status, r.text).toBe(200);
    expect(typeof r.body.total).toBe("number");
    expect(r.body.total).toBeGreaterThanOrEqual(1);
    expect(Array.isArray(r.body.hits)).toBe(true);
    const found = r.body.hits.map((h: { _source: { filename: string } }) => h._source.filename);
    expect(found).toContain("/s/unicorn.txt");
    expect(found).not.toContain("/s/other.txt");
    const hit = r.body.hits.find(
      (h: { _source: { filename: string } }) => h._source.filename === "/s/unicorn.txt",
    );
    expect(typeof hit._id).toBe("string");
    expect(hit._source).toMatchObject({ dirname: "/s", basename: "unicorn.txt", size: 1 });
    expect(hit._source.extension).toBe(".txt");
    expect(Number.isNaN(Date.parse(hit._source.mtime))).toBe(false);
    expect(Number.isNaN(Date.parse(hit._source.ctime))).toBe(false);
  });

  /** The files a query finds, by path, in path order. */
  const foundAnywhere = async (query: string, extra: Record<string, unknown> = {}) => {
    const r = await api.post("/v2/files/search", { query, ...extra });
    expect(r.status, `${query}: ${r.text}`).toBe(200);
    return r.body.hits.map((h: { _source: { filename: string } }) => h._source.filename);
  };
  const found = foundAnywhere;

  it("answers the documentation's own example: extension with its dot, mtime date math, a negated escaped dirname, sort filename.raw; hits in the live shape", async () => {
    await putFiles(api, origin, {
      "/a/x.jpg": "x",
      "/a/b/y.jpg": "y",
      "/.Trash/z.jpg": "z",
      "/a/w.png": "w",
    });
    const r = await api.post("/v2/files/search", {
      query: "extension:.jpg AND mtime:[now-30d TO now] AND -dirname:\\/.Trash",
      sort: { "filename.raw": "asc" },
    });
    expect(r.status, r.text).toBe(200);
    // `dirname` is the folder a file is in: the example leaves out what lies directly in
    // /.Trash, not the trashed thumbnail deeper in it, nor the account's processed copy
    expect(r.body.hits.map((h: { _source: { filename: string } }) => h._source.filename)).toEqual([
      "/.Trash/.processed/D3/jF/old-banner_thumbnail.jpg",
      "/.processed/Kq/7w/welcome_thumbnail.jpg",
      "/a/b/y.jpg",
      "/a/x.jpg",
    ]);
    expect(r.body).toMatchObject({ total: 4, _relation: "eq" });
    // docs/api.md#search [live]: a hit has no `_type` (nor `_routing`)
    const first = r.body.hits[2];
    expect(Object.keys(first).sort()).toEqual(["_id", "_index", "_score", "_source", "sort"]);
    expect(first).toMatchObject({ _index: "sirvfs-v4", _score: null, sort: ["/a/b/y.jpg"] });
    expect(Object.keys(first._source).sort()).toEqual(
      [
        "accountId",
        "basename",
        "contentType",
        "ctime",
        "dirname",
        "extension",
        "filename",
        "id",
        "meta",
        "mtime",
        "size",
      ].sort(),
    );
    expect(first._source).toMatchObject({
      filename: "/a/b/y.jpg",
      dirname: "/a/b",
      basename: "y.jpg",
      extension: ".jpg",
      id: first._id,
    });
    // a range in the past finds nothing (the system folders' files are as old as the account)
    expect((await found("mtime:[now-30d TO now-1d]")).filter((p: string) => p.startsWith("/a/"))).toEqual([]);
    // `dirname.paths`, as the vendor's plugins search: a folder and everything under it
    expect(
      await found("extension:.jpg AND -dirname.paths:\\/.Trash AND -dirname.paths:\\/.processed"),
    ).toEqual(["/a/b/y.jpg", "/a/x.jpg"]);
    expect(await found("dirname.paths:\\/a")).toEqual(["/a/b/y.jpg", "/a/w.png", "/a/x.jpg"]);
  });

  it("reads ranges inclusive and exclusive, open ends, comparisons, OR, NOT and wildcards", async () => {
    await putFiles(api, origin, { "/r/one.txt": "1", "/r/three.txt": "333", "/r/five.txt": "55555" });
    // the files of /r only: the account's system folders hold files of every size too
    const found = async (query: string) =>
      (await foundAnywhere(query)).filter((p: string) => p.startsWith("/r/"));
    expect(await found("size:[1 TO 3]")).toEqual(["/r/one.txt", "/r/three.txt"]);
    expect(await found("size:{1 TO 3}")).toEqual([]);
    expect(await found("size:{1 TO *]")).toEqual(["/r/five.txt", "/r/three.txt"]);
    expect(await found("size:>=3")).toEqual(["/r/five.txt", "/r/three.txt"]);
    expect(await found("basename:one.txt OR basename:five.txt")).toEqual(["/r/five.txt", "/r/one.txt"]);
    expect(await found("dirname:\\/r AND NOT basename:t*")).toEqual(["/r/five.txt", "/r/one.txt"]);
    expect(await found("basename:?ne.txt")).toEqual(["/r/one.txt"]);
    expect(await found("(basename:one.txt OR size:5) AND extension:.txt")).toEqual([
      "/r/five.txt",
      "/r/one.txt",
    ]);
    expect(await found('filename:"/r/one.txt"')).toEqual(["/r/one.txt"]);
    expect(await found("basename:/(one|five).txt/")).toEqual(["/r/five.txt", "/r/one.txt"]);
  });

  it("sorts by any documented field, asc or desc, with the sort values on each hit", async () => {
    await putFiles(api, origin, { "/o/a.txt": "333", "/o/b.txt": "1", "/o/c.txt": "22" });
    const r = await api.post("/v2/files/search", { query: "dirname:\\/o", sort: { size: "desc" } });
    expect(r.body.hits.map((h: { sort: unknown[] }) => h.sort)).toEqual([[3], [2], [1]]);
    expect(await found("dirname:\\/o", { sort: { "filename.raw": "desc" } })).toEqual([
      "/o/c.txt",
      "/o/b.txt",
      "/o/a.txt",
    ]);
    const unsorted = await api.post("/v2/files/search", { query: "dirname:\\/o" });
    expect(unsorted.body.hits[0]._score).toBeTypeOf("number");
    expect(unsorted.body.hits[0].sort).toBeUndefined();
  });

  it("meta carries width, height, format and duration for media, nothing for other files", async () => {
    await putFile(api, origin, "/m/p.png", PNG_1X1, "image/png");
    await putFile(api, origin, "/m/t.txt", "t");
    const r = await api.post("/v2/files/search", { query: "dirname:\\/m", sort: { "filename.raw": "asc" } });
    expect(r.body.hits.map((h: { _source: { meta: unknown } }) => h._source.meta)).toEqual([
      { width: 1, height: 1, duration: 0, format: "png" },
      {},
    ]);
  });

  it("scrolls with POST /v2/files/search/scroll {scrollId} until the last page, counting rest:post:files:search:scroll", async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`/sc/f${i}.txt`, String(i)]));
    await putFiles(api, origin, files);
    let r = await api.post("/v2/files/search", {
      query: "dirname:\\/sc",
      size: 2,
      scroll: true,
      sort: { "filename.raw": "asc" },
    });
    const seen: string[] = [];
    const pages: number[] = [];
    for (;;) {
      expect(r.status, r.text).toBe(200);
      pages.push(r.body.hits.length);
      seen.push(...r.body.hits.map((h: { _source: { filename: string } }) => h._source.filename));
      if (!r.body.scrollId) break;
      r = await api.post("/v2/files/search/scroll", { scrollId: r.body.scrollId });
      expect(r.headers.get("x-ratelimit-type")).toBe("rest:post:files:search:scroll");
    }
    expect(pages).toEqual([2, 2, 1]);
    expect(seen).toEqual(Object.keys(files));
    // the scroll body takes the scrollId and nothing else; search no longer takes one
    expect((await api.post("/v2/files/search/scroll", { scrollId: "x", size: 2 })).status).toBe(400);
    expect((await api.post("/v2/files/search", { query: "*", scrollId: "x" })).status).toBe(400);
    expect((await api.post("/v2/files/search/scroll", { scrollId: "not-a-scroll" })).body.message).toBe(
      "scrollId: is not valid",
    );
  });

  it("what it cannot read is a 400 naming the part: an unknown field, fuzzy or proximity search, a syntax error, an unknown sort field", async () => {
    for (const [query, message] of [
      ["nosuch:1", 'query: unsupported field "nosuch"'],
      ["basename:one~", "query: fuzzy matching (~) is not supported: one"],
      ['"a b"~2', 'query: proximity search (~) is not supported: "a b"'],
      ["mtime:[yesterday TO now]", 'query: mtime: "yesterday" is not a date or date math'],
    ] as const) {
      const r = await api.post("/v2/files/search", { query });
      expect(r.status, query).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const syntax = await api.post("/v2/files/search", { query: "basename:(one" });
    expect(syntax.status).toBe(400);
    expect(syntax.body.message).toMatch(/^query: /);
    for (const field of ["hasOwnProperty", "constructor", "title"]) {
      const r = await api.post("/v2/files/search", { query: "*", sort: { [field]: "asc" } });
      expect(r.status, field).toBe(400);
      expect(r.body.message).toBe(`sort.${field}: cannot sort by this field`);
    }
    // a body that would set a prototype is refused before it is read
    const proto = await api.call("POST", "/v2/files/search", {
      rawBody: '{"query":"*","sort":{"__proto__":"asc"}}',
    });
    expect(proto.status).toBe(400);
  });

  it("query over 1024 characters, size over 100 or from over 1000 → 400", async () => {
    expect((await api.post("/v2/files/search", { query: "q".repeat(1025) })).status).toBe(400);
    expect((await api.post("/v2/files/search", { query: "q", size: 101 })).status).toBe(400);
    // 4.3: search returns up to 1000 results; paging beyond them is refused
    expect((await api.post("/v2/files/search", { query: "q", from: 1001 })).status).toBe(400);
    expect((await api.post("/v2/files/search", { query: "q", from: 1000, size: 1 })).status).toBe(200);
  });
});

describe("POST /v2/files/jwt (createJwt)", () => {
  it("→ {url} carrying a jwt parameter", async () => {
    await putFile(api, origin, "/protected/a.png", PNG_1X1, "image/png");
    const r = await api.post("/v2/files/jwt", {
      filename: "/protected/a.png",
      key: "my-key",
      expiresIn: 3600,
    });
    expect(r.status, r.text).toBe(200);
    expect(typeof r.body.url).toBe("string");
    expect(r.body.url).toMatch(/[?&]jwt=[^&]+/);
    expect(r.body.url).toContain("/protected/a.png");
  });

  it("takes numbers in secureParams and signs the documented payload {args, iat, exp, aud} with HS256 and the key", async () => {
    await putFile(api, origin, "/protected/b.png", PNG_1X1, "image/png");
    const r = await api.post("/v2/files/jwt", {
      filename: "/protected/b.png",
      key: "my-key",
      secureParams: { w: 300, format: "webp" },
      insecureParams: { h: 200 },
      expiresIn: 600,
    });
    expect(r.status, r.text).toBe(200);
    const url = new URL(r.body.url);
    expect(url.searchParams.get("h")).toBe("200");
    const [header, payload, signature] = (url.searchParams.get("jwt") ?? "").split(".");
    expect(JSON.parse(Buffer.from(header ?? "", "base64url").toString())).toMatchObject({ alg: "HS256" });
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    expect(Object.keys(claims).sort()).toEqual(["args", "aud", "exp", "iat"]);
    expect(claims).toMatchObject({ args: { w: 300, format: "webp" }, aud: "/protected/b.png" });
    expect(claims.exp - claims.iat).toBe(600);
    const expected = createHmac("sha256", "my-key").update(`${header}.${payload}`).digest("base64url");
    expect(signature).toBe(expected);
    // the CDN serves the protected file with the token, and refuses it without
    expect((await fetch(url)).status).toBe(200);
    url.searchParams.delete("jwt");
    expect((await fetch(url)).status).toBe(403);
  });

  it("a jwt for a folder protects the files below it from then on; a forged signature → 403", async () => {
    await putFile(api, origin, "/secure/a.png", PNG_1X1, "image/png");
    const alias = (await api.get("/v2/account")).body.alias;
    const plain = new URL(`/cdn/${alias}/secure/a.png`, api.url);
    expect((await fetch(plain)).status).toBe(200);
    const r = await api.post("/v2/files/jwt", { filename: "/secure", key: "k1", expiresIn: 60 });
    expect(r.status, r.text).toBe(200);
    const jwt = new URL(r.body.url).searchParams.get("jwt");
    expect(jwt).toBeTruthy();
    expect((await fetch(plain)).status).toBe(403);
    expect((await fetch(`${plain.href}?jwt=${jwt}`)).status).toBe(200);
    expect((await fetch(`${plain.href}?jwt=${jwt}x`)).status).toBe(403);
  });
});

describe("tus (getTusLocations, getTusUrl)", () => {
  // Both answers are "S" (a string whose content is not shown); a link is asked for one of the
  // locations the first call lists.
  async function firstLocation(): Promise<string> {
    const r = await api.get("/v2/files/tus/locations");
    expect(r.status, r.text).toBe(200);
    expect(r.text.length).toBeGreaterThan(0);
    const list = Array.isArray(r.body) ? r.body : Object.keys(r.body ?? {});
    expect(list.length, "at least one location is listed").toBeGreaterThan(0);
    return String(list[0]);
  }

  it("GET /v2/files/tus/locations → 200 with content", async () => {
    expect(await firstLocation()).not.toBe("");
  });

  it("GET /v2/files/tus/url for a listed location → 200 with content", async () => {
    const location = await firstLocation();
    const r = await api.get("/v2/files/tus/url", { location, expiresIn: 3600 });
    expect(r.status, r.text).toBe(200);
    expect(r.text.length).toBeGreaterThan(0);
  });

  it("an upload is created, sent in two PATCHes with a HEAD between (the resume point), and lands with a real mtime", async () => {
    const location = await firstLocation();
    const link = JSON.parse((await api.get("/v2/files/tus/url", { location, expiresIn: 600 })).text)
      .url as string;
    const body = Buffer.from("0123456789abcdefghij");
    const tusHeaders = { "tus-resumable": "1.0.0" };
    const before = Date.now();
    const created = await fetch(link, {
      method: "POST",
      headers: {
        ...tusHeaders,
        "upload-length": String(body.length),
        "upload-metadata": `filename ${Buffer.from("/tus/up.txt").toString("base64")},filetype ${Buffer.from("text/plain").toString("base64")}`,
      },
    });
    expect(created.status).toBe(201);
    const upload = new URL(created.headers.get("location") as string, link).toString();
    const patch = (offset: number, chunk: Buffer) =>
      fetch(upload, {
        method: "PATCH",
        headers: {
          ...tusHeaders,
          "upload-offset": String(offset),
          "content-type": "application/offset+octet-stream",
        },
        body: chunk,
      });
    const first = await patch(0, body.subarray(0, 8));
    expect(first.status).toBe(204);
    expect(first.headers.get("upload-offset")).toBe("8");
    // an interrupted client asks where to go on from
    const head = await fetch(upload, { method: "HEAD", headers: tusHeaders });
    expect(head.headers.get("upload-offset")).toBe("8");
    expect(head.headers.get("upload-length")).toBe(String(body.length));
    // a PATCH at a wrong offset is refused; at the right one it finishes the upload
    expect((await patch(0, body.subarray(0, 8))).status).toBe(409);
    expect((await patch(8, body.subarray(8))).status).toBe(204);
    const s = await stat("/tus/up.txt");
    expect(s.body).toMatchObject({ size: body.length, contentType: "text/plain", isDirectory: false });
    const mtime = Date.parse(s.body.mtime);
    expect(mtime).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(mtime).toBeLessThanOrEqual(Date.now());
    expect((await download("/tus/up.txt")).bytes.equals(body)).toBe(true);
  });

  it("a link without a valid token cannot create uploads (401)", async () => {
    const r = await fetch(new URL("/tus?token=forged", api.url), {
      method: "POST",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": "1",
        "upload-metadata": `filename ${Buffer.from("/x").toString("base64")}`,
      },
    });
    expect(r.status).toBe(401);
  });

  it("a location of exactly 256 characters passes validation (not 400)", async () => {
    const at = await api.get("/v2/files/tus/url", { location: "l".repeat(256) });
    expect(at.status, at.text).not.toBe(400);
    expect(at.status).toBeLessThan(500);
  });
});

describe("statistics (getHttpStats, getStorageStats, getTrafficStats, getSpinViews)", () => {
  it.each([
    ["/v2/stats/http"],
    ["/v2/stats/storage"],
    ["/v2/stats/http/agg/traffic"],
    ["/v2/stats/spins/views"],
  ])("GET %s → 200 without and with a date range", async (path) => {
    const plain = await api.get(path);
    expect(plain.status, plain.text).toBe(200);
    const ranged = await api.get(path, { from: "2024-01-01T00:00:00.000Z", to: "2024-01-03T00:00:00.000Z" });
    expect(ranged.status, ranged.text).toBe(200);
  });

  const DAY = 86_400_000;
  const dayStart = (t: number) => Math.floor(t / DAY) * DAY;
  /** The documented example's form: no time zone, read as UTC. */
  const zoneless = (t: number) => new Date(t).toISOString().replace(/Z$/, "");

  it("GET /v2/stats/http with dates without a zone → keyed by each day's start in ms: {total: {count, size}}", async () => {
    await putFile(api, origin, "/stats/a.txt", "12345");
    const alias = (await api.get("/v2/account")).body.alias;
    expect((await fetch(new URL(`/cdn/${alias}/stats/a.txt`, api.url))).status).toBe(200);
    const today = dayStart(Date.now());
    const r = await api.get("/v2/stats/http", { from: zoneless(today - DAY), to: zoneless(today + DAY - 1) });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual([String(today - DAY), String(today)]);
    expect(r.body[String(today)]).toEqual({ total: { count: 1, size: 5 } });
    expect(r.body[String(today - DAY)]).toEqual({ total: { count: 0, size: 0 } });
    // the documented example's own dates
    const doc = await api.get("/v2/stats/http", {
      from: "2020-07-01T00:00:00.000",
      to: "2020-07-02T00:00:00.000",
    });
    expect(doc.status, doc.text).toBe(200);
  });

  it("GET /v2/stats/storage → keyed by day ms: {plan, burstable, extra, used, files, quotaExceededDate}", async () => {
    await putFile(api, origin, "/stats/b.txt", "123");
    const today = dayStart(Date.now());
    const r = await api.get("/v2/stats/storage", { from: zoneless(today) });
    expect(r.status, r.text).toBe(200);
    const day = r.body[String(today)];
    expect(Object.keys(day).sort()).toEqual([
      "burstable",
      "extra",
      "files",
      "plan",
      "quotaExceededDate",
      "used",
    ]);
    const storage = (await api.get("/v2/account/storage")).body;
    expect(day).toMatchObject({
      plan: storage.plan,
      used: storage.used,
      files: storage.files,
      quotaExceededDate: null,
    });
  });

  it("GET /v2/stats/spins/views → an array of view events in the documented shape", async () => {
    await putFile(api, origin, "/stats/shoe.spin", "{}", "application/json");
    const alias = (await api.get("/v2/account")).body.alias;
    const view = await fetch(new URL(`/cdn/${alias}/stats/shoe.spin?w=300`, api.url), {
      headers: { referer: "https://shop.example.com/shoes/1", "user-agent": "test-agent/1.0" },
    });
    expect(view.status).toBe(200);
    const r = await api.get("/v2/stats/spins/views");
    expect(r.status, r.text).toBe(200);
    expect(r.body).toHaveLength(1);
    const [event] = r.body;
    expect(event).toMatchObject({
      referer: "https://shop.example.com/shoes/1",
      user_agent: "test-agent/1.0",
      referer_proto: "https",
      referer_host: "shop.example.com",
      referer_uripath: "/shoes/1",
      event: { origin: "/stats/shoe.spin?w=300", type: "spin", name: "viewerReady", data: {} },
    });
    expect(Number.isNaN(Date.parse(event["@timestamp"]))).toBe(false);
    for (const k of ["name", "os", "os_name", "os_major", "device", "major", "minor", "patch", "build"])
      expect(event.user_agent_parsed, k).toHaveProperty(k);
    for (const k of ["country_code2", "country_name", "region_name", "timezone", "real_region_name"])
      expect(event.geoip, k).toHaveProperty(k);
    expect((await api.get("/v2/stats/spins/views", { alias: "someone-else" })).body).toEqual([]);
  });

  it("spin views: at most 5 days whichever bounds are given", async () => {
    const now = Date.now();
    const wide = await api.get("/v2/stats/spins/views", {
      from: "2024-01-01T00:00:00.000Z",
      to: "2024-01-07T00:00:00.000Z",
    });
    expect(wide.status, wide.text).toBe(400);
    expect(wide.body.message).toBe("to: date range must be at most 5 days");
    // only from: to is now
    const onlyFrom = await api.get("/v2/stats/spins/views", { from: zoneless(now - 6 * DAY) });
    expect(onlyFrom.status, onlyFrom.text).toBe(400);
    expect(onlyFrom.body.message).toBe("from: date range must be at most 5 days");
    expect((await api.get("/v2/stats/spins/views", { from: zoneless(now - 4 * DAY) })).status).toBe(200);
    // only to: from is a day before it
    expect((await api.get("/v2/stats/spins/views", { to: "2024-01-07T00:00:00.000" })).status).toBe(200);
  });

  it.each([
    ["/v2/stats/http"],
    ["/v2/stats/storage"],
    ["/v2/stats/http/agg/traffic"],
    ["/v2/stats/spins/views"],
  ])("GET %s with to before from → 400 naming to", async (path) => {
    const r = await api.get(path, { from: "2024-01-03T00:00:00.000", to: "2024-01-02T00:00:00.000" });
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toBe("to: must not be before from");
  });

  it("a from that is not a date-time → 400 naming from", async () => {
    const r = await api.get("/v2/stats/http", { from: "yesterday" });
    expect(r.status).toBe(400);
    expect(r.body?.message).toContain("from");
  });
});
