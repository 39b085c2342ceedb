// docs/api.md#authentication-and-tokens: allowed request headers Accept, Authorization, Content-Type, If-None-Match,
// plus Content-Length and User-Agent; exposed headers `*`; preflight max age 86400 s;
// credentials not allowed; responses carry `access-control-allow-origin: *`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup } from "./helpers/emulator";

let emu: Emulator;
let api: Client;

beforeAll(async () => {
  ({ emu, api } = await setup());
});
afterAll(async () => {
  await emu?.stop();
});

const ORIGIN = "https://app.example.com";
const ALLOWED = ["accept", "authorization", "content-type", "if-none-match", "content-length", "user-agent"];

function preflight(path: string, method: string, requestHeaders: string) {
  return fetch(new URL(path, api.url), {
    method: "OPTIONS",
    headers: {
      origin: ORIGIN,
      "access-control-request-method": method,
      "access-control-request-headers": requestHeaders,
    },
  });
}

const list = (v: string | null) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

describe("CORS preflight", () => {
  it.each([
    ["/v2/account", "POST"],
    ["/v2/files/readdir", "GET"],
    ["/v2/account/custom-domain", "DELETE"],
    ["/v2/token", "POST"],
  ])(
    "OPTIONS %s for %s → 2xx with allow-origin *, the allowed headers, max age 86400 (no token needed)",
    async (path, method) => {
      const res = await preflight(path, method, "authorization,content-type,if-none-match");
      expect(res.status === 200 || res.status === 204, `status ${res.status}`).toBe(true);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const allowedHeaders = list(res.headers.get("access-control-allow-headers"));
      for (const h of ALLOWED) expect(allowedHeaders, h).toContain(h);
      expect(list(res.headers.get("access-control-allow-methods"))).toContain(method.toLowerCase());
      expect(res.headers.get("access-control-max-age")).toBe("86400");
      expect(res.headers.get("access-control-allow-credentials")).not.toBe("true");
    },
  );
});

describe("CORS on actual responses", () => {
  it("a successful authenticated response carries allow-origin * and exposes *", async () => {
    const r = await api.get("/v2/account", undefined, { headers: { origin: ORIGIN } });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-expose-headers")).toBe("*");
    expect(r.headers.get("access-control-allow-credentials")).not.toBe("true");
  });

  it("error responses carry allow-origin * too (401, 400)", async () => {
    const unauth = await api.get("/v2/account", undefined, { token: null, headers: { origin: ORIGIN } });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("access-control-allow-origin")).toBe("*");
    const bad = await api.get("/v2/files/stat", { filename: "no-slash" }, { headers: { origin: ORIGIN } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("the token response carries allow-origin *", async () => {
    const r = await api.call("POST", "/v2/token", {
      token: null,
      body: { clientId: "demo-client", clientSecret: "demo-secret" },
      headers: { origin: ORIGIN },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });
});
