// File against the emulator over HTTP: uploads (simple and tus), drift from size and mtime with
// downloads only on change, adopt, guarded deletes, fetched files and their secrets.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { uploadFingerprint } from "../../provider/client/transfer";
import { readConfiguration, uploadResumeFile } from "../../provider/config";
import { Lifecycle } from "../../provider/lifecycle";
import { kinds } from "../../provider/resources";
import type { Kind } from "../../provider/resources/kind";
import { Session } from "../../provider/session";
import { putFile } from "./helpers/files";
import { type Harness, startHarness } from "./helpers/harness";

let h: Harness;
let dir: string;
let origin: Server;
let originUrl: string;
const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), "mediahost-files-"));
  // a remote origin for fetched files, behind basic authentication
  origin = createServer((req, res) => {
    const ok = req.headers.authorization === `Basic ${Buffer.from("user:origin-pw-7d1e").toString("base64")}`;
    if (!ok) return void res.writeHead(401).end();
    res.writeHead(200, { "content-type": "text/plain" }).end("fetched body");
  });
  await new Promise<void>((done) => origin.listen(0, "127.0.0.1", done));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h.stop();
  await rm(dir, { recursive: true, force: true });
  await new Promise<void>((done) => origin.close(() => done()));
});
beforeEach(async () => {
  await h.emulator.control.reset();
  h.emulator.control.setVariants([]);
  h.configure();
  h.mark();
});

const download = async (path: string) =>
  Buffer.from(await h.api().ops.download({ query: { filename: path } })).toString();

describe("File from content", () => {
  const program = { path: "/profiles/hero.json", content: '{"w": 1200}' };

  it("uploads in one request into missing folders and records hash, size and mtime", async () => {
    const { id, outs } = await h.create("File", program);
    expect(id).toBe("/profiles/hero.json");
    expect(outs).toMatchObject({ sha256: sha(program.content), size: 11, accountAlias: "demo" });
    // the time is the upload's answer's (its Date, to the second): nothing is read back
    expect(outs.mtime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(Math.abs(Date.parse(outs.mtime as string) - Date.now())).toBeLessThan(5_000);
    // is it there already (stat), the upload; plus a token and the account read
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, stat: 1, upload: 1 });
    expect(await download(id)).toBe(program.content);
  });

  it("refreshes an unchanged file with one stat and no download", async () => {
    const { id, outs } = await h.create("File", program);
    h.mark();
    expect(await h.refresh("File", id, outs, program)).toMatchObject({ gone: false, changes: [] });
    expect(h.calls()).toEqual({ stat: 1 });
  });

  it("a touched file (same content written again) is not drift: one download tells", async () => {
    const { id, outs } = await h.create("File", program);
    // written again after the second the upload was answered in (within it, a write of the same
    // size is not told apart: docs/reliability.md)
    await new Promise((r) => setTimeout(r, 1_100));
    await putFile(h.api(), id, program.content);
    h.mark();
    const r = await h.refresh("File", id, outs, program);
    expect(r.changes).toEqual([]);
    expect(r.outs.mtime).not.toBe(outs.mtime);
    expect(h.calls()).toEqual({ stat: 1, download: 1 });
  });

  it("content changed outside Pulumi is drift on contentSha256, and an update puts it back in place", async () => {
    const { id, outs } = await h.create("File", program);
    await putFile(h.api(), id, '{"w": 99}');
    const r = await h.refresh("File", id, outs, program);
    expect(r.changes).toEqual(["contentSha256"]);
    expect(r.replaces).toEqual([]);
    expect(r.inputs.contentSha256).toBe(sha('{"w": 99}'));
    h.mark();
    const updated = await h.update("File", id, r.outs, program);
    expect(await download(id)).toBe(program.content);
    expect(updated.sha256).toBe(sha(program.content));
    // the live hash the refresh reported is gone again: the program's inputs (here none) stand
    expect(updated.contentSha256).toBeUndefined();
    // uploaded in place: no delete
    expect(h.calls()).toMatchObject({ upload: 1 });
    expect(h.calls().deleteFile).toBeUndefined();
    expect((await h.refresh("File", id, updated, program)).changes).toEqual([]);
  });

  it("a deleted file is reported gone", async () => {
    const { id, outs } = await h.create("File", program);
    await h.api().ops.deleteFile({ query: { filename: id } });
    expect((await h.refresh("File", id, outs, program)).gone).toBe(true);
  });

  it("many files of one folder are refreshed from its listing, not a stat each", async () => {
    const made = [];
    for (let i = 0; i < 30; i++)
      made.push(await h.create("File", { path: `/many/f${i}.txt`, content: `${i}` }));
    h.configure();
    h.mark();
    const results = await Promise.all(
      made.map((m, i) => h.refresh("File", m.id, m.outs, { path: `/many/f${i}.txt`, content: `${i}` })),
    );
    expect(results.every((r) => !r.gone && r.changes.length === 0)).toBe(true);
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, readdir: 1 });
  });
});

