// docs/emulator-control.md "The console": the page, its style sheet and its ES modules (no other
// file, a strict content security policy), the reads it makes (limits, faults, behaviour, the request log as a
// stream of server-sent events), and hand changes: each one a /v2 call, so it is validated,
// counted against the rate limits, in the request log (marked `via: "console"`) and persisted.
// The real browser's view is test/e2e/console.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup, startEmulator } from "./helpers/emulator";
import { raw } from "./helpers/raw";

let emu: Emulator;
let api: Client;

beforeAll(async () => {
  ({ emu, api } = await setup());
});
afterAll(async () => {
  await emu?.stop();
});

const hand = (base: string, operation: string, query: Record<string, string>, body?: unknown) =>
  raw(base, `/_emulator/console/api/${operation}?${new URLSearchParams(query)}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("the page", () => {
  it("GET /_emulator/console is the HTML page, with a policy that allows only its own script and style", async () => {
    const r = await raw(emu.url, "/_emulator/console");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    const csp = String(r.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers["x-frame-options"]).toBe("DENY");
    expect(r.headers["referrer-policy"]).toBe("no-referrer");
    expect(r.text).toContain('<script type="module" src="/_emulator/console/console.js"></script>');
    expect(r.text).toContain('<link rel="stylesheet" href="/_emulator/console/console.css">');
  });

  it("serves its modules and style sheet, and nothing else from the package", async () => {
    // the entry module, and every module it imports, directly or not, as JavaScript
    const served = new Map<string, string>();
    const pending = ["console.js"];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (served.has(name)) continue;
      const js = await raw(emu.url, `/_emulator/console/${name}`);
      expect(js.status, name).toBe(200);
      expect(js.headers["content-type"], name).toBe("text/javascript; charset=utf-8");
      served.set(name, js.text);
      for (const [, imported] of js.text.matchAll(/ from "\.\/([\w-]+\.js)";/g))
        pending.push(imported as string);
    }
    expect(served.size).toBeGreaterThan(1);
    expect(served.get("api.js")).toContain("/_emulator/console/api/");
    const css = await raw(emu.url, "/_emulator/console/console.css");
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    for (const path of [
      "/_emulator/console/index.html",
      "/_emulator/console/..%2Fpackage.json",
      "/_emulator/console/x.js",
    ])
      expect((await raw(emu.url, path)).status, path).toBe(404);
  });
});

describe("what the console reads", () => {
  it("GET /_emulator/limits answers every counter as GET /v2/account/limits does, without counting", async () => {
    await api.get("/v2/account");
    const a = (await raw(emu.url, "/_emulator/limits")).body;
    const b = (await raw(emu.url, "/_emulator/limits")).body;
    expect(a["rest:global"]).toMatchObject({ limit: 7000 });
    expect(b["rest:global"].count).toBe(a["rest:global"].count);
    expect(Object.keys(a).sort()).toEqual(Object.keys((await api.get("/v2/account/limits")).body).sort());
  });

  it("GET /_emulator/faults and /_emulator/behaviour answer the settings in force", async () => {
    await api.faults({ latencyMs: 3 });
    try {
      expect((await raw(emu.url, "/_emulator/faults")).body).toMatchObject({ latencyMs: 3, faultRate: 0 });
      expect((await raw(emu.url, "/_emulator/behaviour")).body).toEqual({
        aliasesUpdate: "merge",
        mkdirExists: "200",
      });
    } finally {
      await api.faults({ latencyMs: 0 });
    }
  });

  it("the state's tree gives each file its size and type, and with ?mtimes=true its last change", async () => {
    const token = await api.token();
    await fetch(new URL("/v2/files/upload?filename=/console/read.txt", emu.url), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      body: "twelve bytes",
    });
    const { tree } = (await raw(emu.url, "/_emulator/state?mtimes=true")).body;
    const file = tree.find((e: { path: string }) => e.path === "/console/read.txt");
    expect(file).toEqual({
      path: "/console/read.txt",
      isDirectory: false,
      size: 12,
      contentType: "text/plain",
      mtime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(tree.find((e: { path: string }) => e.path === "/console")).toMatchObject({ isDirectory: true });
    // asked for only: a file written again with the same content changes its mtime, and tests
    // compare states for equality
    const plain = (await raw(emu.url, "/_emulator/state")).body.tree;
    expect(plain.find((e: { path: string }) => e.path === "/console/read.txt")).toEqual({
      path: "/console/read.txt",
      isDirectory: false,
      size: 12,
      contentType: "text/plain",
    });
  });

  it("GET /_emulator/requests/stream sends the log as server-sent events as requests arrive", async () => {
    const since = (await api.requests(0)).next;
    const u = new URL(emu.url);
    const events: { seq: number; operation: string | null; path: string }[] = [];
    let headers: Record<string, unknown> = {};
    const req = request({
      host: u.hostname,
      port: Number(u.port),
      path: `/_emulator/requests/stream?since=${since}`,
    });
    const got = new Promise<void>((done) => {
      req.on("response", (res) => {
        headers = res.headers;
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame
              .split("\n")
              .filter((l) => l.startsWith("data: "))
              .map((l) => l.slice(6))
              .join("");
            if (data) events.push(...JSON.parse(data));
            if (events.some((e) => e.path === "/v2/files/stat")) done();
          }
        });
      });
    });
    req.end();
    await new Promise((r) => setTimeout(r, 200));
    await api.get("/v2/files/stat", { filename: "/console" });
    await got;
    req.destroy();
    expect(headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(events.map((e) => e.operation)).toContain("stat");
    expect(events.every((e) => e.seq > since)).toBe(true);
  });
});

describe("hand changes go through /v2", () => {
  it("each one is validated, counted, logged as the console's, and applied", async () => {
    const before = (await raw(emu.url, "/_emulator/limits")).body["rest:post:account"].count;
    const since = (await api.requests(0)).next;
    const r = await hand(emu.url, "updateAccount", {}, { minify: { enabled: true } });
    expect(r.body).toEqual({ status: 200, body: null });
    expect((await api.get("/v2/account")).body.minify).toEqual({ enabled: true });
    expect((await raw(emu.url, "/_emulator/limits")).body["rest:post:account"].count).toBe(before + 1);
    const logged = (await api.requests(since)).requests.filter((e) => e.operation === "updateAccount");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ status: 200, via: "console", account: "demo" });
    // the token it used is not an API call
    expect((await api.requests(since)).requests.map((e) => e.operation)).not.toContain("token");

    const invalid = await hand(emu.url, "setTitle", { filename: "no-slash" }, { title: "x" });
    expect(invalid.body).toMatchObject({ status: 400, body: { message: 'filename: must begin with "/"' } });
    const missing = await hand(emu.url, "rename", { from: "/nowhere", to: "/elsewhere" });
    expect(missing.body).toMatchObject({ status: 404, body: { name: "NoSuchFileError" } });
  });

  it("an upload carries the file's bytes and content type: typed by its name, or kept under content-type-declared", async () => {
    const upload = (filename: string) =>
      raw(emu.url, `/_emulator/console/api/upload?filename=${filename}`, {
        method: "POST",
        headers: { "content-type": "image/png" },
        body: "not really a png",
      });
    // docs/api.md#uploads-and-fetches [live]: the name decides; one without an extension is untyped
    expect((await upload("/console/hand-upload")).body).toEqual({ status: 200, body: null });
    const stat = await api.get("/v2/files/stat", { filename: "/console/hand-upload" });
    expect(stat.body).toMatchObject({ size: 16, contentType: "application/octet-stream" });
    await api.variants(["content-type-declared"]);
    try {
      expect((await upload("/console/hand-upload-kept")).body).toEqual({ status: 200, body: null });
      const kept = await api.get("/v2/files/stat", { filename: "/console/hand-upload-kept" });
      expect(kept.body).toMatchObject({ size: 16, contentType: "image/png" });
    } finally {
      await api.variants([]);
    }
  });

  it("a rate limit reached refuses a hand change as it refuses the API", async () => {
    await api.setLimit("rest:post:account", { used: 50 });
    try {
      const r = await hand(emu.url, "updateAccount", {}, { minify: { enabled: false } });
      expect(r.body.status).toBe(429);
      expect(r.body.body.message).toMatch(/^rate limit exceeded for rest:post:account/);
    } finally {
      await api.setLimit("rest:post:account", { used: 0 });
    }
  });

  it("for another account, with ?account=", async () => {
    await api.addAccount("console-other", "console-other-client", "console-other-secret");
    const r = await hand(emu.url, "mkdir", { account: "console-other", dirname: "/theirs" });
    expect(r.body.status).toBe(200);
    const theirs = (await raw(emu.url, "/_emulator/state?account=console-other")).body.tree;
    // beside the system folders every account holds (docs/api.md#files-and-folders)
    const system = /^\/(\.Trash|\.processed|\.well-known|Profiles|Shared)(\/|$)/;
    const own = theirs.map((e: { path: string }) => e.path).filter((p: string) => !system.test(p));
    expect(own).toEqual(["/theirs"]);
    expect((await hand(emu.url, "mkdir", { account: "nobody", dirname: "/x" })).status).toBe(404);
  });

  it("with --data, a hand change survives a restart", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mediahost-console-"));
    try {
      const first = await startEmulator(["--data", dir]);
      await hand(first.url, "mkdir", { dirname: "/kept" });
      expect(
        (await hand(first.url, "setTitle", { filename: "/kept" }, { title: "By hand" })).body.status,
      ).toBe(200);
      await first.stop();
      const second = await startEmulator(["--data", dir]);
      try {
        expect((await raw(second.url, "/_emulator/state")).body.meta["/kept"]).toEqual({ title: "By hand" });
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
