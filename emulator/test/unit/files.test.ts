import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../index";

let emu: RunningEmulator;
let token: string;

async function call(method: string, path: string, body?: unknown, auth = token) {
  const headers: Record<string, string> = { authorization: `Bearer ${auth}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = text;
  }
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions
  return { status: res.status, headers: res.headers, json: json as any, text };
}

async function login(clientId = "demo-client", clientSecret = "demo-secret"): Promise<string> {
  const r = await call("POST", "/v2/token", { clientId, clientSecret }, "");
  expect(r.status).toBe(200);
  return r.json.token as string;
}

async function poll(path: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const r = await call("GET", path);
    expect(r.status).toBe(200);
    if (r.json.status === "done" || r.json.status === "failed") return r.json;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error("job did not finish");
}

// a 3×2 PNG
const png = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000003000000020806000000b8ad3a630000000d4944415478da63f8cf00000001000105fe02fe0000000049454e44ae426082",
  "hex",
);
let remote: Server;
let remoteUrl: string;

beforeAll(async () => {
  emu = await startEmulator({ accounts: [{ alias: "other", clientId: "other-client", clientSecret: "s" }] });
  // a remote origin for fetch: a PNG, a protected file and a failing path
  remote = createServer((req, res) => {
    if (req.url === "/img.png") return res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (req.url === "/private.txt") {
      const ok = req.headers.authorization === `Basic ${Buffer.from("u:p").toString("base64")}`;
      return res.writeHead(ok ? 200 : 401).end(ok ? "secret" : "");
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => remote.listen(0, "127.0.0.1", r));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await emu.stop();
  remote.close();
});

beforeEach(async () => {
  await emu.control.reset();
  token = await login();
});

describe("emulator file tree over HTTP", () => {
  it("creates folders without implicit parents and refuses duplicates", async () => {
    expect((await call("POST", "/v2/files/mkdir?dirname=/a/b")).json).toEqual({
      name: "NoSuchFileError",
      message: "No such file or directory: /a",
    });
    expect((await call("POST", "/v2/files/mkdir?dirname=/a")).status).toBe(200);
    // as the service documents it: an error under HTTP 200
    const again = await call("POST", "/v2/files/mkdir?dirname=/a");
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ name: "RiakFsError", message: "Path already exists: /a" });
    expect((await call("POST", "/v2/files/mkdir?dirname=/a/b/")).status).toBe(200);
    expect((await call("GET", "/v2/files/stat?filename=/a/b")).json.isDirectory).toBe(true);
  });

  it("fetches remote files into missing folders, with dimensions, and records failures as events", async () => {
    const r = await call("POST", "/v2/files/fetch", [
      { url: `${remoteUrl}/img.png`, filename: "/in/deep/img.png" },
      { url: `${remoteUrl}/private.txt`, filename: "/in/p.txt", auth: { username: "u", password: "p" } },
      { url: `${remoteUrl}/missing.jpg`, filename: "/in/missing.jpg" },
    ]);
    expect(r.status).toBe(200);
    expect(r.json.map((x: { success: boolean }) => x.success)).toEqual([true, true, false]);
    const stat = await call("GET", "/v2/files/stat?filename=/in/deep/img.png");
    expect(stat.json).toMatchObject({
      contentType: "image/png",
      size: png.length,
      isDirectory: false,
      meta: { width: 3, height: 2 },
    });
    const dl = await call("GET", "/v2/files/download?filename=/in/p.txt");
    expect(dl.text).toBe("secret");
    const events = await call("POST", "/v2/account/events/search", { module: "fetching", level: "error" });
    expect(events.json).toHaveLength(1);
    expect(events.json[0]).toMatchObject({ filename: "/in/missing.jpg", type: "fetch.failed" });
    const storage = await call("GET", "/v2/account/storage");
    expect(storage.json).toMatchObject({ used: png.length + 6, files: 2 });
  });

  it("deletes only files and empty folders; copies and renames folders recursively", async () => {
    await call("POST", "/v2/files/mkdir?dirname=/src");
    await call("POST", "/v2/files/fetch", [{ url: `${remoteUrl}/img.png`, filename: "/src/x.png" }]);
    expect((await call("POST", "/v2/files/delete?filename=/src")).json.message).toBe(
      "Directory not empty: /src",
    );
    expect((await call("POST", "/v2/files/copy?from=/src&to=/copy")).status).toBe(200);
    expect((await call("POST", "/v2/files/copy?from=/src&to=/copy")).status).toBe(409);
    expect((await call("POST", "/v2/files/copy?from=/src&to=/src/inner")).status).toBe(400);
    expect((await call("POST", "/v2/files/rename?from=/copy&to=/moved")).status).toBe(200);
    expect((await call("GET", "/v2/files/stat?filename=/moved/x.png")).status).toBe(200);
    expect((await call("GET", "/v2/files/stat?filename=/copy")).status).toBe(404);
    expect((await call("POST", "/v2/files/delete?filename=/moved/x.png")).status).toBe(200);
    expect((await call("POST", "/v2/files/delete?filename=/moved")).status).toBe(200);
    expect((await call("POST", "/v2/files/delete?filename=/moved")).status).toBe(404);
    expect((await call("GET", "/v2/account/storage")).json).toMatchObject({ used: png.length, files: 1 });
  });

  it("lists folders 100 entries a page with an opaque continuation", async () => {
    await call("POST", "/v2/files/mkdir?dirname=/many");
    for (let i = 0; i < 150; i++)
      await call("POST", `/v2/files/mkdir?dirname=/many/d${String(i).padStart(3, "0")}`);
    const first = await call("GET", "/v2/files/readdir?dirname=/many");
    expect(first.json.contents).toHaveLength(100);
    expect(typeof first.json.continuation).toBe("string");
    const second = await call(
      "GET",
      `/v2/files/readdir?dirname=/many&continuation=${first.json.continuation}`,
    );
    expect(second.json.contents).toHaveLength(50);
    expect(second.json.continuation).toBeUndefined();
    expect((second.json.contents as { filename: string }[])[0]?.filename).toBe("d100");
  });

  it("keeps meta, tags and folder options with inheritance", async () => {
    await call("POST", "/v2/files/mkdir?dirname=/p");
    await call("POST", "/v2/files/mkdir?dirname=/p/c");
    expect((await call("POST", "/v2/files/meta/tags?filename=/p/c", { tags: ["a", "b"] })).status).toBe(200);
    await call("DELETE", "/v2/files/meta/tags?filename=/p/c", { tags: ["a"] });
    expect((await call("GET", "/v2/files/meta/tags?filename=/p/c")).json).toEqual({ tags: ["b"] });
    await call("POST", "/v2/files/meta/approval?filename=/p/c", { approved: true, comment: "ok" });
    expect((await call("GET", "/v2/files/meta/approval?filename=/p/c")).json).toMatchObject({
      approved: true,
      comment: "ok",
    });
    await call("POST", "/v2/files/options?filename=/p", { scanSpins: true, allowListing: false });
    await call("POST", "/v2/files/options?filename=/p/c", { allowListing: true });
    expect((await call("GET", "/v2/files/options?filename=/p/c")).json).toEqual({ allowListing: true });
    expect((await call("GET", "/v2/files/options?filename=/p/c&withInherited=true")).json).toEqual({
      scanSpins: true,
      allowListing: true,
    });
    const bad = await call("POST", "/v2/files/options?filename=/p", { locked: true });
    expect(bad.json).toEqual({ statusCode: 400, error: "Bad Request", message: "locked: is not allowed" });
  });

  it("zips files into a real archive downloadable by its URL, and batch-deletes", async () => {
    await call("POST", "/v2/files/fetch", [{ url: `${remoteUrl}/img.png`, filename: "/z/a.png" }]);
    const { json } = await call("POST", "/v2/files/zip", { filenames: ["/z"], zipFilename: "pack" });
    const done = await poll(`/v2/files/zip?id=${json.id}`);
    expect(done.progress).toBe(100);
    const [result] = done.result as { url: string; size: number; filename: string }[];
    expect(result?.filename).toBe("pack.zip");
    const zip = Buffer.from(await (await fetch(result?.url as string)).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe("PK");
    expect(zip.length).toBe(result?.size);

    const del = await call("POST", "/v2/files/batch/delete", { filenames: ["/z", "/nope"] });
    const deleted = await poll(`/v2/files/batch/delete?id=${del.json.id}`);
    expect(deleted.result).toEqual([
      { filename: "/z", success: true },
      { filename: "/nope", success: false, error: "No such file or directory: /nope" },
    ]);
    expect((await call("GET", `/v2/files/zip?id=${del.json.id}`)).status).toBe(404);
  });

  it("signs CDN URLs for protected folders and denies requests without a valid jwt", async () => {
    await call("POST", "/v2/files/fetch", [{ url: `${remoteUrl}/img.png`, filename: "/secure/a.png" }]);
    const open = await fetch(`${emu.url}/cdn/demo/secure/a.png`);
    expect(open.status).toBe(200);
    const { json } = await call("POST", "/v2/files/jwt", { filename: "/secure", key: "k1", expiresIn: 60 });
    const url = new URL(json.url as string);
    expect(url.searchParams.get("jwt")).toBeTruthy();
    expect((await fetch(`${emu.url}/cdn/demo/secure/a.png`)).status).toBe(403);
    expect((await fetch(url.href.replace("/secure", "/secure/a.png"))).status).toBe(200);
    const forged = `${emu.url}/cdn/demo/secure/a.png?jwt=${url.searchParams.get("jwt")}x`;
    expect((await fetch(forged)).status).toBe(403);
  });

  it("lands tus uploads in the tree", async () => {
    const link = await call("GET", "/v2/files/tus/url?location=local");
    const meta = `filename ${Buffer.from("/up/hello.txt").toString("base64")}`;
    const create = await fetch(link.json.url as string, {
      method: "POST",
      headers: { "tus-resumable": "1.0.0", "upload-length": "5", "upload-metadata": meta },
    });
    expect(create.status).toBe(201);
    const location = new URL(create.headers.get("location") as string, emu.url).href;
    const patch = await fetch(location, {
      method: "PATCH",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
      },
      body: "hello",
    });
    expect(patch.status).toBe(204);
    expect((await call("GET", "/v2/files/download?filename=/up/hello.txt")).text).toBe("hello");
    const bad = await fetch(`${emu.url}/tus?token=nope`, {
      method: "POST",
      headers: { "tus-resumable": "1.0.0", "upload-length": "5", "upload-metadata": meta },
    });
    expect(bad.status).toBe(401);
  });

  it("keeps accounts apart", async () => {
    const other = await login("other-client", "s");
    await call("POST", "/v2/files/mkdir?dirname=/mine");
    expect((await call("GET", "/v2/files/stat?filename=/mine", undefined, other)).status).toBe(404);
    expect((await call("GET", "/v2/account", undefined, other)).json.alias).toBe("other");
  });
});