describe("File imported (the native face's import)", () => {
  const path = "/legacy/readme.txt";
  const content = "hello\n";
  const importFile = async () => {
    // as the native face imports: a lifecycle of its own, on the provider's configuration
    const config: Record<string, string> = {
      "mediahost:baseUrl": h.emulator.url,
      "mediahost:clientId": "demo-client",
      "mediahost:clientSecret": "demo-secret",
    };
    const lifecycle = new Lifecycle(new Session(readConfiguration({ config: (k) => config[k], env: {} })));
    const kind = kinds.File as unknown as Kind;
    const read = await lifecycle.import(kind, path);
    if (!read) throw new Error(`${path}: nothing imported`);
    return { lifecycle, kind, ...read };
  };

  it("takes an image profile in as adopted, and refuses a file of another system folder", async () => {
    const config: Record<string, string> = {
      "mediahost:baseUrl": h.emulator.url,
      "mediahost:clientId": "demo-client",
      "mediahost:clientSecret": "demo-secret",
    };
    const lifecycle = new Lifecycle(new Session(readConfiguration({ config: (k) => config[k], env: {} })));
    const kind = kinds.File as unknown as Kind;
    // every account holds its image profiles (docs/api.md#files-and-folders)
    const read = await lifecycle.import(kind, "/Profiles/Default.profile");
    expect(read?.outs.__adopted).toEqual({});
    expect(read?.inputs).toEqual({
      path: "/Profiles/Default.profile",
      content: expect.stringContaining("{"),
    });
    await expect(lifecycle.import(kind, "/.Trash/old-banner.jpg")).rejects.toThrow(
      "File /.Trash/old-banner.jpg cannot be imported: /.Trash/old-banner.jpg lies in /.Trash, the account's system folder",
    );
    await expect(lifecycle.import(kinds.Folder as unknown as Kind, "/Profiles")).rejects.toThrow(
      "the provider never deletes or moves it",
    );
  });

  it("declares what a program declares, path and content, and no hash: the SDK's or none is no change", async () => {
    await putFile(h.api(), path, content);
    const { lifecycle, kind, inputs, outs } = await importFile();
    // what `pulumi import` writes as code: no `contentSha256`, which no program declares
    expect(inputs).toEqual({ path, content });
    expect(outs).toMatchObject({ path, content, sha256: sha(content), size: 6 });
    expect(outs.contentSha256).toBeUndefined();
    // the TypeScript SDK sends the content's hash; a YAML or Go program sends none
    for (const program of [
      { path, content, contentSha256: sha(content) },
      { path, content },
    ]) {
      const checked = lifecycle.check(kind, program, outs);
      expect(checked.failures).toEqual([]);
      expect(lifecycle.diff(kind, path, outs as never, checked.inputs).changes).toEqual([]);
    }
    // other content in the program is a change, as is content changed outside Pulumi
    expect(lifecycle.diff(kind, path, outs as never, { path, content: "bye\n" }).changes).toEqual([
      "content",
    ]);
    await putFile(h.api(), path, "changed\n");
    const r = await h.refresh("File", path, outs, { path, content, contentSha256: sha(content) });
    expect(r.changes).toEqual(["contentSha256"]);
  });

  it("code an earlier import wrote, with the hash spelled out: edited content is uploaded, the stale hash aside", async () => {
    await putFile(h.api(), path, content);
    const { outs } = await importFile();
    const earlier = { ...outs, contentSha256: sha(content) };
    const edited = { path, content: "edited\n", contentSha256: sha(content) };
    h.mark();
    const updated = await h.update("File", path, earlier, edited);
    expect(h.calls()).toMatchObject({ upload: 1 });
    expect(await download(path)).toBe("edited\n");
    expect(updated.sha256).toBe(sha("edited\n"));
  });
});

