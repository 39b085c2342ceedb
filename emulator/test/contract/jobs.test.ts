// docs/api.md "Jobs" and "Bounds".
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup, until } from "./helpers/emulator";
import { mkdirs, type Origin, PNG_1X1, putFiles, startOrigin } from "./helpers/files";

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

/** Polls a job until it reports completion (progress 100 and a result); progress never goes back. */
// biome-ignore lint/suspicious/noExplicitAny: job records are free-form beyond progress
async function poll(path: string, id: string): Promise<any> {
  let last = -1;
  return until(
    `job ${id} to complete`,
    async () => {
      const r = await api.get(path, { id });
      expect(r.status, r.text).toBe(200);
      expect(typeof r.body.progress).toBe("number");
      expect(r.body.progress).toBeGreaterThanOrEqual(last);
      last = r.body.progress;
      // a record with progress 100 but no result yet is flagged by its own test below; here
      // wait for both
      return r.body.progress >= 100 && r.body.result !== undefined ? r.body : undefined;
    },
    10_000,
  );
}

describe("ZIP job (startZip, getZipJob)", () => {
  it("creates a job → {id}; polled to completion, its result URL downloads a real ZIP", async () => {
    await putFiles(api, origin, { "/z/a.txt": "alpha", "/z/b.txt": "bravo" });
    await putFiles(api, origin, { "/z/pic.png": PNG_1X1 }, "image/png");
    const start = await api.post("/v2/files/zip", {
      filenames: ["/z/a.txt", "/z/b.txt", "/z/pic.png"],
      zipFilename: "bundle.zip",
    });
    expect(start.status, start.text).toBe(200);
    expect(typeof start.body.id).toBe("string");
    expect(start.body.id.length).toBeGreaterThan(0);

    const done = await poll("/v2/files/zip", start.body.id);
    expect(done.progress).toBe(100);
    expect(Array.isArray(done.result)).toBe(true);
    expect(done.result.length).toBeGreaterThan(0);
    const entry = done.result[0];
    expect(typeof entry.filename).toBe("string");
    expect(typeof entry.size).toBe("number");
    expect(typeof entry.url).toBe("string");

    const res = await fetch(new URL(entry.url, api.url));
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])), "PK\\x03\\x04 signature").toBe(
      true,
    );
    expect(zip.length).toBe(entry.size);
    // the archive names the files it holds
    const text = zip.toString("latin1");
    expect(text).toContain("a.txt");
    expect(text).toContain("b.txt");
    expect(text).toContain("pic.png");
  });

  it("zips a folder", async () => {
    await mkdirs(api, "/folder");
    await putFiles(api, origin, { "/folder/in.txt": "inside" });
    const start = await api.post("/v2/files/zip", { filenames: ["/folder"] });
    expect(start.status, start.text).toBe(200);
    const done = await poll("/v2/files/zip", start.body.id);
    const res = await fetch(new URL(done.result[0].url, api.url));
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
    expect(zip.toString("latin1")).toContain("in.txt");
  });

  it("a record never reports progress 100 before its result is there (25 jobs polled closely)", async () => {
    // a file of some size widens the window between "all entries added" and "archive written"
    await putFiles(api, origin, { "/race/a.bin": randomBytes(2 * 1024 * 1024) }, "application/octet-stream");
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await api.post("/v2/files/zip", { filenames: ["/race/a.bin"] });
      expect(r.status, r.text).toBe(200);
      ids.push(r.body.id);
    }
    const premature: string[] = [];
    await Promise.all(
      ids.map(async (id) => {
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          const r = await api.get("/v2/files/zip", { id });
          expect(r.status).toBe(200);
          if (r.body.progress >= 100) {
            if (!Array.isArray(r.body.result) || r.body.result.length === 0) premature.push(r.text);
            if (Array.isArray(r.body.result)) return;
          }
        }
        throw new Error(`job ${id} did not complete`);
      }),
    );
    expect(premature, "records with progress 100 and no result").toEqual([]);
  });

  it("rejects an empty list, paths not starting with /, and zipFilename over 64 characters (400)", async () => {
    expect((await api.post("/v2/files/zip", { filenames: [] })).status).toBe(400);
    expect((await api.post("/v2/files/zip", { filenames: ["relative.txt"] })).status).toBe(400);
    const long = await api.post("/v2/files/zip", {
      filenames: ["/a.txt"],
      zipFilename: `${"z".repeat(61)}.zip`,
    });
    expect(long.status).toBe(400);
    expect(long.body?.message).toContain("zipFilename");
  });

  it("a zipFilename without .zip gets the extension in the result", async () => {
    await putFiles(api, origin, { "/z/a.txt": "alpha" });
    const start = await api.post("/v2/files/zip", { filenames: ["/z"], zipFilename: "pack" });
    expect(start.status, start.text).toBe(200);
    const done = await poll("/v2/files/zip", start.body.id);
    expect(done.result[0].filename).toBe("pack.zip");
  });

  it("GET with the id of another kind of job → 404", async () => {
    await mkdirs(api, "/other");
    const start = await api.post("/v2/files/batch/delete", { filenames: ["/other"] });
    expect(start.status, start.text).toBe(200);
    expect((await api.get("/v2/files/zip", { id: start.body.id })).status).toBe(404);
  });

  it("GET without id → 400 naming id", async () => {
    const r = await api.get("/v2/files/zip");
    expect(r.status).toBe(400);
    expect(r.body?.message).toContain("id");
  });
});

