// docs/emulator-control.md "Safety": the control surface (/_emulator/*) and the console mask every
// credential; they answer only same-origin requests (no CORS grant), only at the address the
// emulator listens on (or a name given with --allow-host), and, bound beyond loopback (or given
// --control-token), only with the token the emulator printed. The /v2 API keeps the service's
// CORS headers and answers under any Host (cors.test.ts has the headers themselves).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup, startEmulator } from "./helpers/emulator";
import { raw } from "./helpers/raw";

const PASSWORD = "origin-pw-5f1e";
const URL_PASSWORD = "url-pw-77aa";
const ORIGIN_URL = `https://urluser:${URL_PASSWORD}@origin.example.com/media`;
const ACCESS_KEY_ID = "AKIAEXAMPLE1234";
const S3_SECRET = "s3-secret-9b2c";
const CLIENT_SECRET = "demo-secret";

let emu: Emulator;
let api: Client;
let host: string;

beforeAll(async () => {
  ({ emu, api } = await setup());
  host = new URL(emu.url).host;
});
afterAll(async () => {
  await emu?.stop();
});

const http = {
  enabled: true,
  type: "http",
  http: { url: ORIGIN_URL, auth: { enabled: true, username: "fetcher", password: PASSWORD } },
};
const s3 = {
  enabled: true,
  type: "s3",
  s3: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: S3_SECRET, bucket: "media", endpoint: "s3.example.com" },
};

function expectNone(text: string, secrets: string[]) {
  for (const secret of secrets) expect(text, secret).not.toContain(secret);
}

describe("credentials are masked", () => {
  it("GET /_emulator/state masks the fetching password, URL credentials, S3 keys; the client secret is absent", async () => {
    expect((await api.post("/v2/account", { fetching: http })).status).toBe(200);
    const withHttp = await raw(emu.url, "/_emulator/state");
    expect(withHttp.status).toBe(200);
    expectNone(withHttp.text, [PASSWORD, URL_PASSWORD, CLIENT_SECRET]);
    expect(withHttp.body.account.fetching.http).toEqual({
      url: "https://[masked]@origin.example.com/media",
      auth: { enabled: true, username: "fetcher", password: "[masked]" },
    });

    expect((await api.post("/v2/account", { fetching: s3 })).status).toBe(200);
    const withS3 = await raw(emu.url, "/_emulator/state");
    expectNone(withS3.text, [ACCESS_KEY_ID, S3_SECRET, CLIENT_SECRET]);
    expect(withS3.body.account.fetching.s3).toMatchObject({
      accessKeyId: "[masked]",
      secretAccessKey: "[masked]",
      bucket: "media",
    });
  });

  it("the request log keeps no body, and masks credentials in a query", async () => {
    const token = await api.token();
    const before = (await api.requests(0)).next;
    await api.post("/v2/account", { fetching: http }, undefined, { token });
    await api.call("GET", "/v2/nope", {
      token,
      query: { password: "pw-in-query-1", token: "tok-in-query-2", filename: "/visible" },
    });
    const log = await raw(emu.url, `/_emulator/requests?since=${before}`);
    expect(log.status).toBe(200);
    expectNone(log.text, [PASSWORD, URL_PASSWORD, token, "pw-in-query-1", "tok-in-query-2", CLIENT_SECRET]);
    const [update, unknown] = log.body.requests;
    expect(update).toMatchObject({ operation: "updateAccount", status: 200, counter: "rest:post:account" });
    expect(update).not.toHaveProperty("query");
    expect(typeof update.latencyMs).toBe("number");
    expect(unknown).toMatchObject({
      operation: null,
      status: 404,
      query: "password=%5Bmasked%5D&token=%5Bmasked%5D&filename=%2Fvisible",
    });
  });

  it("the console's hand changes answer the API's status and body, masked", async () => {
    const r = await raw(emu.url, "/_emulator/console/api/createSubAccount", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ alias: "hand-made" }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 200, body: { alias: "hand-made" } });
    // only the dashboard's writes: no reads of credentials through it
    const read = await raw(emu.url, "/_emulator/console/api/getUser?userId=x", { method: "POST" });
    expect(read.status).toBe(404);
    expect(read.body.message).toBe("Not a hand change: getUser");
  });
});

