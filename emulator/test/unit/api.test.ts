import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../index";

let emu: RunningEmulator;
let token: string;

async function call(method: string, path: string, body?: unknown, auth: string | null = token) {
  const headers: Record<string, string> = {};
  if (auth !== null) headers.authorization = `Bearer ${auth}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === "" ? undefined : JSON.parse(text), text };
}

async function login(expiresIn?: number): Promise<string> {
  const r = await call(
    "POST",
    "/v2/token",
    { clientId: "demo-client", clientSecret: "demo-secret", expiresIn },
    null,
  );
  expect(r.status).toBe(200);
  return r.json.token;
}

beforeAll(async () => {
  emu = await startEmulator({});
});
afterAll(() => emu.stop());
beforeEach(async () => {
  await emu.control.reset();
  emu.control.setFaults({ faultRate: 0, dropRate: 0, latencyMs: 0, tokenTtlSeconds: null, seed: 1 });
  token = await login();
});

describe("emulator auth", () => {
  it("issues tokens for the configured client only", async () => {
    const bad = await call("POST", "/v2/token", { clientId: "demo-client", clientSecret: "nope" }, null);
    expect(bad.status).toBe(401);
    const extra = await call("POST", "/v2/token", { clientId: "a", clientSecret: "b", more: 1 }, null);
    expect(extra.json.message).toBe("more: is not allowed");
    const short = await call("POST", "/v2/token", { clientId: "a", clientSecret: "b", expiresIn: 4 }, null);
    expect(short.json.message).toBe("expiresIn: must be at least 5");
  });

  it("refuses missing, foreign and expired tokens with 401", async () => {
    expect((await call("GET", "/v2/account", undefined, null)).json).toEqual({
      message: "Missing authentication",
    });
    const [h, p] = token.split(".");
    expect((await call("GET", "/v2/account", undefined, `${h}.${p}.AAAA`)).status).toBe(401);
    emu.control.setFaults({ tokenTtlSeconds: 1 });
    const shortLived = await login();
    expect((await call("GET", "/v2/account", undefined, shortLived)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await call("GET", "/v2/account", undefined, shortLived)).status).toBe(401);
  });
});

describe("emulator validation and errors", () => {
  it("answers 400 naming the field, 404 for unknown routes, 413 for huge bodies", async () => {
    expect((await call("GET", "/v2/files/stat")).json).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: "filename: is required",
    });
    expect((await call("GET", "/v2/files/stat?filename=/a/../b")).status).toBe(400);
    expect((await call("POST", "/v2/account", "{nope")).status).toBe(400);
    expect((await call("GET", "/v2/nothing")).status).toBe(404);
    const huge = await call("POST", "/v2/files/search", { query: "x".repeat(5 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const spins = await call(
      "GET",
      "/v2/stats/spins/views?from=2024-01-01T00:00:00Z&to=2024-01-09T00:00:00Z",
    );
    expect(spins.json.message).toBe("to: date range must be at most 5 days");
    expect((await call("POST", "/v2/files/3d/model2GLB", {})).status).toBe(501);
  });

  it("sends CORS headers and answers preflights", async () => {
    const res = await fetch(`${emu.url}/v2/account`, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-max-age")).toBe("86400");
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect((await call("GET", "/v2/account")).headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("emulator account", () => {
  it("masks write-only secrets and merges aliases by name, or replaces them", async () => {
    const update = {
      fetching: {
        enabled: true,
        type: "http",
        http: { url: "https://o.example", auth: { enabled: true, username: "u", password: "pw" } },
      },
      aliases: { extra: { prefix: "/x", cdn: true } },
    };
    expect((await call("POST", "/v2/account", update)).status).toBe(200);
    const account = (await call("GET", "/v2/account")).json;
    expect(account.fetching.http.auth).toEqual({ enabled: true, username: "u", password: "" });
    expect(Object.keys(account.aliases).sort()).toEqual(["demo", "extra"]);
    expect(
      (emu.control.state().account as { fetching: { http: { auth: { password: string } } } }).fetching.http
        .auth.password,
    ).toBe("pw");

    emu.control.setBehaviour({ aliasesUpdate: "replace" });
    await call("POST", "/v2/account", { aliases: { only: { prefix: "/" } } });
    expect(Object.keys((await call("GET", "/v2/account")).json.aliases)).toEqual(["only"]);
    emu.control.setBehaviour({ aliasesUpdate: "merge" });
  });

  it("adds and removes custom domains and sub-accounts with conflicts", async () => {
    const add = { alias: "demo", domain: "img.example.com" };
    expect((await call("POST", "/v2/account/custom-domain", add)).status).toBe(200);
    expect((await call("POST", "/v2/account/custom-domain", add)).status).toBe(409);
    expect((await call("GET", "/v2/account")).json.aliases.demo.customDomain).toBe("img.example.com");
    expect((await call("POST", "/v2/account/custom-domain", { alias: "nope", domain: "x" })).status).toBe(
      404,
    );
    expect((await call("DELETE", "/v2/account/custom-domain?alias=demo&domain=img.example.com")).status).toBe(
      200,
    );
    expect((await call("DELETE", "/v2/account/custom-domain?alias=demo&domain=img.example.com")).status).toBe(
      404,
    );

    expect((await call("POST", "/v2/account/sub-account", { alias: "kid" })).json).toEqual({ alias: "kid" });
    expect((await call("POST", "/v2/account/sub-account", { alias: "kid" })).json).toEqual({
      statusCode: 409,
      error: "Conflict",
      message: "Sub-account already exists: kid",
    });
    expect((await call("DELETE", "/v2/account/sub-account?alias=kid")).status).toBe(200);
    expect((await call("DELETE", "/v2/account/sub-account?alias=kid")).status).toBe(404);
  });
});

describe("emulator rate limits", () => {
  it("counts every call on rest:global and the operation's counter, with headers", async () => {
    const r = await call("POST", "/v2/account", { minify: { enabled: true } });
    expect(r.headers.get("x-ratelimit-type")).toBe("rest:post:account");
    expect(r.headers.get("x-ratelimit-remaining")).toBe("49");
    expect(r.headers.get("x-global-ratelimit-remaining")).toBe("6999");
    const limits = (await call("GET", "/v2/account/limits")).json;
    expect(limits["rest:global"]).toMatchObject({ count: 2, limit: 7000, remaining: 6998 });
    expect(limits["rest:post:account"].count).toBe(1);
    expect(limits["rest:post:account"].reset).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  it("answers 429 without applying the call once a counter is used up", async () => {
    emu.control.setLimit({ counter: "rest:post:account", used: 50 });
    const r = await call("POST", "/v2/account", { minify: { enabled: true } });
    expect(r.status).toBe(429);
    expect(r.json.message).toMatch(
      /^rate limit exceeded for rest:post:account; requests may resume at \d{4}-/,
    );
    expect((await call("GET", "/v2/account")).json.minify.enabled).toBe(false);
    emu.control.setLimit({ counter: "rest:global", limit: 2 });
    expect((await call("GET", "/v2/account")).status).toBe(200);
    expect((await call("GET", "/v2/account")).status).toBe(429);
  });
});

describe("emulator control surface and faults", () => {
  it("logs /v2 calls by operation and account, and never itself", async () => {
    const before = emu.control.requests().next;
    await call("POST", "/v2/files/mkdir?dirname=/x");
    await call("GET", "/v2/what");
    await fetch(`${emu.url}/_emulator/accounts`);
    const res = await fetch(`${emu.url}/_emulator/requests?since=${before}`);
    const log = (await res.json()) as { requests: Record<string, unknown>[]; next: number };
    expect(log.requests.map((e) => e.operation)).toEqual(["mkdir", null]);
    expect(log.requests[0]).toMatchObject({
      method: "POST",
      path: "/v2/files/mkdir",
      status: 200,
      account: "demo",
    });
    expect(log.next).toBe(before + 2);
  });

  it("loses the response after applying with dropAfterApply", async () => {
    emu.control.setFaults({ dropAfterApply: { operation: "mkdir", count: 1 } });
    await expect(call("POST", "/v2/files/mkdir?dirname=/lost")).rejects.toThrow();
    // applied: the repeat finds the folder there
    expect((await call("POST", "/v2/files/mkdir?dirname=/lost")).json.message).toBe(
      "Path already exists: /lost",
    );
  });

  it("injects 500, 503 and dropped connections at the configured rate, repeatably", async () => {
    const outcomes = async () => {
      emu.control.setFaults({ faultRate: 0.5, seed: 7 });
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        seen.push(
          await call("GET", "/v2/account").then(
            (r) => String(r.status),
            () => "drop",
          ),
        );
      }
      emu.control.setFaults({ faultRate: 0 });
      return seen;
    };
    const first = await outcomes();
    expect(new Set(first)).toEqual(new Set(["200", "500", "503", "drop"]));
    expect(await outcomes()).toEqual(first);
  });

  it("adds accounts with their own credentials", async () => {
    const res = await fetch(`${emu.url}/_emulator/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ alias: "second", clientId: "c2", clientSecret: "s2" }),
    });
    expect(res.status).toBe(200);
    const t = await call("POST", "/v2/token", { clientId: "c2", clientSecret: "s2" }, null);
    expect((await call("GET", "/v2/account", undefined, t.json.token)).json.alias).toBe("second");
    await emu.control.reset();
    expect((await call("GET", "/v2/account", undefined, t.json.token)).status).toBe(401);
  });
});