describe("batch delete job (startBatchDelete, getBatchDeleteJob)", () => {
  it("creates a job → {id}; once complete the files are gone", async () => {
    await putFiles(api, origin, { "/bd/1.txt": "1", "/bd/2.txt": "2", "/bd/keep.txt": "k" });
    const start = await api.post("/v2/files/batch/delete", { filenames: ["/bd/1.txt", "/bd/2.txt"] });
    expect(start.status, start.text).toBe(200);
    expect(typeof start.body.id).toBe("string");
    const done = await poll("/v2/files/batch/delete", start.body.id);
    expect(done.progress).toBe(100);
    expect((await api.get("/v2/files/stat", { filename: "/bd/1.txt" })).status).toBe(404);
    expect((await api.get("/v2/files/stat", { filename: "/bd/2.txt" })).status).toBe(404);
    expect((await api.get("/v2/files/stat", { filename: "/bd/keep.txt" })).status).toBe(200);
  });

  it("the result reports each name: success, or the error of a missing path", async () => {
    await mkdirs(api, "/gone");
    const start = await api.post("/v2/files/batch/delete", { filenames: ["/gone", "/nope"] });
    expect(start.status, start.text).toBe(200);
    const done = await poll("/v2/files/batch/delete", start.body.id);
    expect(done.result).toEqual([
      { filename: "/gone", success: true },
      { filename: "/nope", success: false, error: "No such file or directory: /nope" },
    ]);
  });

  it("once a record reports progress 100 the files are already gone (10 jobs polled closely)", async () => {
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/tight/${i}.txt`, `${i}`]));
    await putFiles(api, origin, files);
    const late: string[] = [];
    await Promise.all(
      Object.keys(files).map(async (filename) => {
        const start = await api.post("/v2/files/batch/delete", { filenames: [filename] });
        expect(start.status, start.text).toBe(200);
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          const r = await api.get("/v2/files/batch/delete", { id: start.body.id });
          expect(r.status).toBe(200);
          if (r.body.progress >= 100) {
            const s = await api.get("/v2/files/stat", { filename });
            if (s.status !== 404) late.push(`${filename}: ${r.text}`);
            return;
          }
        }
        throw new Error(`batch delete of ${filename} did not complete`);
      }),
    );
    expect(late, "files still there after progress 100").toEqual([]);
  });

  it("more than 1000 names → 400", async () => {
    const names = Array.from({ length: 1001 }, (_, i) => `/x/${i}`);
    expect((await api.post("/v2/files/batch/delete", { filenames: names })).status).toBe(400);
  });
});