describe("same origin only", () => {
  it("a cross-origin request is refused, with no CORS grant", async () => {
    for (const [method, path] of [
      ["GET", "/_emulator/state"],
      ["GET", "/_emulator/requests"],
      ["POST", "/_emulator/reset"],
      ["GET", "/_emulator/console"],
      ["POST", "/_emulator/console/api/updateAccount"],
    ] as const) {
      const r = await raw(emu.url, path, {
        method,
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.message).toBe("Cross-origin requests to the control surface are refused");
      expect(r.headers["access-control-allow-origin"], path).toBeUndefined();
    }
  });

  it("a same-origin request is answered, without CORS headers", async () => {
    const r = await raw(emu.url, "/_emulator/state", {
      headers: { origin: `http://${host}`, "sec-fetch-site": "same-origin" },
    });
    expect(r.status).toBe(200);
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    expect(r.headers["access-control-expose-headers"]).toBeUndefined();
  });

  it("a preflight to the control surface grants nothing; the API's preflight still does", async () => {
    const headers = {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    };
    const control = await raw(emu.url, "/_emulator/reset", { method: "OPTIONS", headers });
    expect(control.status).toBe(403);
    expect(control.headers["access-control-allow-origin"]).toBeUndefined();
    expect(control.headers["access-control-allow-methods"]).toBeUndefined();
    const v2 = await raw(emu.url, "/v2/account", { method: "OPTIONS", headers });
    expect(v2.status).toBe(204);
    expect(v2.headers["access-control-allow-origin"]).toBe("*");
  });

  it("a request the browser marks cross-site is refused; a link to the console page still opens it", async () => {
    const state = await raw(emu.url, "/_emulator/state", {
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" },
    });
    expect(state.status).toBe(403);
    expect(state.body.message).toBe("Cross-site requests to the control surface are refused");
    const page = await raw(emu.url, "/_emulator/console", {
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
  });
});

describe("the Host header (DNS rebinding)", () => {
  it("another host name is refused on the control surface and the console, not on /v2", async () => {
    const evil = { host: `rebound.evil.example:${new URL(emu.url).port}` };
    for (const path of ["/_emulator/state", "/_emulator/requests", "/_emulator/console"]) {
      const r = await raw(emu.url, path, { headers: evil });
      expect(r.status, path).toBe(403);
      expect(r.body.message).toMatch(/^Host not allowed: rebound\.evil\.example /);
    }
    const token = await api.token();
    const v2 = await raw(emu.url, "/v2/account", { headers: { ...evil, authorization: `Bearer ${token}` } });
    expect(v2.status).toBe(200);
    expect(v2.headers["access-control-allow-origin"]).toBe("*");
  });

  it("no spelling of a control path gets past the check", async () => {
    const evil = { host: `rebound.evil.example:${new URL(emu.url).port}` };
    for (const path of [
      "/%5Femulator/state",
      "/_emulator/%73tate",
      "/_emulator/state/",
      "/_emulator/./state",
    ]) {
      const r = await raw(emu.url, path, { headers: evil });
      expect(r.status, path).toBe(403);
      expect(r.text, path).not.toContain('"tree"');
    }
  });

  it("the address listened on and loopback names are answered; no Host at all is refused", async () => {
    const port = new URL(emu.url).port;
    for (const name of [host, `localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await raw(emu.url, "/_emulator/accounts", { headers: { host: name } })).status, name).toBe(200);
    }
    expect((await raw(emu.url, "/_emulator/accounts", { headers: { host: "" } })).status).toBe(403);
  });

  it("--allow-host adds a name", async () => {
    const other = await startEmulator(["--allow-host", "emulator.internal"]);
    try {
      const port = new URL(other.url).port;
      const ok = await raw(other.url, "/_emulator/accounts", {
        headers: { host: `emulator.internal:${port}` },
      });
      expect(ok.status).toBe(200);
      const no = await raw(other.url, "/_emulator/accounts", { headers: { host: `emulator.other:${port}` } });
      expect(no.status).toBe(403);
    } finally {
      await other.stop();
    }
  });
});

describe("bound beyond loopback: the control token", () => {
  let wide: Emulator;
  let url: string;
  let token: string;

  beforeAll(async () => {
    wide = await startEmulator(["--host", "0.0.0.0"]);
    // every interface: this test talks to it over loopback only
    url = wide.url.replace("0.0.0.0", "127.0.0.1");
    const lines = wide.stdout().trimEnd().split("\n");
    expect(lines[0]).toBe(wide.url.replace(/^/, "listening on "));
    const consoleLine = /^console: (http:\/\/127\.0\.0\.1:\d+\/_emulator\/console)\?token=(\S+)$/.exec(
      lines[1] ?? "",
    );
    expect(consoleLine, lines.join("\n")).not.toBeNull();
    token = consoleLine?.[2] as string;
    expect(lines[2]).toBe(`control token: ${token}`);
    expect(token.length).toBeGreaterThanOrEqual(32);
  });
  afterAll(async () => {
    await wide?.stop();
  });

  it("without the token the control surface and the console answer 401; /v2 needs none", async () => {
    for (const path of ["/_emulator/state", "/_emulator/accounts", "/_emulator/console"]) {
      const r = await raw(url, path);
      expect(r.status, path).toBe(401);
      expectNone(r.text, [token]);
    }
    expect((await raw(url, "/_emulator/state", { headers: { authorization: "Bearer wrong" } })).status).toBe(
      401,
    );
    const client = new (await import("./helpers/emulator")).Client(url);
    expect((await client.get("/v2/account")).status).toBe(200);
  });

  it("answers with the token as a bearer token or in X-Emulator-Token", async () => {
    expect(
      (await raw(url, "/_emulator/state", { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await raw(url, "/_emulator/accounts", { headers: { "x-emulator-token": token } })).status).toBe(
      200,
    );
  });

  it("the console link trades the token for a same-site, script-proof cookie and drops it from the URL", async () => {
    const port = new URL(url).port;
    const link = await raw(url, `/_emulator/console?token=${encodeURIComponent(token)}`);
    expect(link.status).toBe(303);
    expect(link.headers.location).toBe("/_emulator/console");
    const cookie = String(link.headers["set-cookie"]);
    expect(cookie).toContain(`mediahost-emulator-${port}=${token}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/_emulator");
    const jar = { cookie: `mediahost-emulator-${port}=${token}` };
    expect((await raw(url, "/_emulator/console", { headers: jar })).status).toBe(200);
    expect((await raw(url, "/_emulator/state", { headers: jar })).status).toBe(200);
    expect((await raw(url, "/_emulator/console?token=wrong")).status).toBe(401);
  });

  it("--control-token requires a chosen token on loopback too", async () => {
    const chosen = "chosen-token-0123456789";
    const local = await startEmulator(["--control-token", chosen]);
    try {
      expect(local.stdout()).toContain(`control token: ${chosen}`);
      expect((await raw(local.url, "/_emulator/accounts")).status).toBe(401);
      const ok = await raw(local.url, "/_emulator/accounts", {
        headers: { authorization: `Bearer ${chosen}` },
      });
      expect(ok.status).toBe(200);
    } finally {
      await local.stop();
    }
  });
});