describe("File: takeovers and deletes", () => {
  it("refuses to take over an existing file without adopt; with adopt it is written and left in place on delete", async () => {
    await putFile(h.api(), "/w/logo.svg", "<svg/>");
    await expect(h.create("File", { path: "/w/logo.svg", content: "<svg></svg>" })).rejects.toThrow(
      /File \/w\/logo\.svg: the file already exists in account "demo".*adopt: true/s,
    );
    expect(await download("/w/logo.svg")).toBe("<svg/>");
    const { id, outs } = await h.create("File", { path: "/w/logo.svg", content: "<svg></svg>", adopt: true });
    expect(await download(id)).toBe("<svg></svg>");
    await h.destroy("File", id, outs);
    expect(await download(id)).toBe("<svg></svg>");
  });

  it("adopting a file whose bytes agree reads it and writes nothing, keeping the service's type", async () => {
    // an image profile as the account holds it (the service types `.profile` by nothing it knows)
    const profile = '{"crop":{"type":"trim"}}';
    await h.api().ops.upload({
      query: { filename: "/Profiles/Shop.profile" },
      body: { bytes: new TextEncoder().encode(profile), contentType: "application/json" },
    });
    const held = await h.api().ops.stat({ query: { filename: "/Profiles/Shop.profile" } });
    h.mark();
    const { outs } = await h.create("File", {
      path: "/Profiles/Shop.profile",
      content: profile,
      adopt: true,
    });
    expect(h.calls().upload ?? 0).toBe(0);
    expect(outs).toMatchObject({ sha256: sha(profile), size: profile.length });
    const after = await h.api().ops.stat({ query: { filename: "/Profiles/Shop.profile" } });
    expect(after).toEqual(held);
  });

  it("adopting a file whose bytes differ writes the program's bytes with the type the service held", async () => {
    // a service that keeps the type an upload declares: what the provider sends shows
    h.emulator.control.setVariants(["content-type-declared"]);
    await h.api().ops.upload({
      query: { filename: "/Profiles/Shop.profile" },
      body: { bytes: new TextEncoder().encode("{}"), contentType: "application/json" },
    });
    const type = (await h.api().ops.stat({ query: { filename: "/Profiles/Shop.profile" } })).contentType;
    h.mark();
    await h.create("File", { path: "/Profiles/Shop.profile", content: '{"w":1}', adopt: true });
    expect(h.calls().upload).toBe(1);
    expect(await download("/Profiles/Shop.profile")).toBe('{"w":1}');
    expect(type).toBe("application/json");
    expect((await h.api().ops.stat({ query: { filename: "/Profiles/Shop.profile" } })).contentType).toBe(
      type,
    );
    h.emulator.control.setVariants([]);
  });

  it("deletes only while the file holds what this stack wrote; forceDestroy deletes anyway", async () => {
    const { id, outs } = await h.create("File", { path: "/d/a.txt", content: "mine" });
    await putFile(h.api(), id, "someone else's");
    await expect(h.destroy("File", id, outs)).rejects.toThrow(
      new RegExp(
        `File /d/a.txt: not deleted: the file now holds other content .*sha256 ${sha("someone else's").slice(0, 12)}.*${sha("mine").slice(0, 12)}`,
      ),
    );
    expect(await download(id)).toBe("someone else's");
    await h.destroy("File", id, { ...outs, forceDestroy: true });
    expect((await h.state()).tree.map((e) => e.path)).not.toContain(id);
    // a file already gone is deleted
    await expect(h.destroy("File", id, outs)).resolves.toBeUndefined();
  });

  it("a path change is a replace: the new path is written before the old is deleted", async () => {
    const { id, outs } = await h.create("File", { path: "/p/old.txt", content: "x" });
    const r = await h.refresh("File", id, outs, { path: "/p/new.txt", content: "x" });
    expect(r.replaces).toEqual(["path"]);
  });
});

