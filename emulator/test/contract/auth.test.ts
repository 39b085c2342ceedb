// docs/api.md "Authentication and tokens", "Errors" and "Bounds".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type Emulator, setup, sleep } from "./helpers/emulator";
import { OPERATION_COUNT, type OperationName, operationNames, route, samples } from "./helpers/samples";

let emu: Emulator;
let api: Client;

beforeAll(async () => {
  ({ emu, api } = await setup());
});
afterAll(async () => {
  await emu?.stop();
});

const SEEN_SCOPES = [
  "account:read",
  "account:write",
  "user:read",
  "user:write",
  "billing:read",
  "billing:write",
  "files:read",
  "files:write",
  "videos",
  "images",
];

const tokenCall = (body: unknown) => api.call("POST", "/v2/token", { body, token: null });

function expectNames(message: unknown, field: string) {
  expect(typeof message, "error body carries a message").toBe("string");
  expect(message as string).toContain(field);
}

describe("POST /v2/token (token)", () => {
  it("exchanges the default client's id and secret for a JWT with the default 1200 s lifetime", async () => {
    const r = await tokenCall({ clientId: "demo-client", clientSecret: "demo-secret" });
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    expect(r.body.expiresIn).toBe(1200);
    // docs/api.md#authentication-and-tokens [live]: an array holding one space-separated string
    expect(Array.isArray(r.body.scope)).toBe(true);
    expect(r.body.scope).toHaveLength(1);
    const scopes = (r.body.scope[0] as string).split(" ");
    expect(scopes.length).toBeGreaterThan(1);
    for (const s of scopes) expect(SEEN_SCOPES).toContain(s);
    // the token works
    const acc = await api.get("/v2/account", undefined, { token: r.body.token });
    expect(acc.status).toBe(200);
  });

  it.each([5, 60, 604800])("honours expiresIn %i (inside 5..604800)", async (expiresIn) => {
    const r = await tokenCall({ clientId: "demo-client", clientSecret: "demo-secret", expiresIn });
    expect(r.status, r.text).toBe(200);
    expect(r.body.expiresIn).toBe(expiresIn);
  });

  it.each([4, 0, -1, 604801])(
    "rejects expiresIn %i (outside 5..604800) with 400 naming expiresIn",
    async (expiresIn) => {
      const r = await tokenCall({ clientId: "demo-client", clientSecret: "demo-secret", expiresIn });
      expect(r.status).toBe(400);
      expectNames(r.body?.message, "expiresIn");
    },
  );

  it("rejects a non-numeric expiresIn with 400", async () => {
    const r = await tokenCall({ clientId: "demo-client", clientSecret: "demo-secret", expiresIn: "60" });
    expect(r.status).toBe(400);
    expectNames(r.body?.message, "expiresIn");
  });

  it.each([
    ["clientId", { clientSecret: "demo-secret" }],
    ["clientSecret", { clientId: "demo-client" }],
  ])("rejects a body without %s with 400 naming it", async (field, body) => {
    const r = await tokenCall(body);
    expect(r.status).toBe(400);
    expectNames(r.body?.message, field);
  });

  it("rejects other properties with 400 naming the property", async () => {
    const r = await tokenCall({ clientId: "demo-client", clientSecret: "demo-secret", grantType: "x" });
    expect(r.status).toBe(400);
    expectNames(r.body?.message, "grantType");
  });

  it("checks the body before the credentials, answering 400 in the error shape with '<field>: <rule>'", async () => {
    const extra = await tokenCall({ clientId: "a", clientSecret: "b", more: 1 });
    expect(extra.body).toEqual({ statusCode: 400, error: "Bad Request", message: "more: is not allowed" });
    const short = await tokenCall({ clientId: "a", clientSecret: "b", expiresIn: 4 });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe("expiresIn: must be at least 5");
  });

  it.each([
    ["a wrong secret", { clientId: "demo-client", clientSecret: "not-the-secret" }],
    ["an unknown client id", { clientId: "nobody", clientSecret: "demo-secret" }],
    ["empty credentials", { clientId: "", clientSecret: "" }],
  ])("answers %s with 401 and a message", async (_what, body) => {
    const r = await tokenCall(body);
    expect(r.status).toBe(401);
    expect(typeof r.body?.message).toBe("string");
    expect(r.text).not.toContain('token":');
  });

  it("issues tokens for an account added through the control surface, bound to that account", async () => {
    await api.addAccount("second-acct", "second-client", "second-secret");
    const other = new Client(emu.url, "second-client", "second-secret");
    const acc = await other.get("/v2/account");
    expect(acc.status).toBe(200);
    expect(acc.body.alias).toBe("second-acct");
    // the demo client's secret does not open the second client
    const wrong = await tokenCall({ clientId: "second-client", clientSecret: "demo-secret" });
    expect(wrong.status).toBe(401);
  });
});

// Every operation except POST /v2/token requires a bearer token (docs/api.md#authentication-and-tokens).
const guarded = operationNames.filter((n) => n !== "token");

function send(name: OperationName, token: string | null, extraHeaders?: Record<string, string>) {
  const { method, path } = route(name);
  const s = samples[name];
  return api.call(method, path, { query: s.query, body: s.body, token, headers: extraHeaders });
}

describe("every operation but token requires a valid bearer token", () => {
  it("covers every operation but the token request", () => {
    expect(operationNames).toHaveLength(OPERATION_COUNT);
    expect(guarded).toHaveLength(OPERATION_COUNT - 1);
  });

  it.each(guarded)("%s without Authorization → 401", async (name) => {
    const r = await send(name, null);
    expect(r.status, r.text).toBe(401);
    expect(typeof r.body?.message).toBe("string");
  });

  it("a missing token → 401 {message: 'Missing authentication'}", async () => {
    const r = await api.get("/v2/account", undefined, { token: null });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: "Missing authentication" });
  });

  it.each(guarded)("%s with a garbage token → 401", async (name) => {
    const r = await send(name, "garbage.not-a.jwt");
    expect(r.status, r.text).toBe(401);
    expect(typeof r.body?.message).toBe("string");
  });

  it("rejects a token signed for something else and a non-Bearer scheme", async () => {
    const good = await api.token();
    const [h, p] = good.split(".");
    const forged = `${h}.${p}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await api.get("/v2/account", undefined, { token: forged })).status).toBe(401);
    const basic = await api.call("GET", "/v2/account", {
      token: null,
      headers: { authorization: `Basic ${Buffer.from("demo-client:demo-secret").toString("base64")}` },
    });
    expect(basic.status).toBe(401);
  });

  it("rejects an expired token on every guarded operation (expiresIn 5, then wait)", {
    timeout: 30_000,
  }, async () => {
    const shortLived = await api.token(5);
    // valid before expiry
    expect((await api.get("/v2/account", undefined, { token: shortLived })).status).toBe(200);
    await sleep(6_500);
    const statuses = await Promise.all(
      guarded.map(async (n) => [n, (await send(n, shortLived)).status] as const),
    );
    const not401 = statuses.filter(([, s]) => s !== 401);
    expect(not401, "operations that accepted an expired token").toEqual([]);
    // a fresh token works again
    const fresh = await api.token();
    expect((await api.get("/v2/account", undefined, { token: fresh })).status).toBe(200);
  });
});