describe("File from a local source", () => {
  it("uploads a large file through tus, and refreshes it by size and mtime", async () => {
    const big = Buffer.alloc(9 * 1024 * 1024 + 17, 7);
    const source = join(dir, "big.bin");
    await writeFile(source, big);
    const program = { path: "/assets/big.bin", sourcePath: source, contentSha256: sha(big) };
    const { id, outs } = await h.create("File", program);
    expect(outs).toMatchObject({ sha256: sha(big), size: big.length });
    expect(h.calls()).toMatchObject({ getTusLocations: 1, getTusUrl: 1 });
    expect(h.calls().upload).toBeUndefined();
    const stored = Buffer.from(await h.api().ops.download({ query: { filename: id } }));
    expect(stored.equals(big)).toBe(true);
    expect((await h.refresh("File", id, outs, program)).changes).toEqual([]);
  });

  it("resumes an upload an earlier run left unfinished instead of starting over", async () => {
    process.env.XDG_CACHE_HOME = join(dir, "cache");
    const big = Buffer.alloc(20 * 1024 * 1024, 3);
    const source = join(dir, "resume.bin");
    await writeFile(source, big);
    const path = "/assets/resume.bin";
    // an earlier run: the first 8 MiB chunk went up, then the run stopped
    const tus = await import("tus-js-client");
    const { FileUrlStorage } = tus as unknown as {
      FileUrlStorage: new (f: string) => import("tus-js-client").UrlStorage;
    };
    await mkdir(join(dir, "cache", "pulumi-mediahost"), { recursive: true });
    const link = JSON.parse(
      await h.api().ops.getTusUrl({ query: { location: "local", expiresIn: 600 } }),
    ).url;
    await new Promise<void>((resolve, reject) => {
      const up = new tus.Upload(createReadStream(source), {
        endpoint: link,
        uploadSize: big.length,
        chunkSize: 8 * 1024 * 1024,
        metadata: { filename: path },
        urlStorage: new FileUrlStorage(uploadResumeFile(process.env)),
        fingerprint: async () => uploadFingerprint(h.emulator.url, "demo", path, sha(big)),
        storeFingerprintForResuming: true,
        onChunkComplete: () => void up.abort().then(() => resolve()),
        onError: reject,
      });
      up.start();
    });
    // a new upload could not start now: only the one begun can go on
    await h.emulator.control.setLimit({ counter: "rest:post:files:upload", limit: 1, used: 1 });
    h.configure();
    const { outs } = await h.create("File", { path, sourcePath: source, contentSha256: sha(big) });
    expect(outs).toMatchObject({ sha256: sha(big), size: big.length });
    expect(Buffer.from(await h.api().ops.download({ query: { filename: path } })).equals(big)).toBe(true);
  });

  it("a large upload the upload counter refuses fails naming the counter and its reset, never the link's token", async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 5);
    const source = join(dir, "limited.bin");
    await writeFile(source, big);
    await h.emulator.control.setLimit({ counter: "rest:post:files:upload", limit: 1, used: 1 });
    h.configure();
    const err = (await h
      .create("File", { path: "/assets/limited.bin", sourcePath: source, contentSha256: sha(big) })
      .catch((e) => e)) as Error;
    expect(err.message).toMatch(
      /File \/assets\/limited\.bin: tusUpload \(\/assets\/limited\.bin\): rate limit exceeded for counter rest:post:files:upload; it resets at \d{4}-/,
    );
    expect(err.message).not.toMatch(/token=/);
    expect(err.stack).not.toMatch(/\n\s+at /);
    await h.emulator.control.setLimit({ counter: "rest:post:files:upload", limit: 2000, used: 0 });
  });

  it("names a source it cannot read", async () => {
    await expect(h.create("File", { path: "/x.bin", sourcePath: join(dir, "missing.bin") })).rejects.toThrow(
      /File \/x\.bin: cannot read the source file .*missing\.bin/,
    );
  });
});

describe("File fetched by the service", () => {
  const auth = { username: "user", password: "origin-pw-7d1e" };

  it("fetches with secret credentials, records the hash, and sees a change as drift on fetchUrl", async () => {
    const program = { path: "/in/remote.txt", fetchUrl: `${originUrl}/remote.txt`, fetchAuth: auth };
    const { id, outs } = await h.create("File", program);
    expect(outs).toMatchObject({ sha256: sha("fetched body"), size: 12 });
    expect(await download(id)).toBe("fetched body");
    expect((await h.refresh("File", id, outs, program)).changes).toEqual([]);
    await putFile(h.api(), id, "changed");
    expect((await h.refresh("File", id, outs, program)).changes).toEqual(["fetchUrl"]);
  });

  it("a failed fetch says why, without the credentials", async () => {
    const err = await h
      .create("File", {
        path: "/in/denied.txt",
        fetchUrl: `${originUrl}/x`,
        fetchAuth: { username: "user", password: "wrong-pw-3b9c" },
      })
      .catch((e: Error) => e);
    expect(String(err)).toMatch(/File \/in\/denied\.txt: the service could not fetch the file: .*401/);
    expect(String(err)).not.toContain("wrong-pw-3b9c");
  });
});

describe("File inputs", () => {
  it.each([
    [{ path: "/a.txt" }, "content: set exactly one of content, source (sourcePath), fetchUrl"],
    [{ path: "/a.txt", content: "x", fetchUrl: "https://example.com/a" }, "content: set exactly one"],
    [
      { path: "/a.txt", content: "x", fetchAuth: { username: "u", password: "p" } },
      "fetchAuth: only with fetchUrl",
    ],
    [{ path: "/", content: "x" }, "path: must be a file path, not the root"],
  ])("refuses %j at check time", async (inputs, message) => {
    await expect(h.create("File", inputs)).rejects.toThrow(message.split(":")[1]?.trim() ?? message);
  });
});
