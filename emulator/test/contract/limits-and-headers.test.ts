// docs/api.md "Rate limits" and "Errors";
// docs/emulator-control.md (limits, request log).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, type Emulator, setup } from "./helpers/emulator";
import { operationNames, route, SPEC_COUNTERS, samples } from "./helpers/samples";

let emu: Emulator;
let api: Client;
let alias: string;

beforeAll(async () => {
  ({ emu, api } = await setup());
  const demo = (await api.accounts()).accounts.find((a) => a.clientId === "demo-client");
  alias = demo!.alias;
});
afterAll(async () => {
  await emu?.stop();
});
beforeEach(async () => {
  await api.reset();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * `reset` is whole Unix seconds (not milliseconds), not before `t0` (seconds taken before the
 * request) and within the 60-minute window; `used` says the counter was just consumed, so its
 * window ends about an hour from now.
 */
function expectReset(value: number | string | null, t0: number, used = true) {
  const reset = Number(value);
  expect(Number.isInteger(reset), `reset ${value} is whole Unix seconds`).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(t0);
  expect(reset).toBeLessThanOrEqual(nowSeconds() + 3600 + 1);
  if (used) expect(reset, "reset lies in the future").toBeGreaterThan(t0 + 60);
}

describe("GET /v2/account/limits (getLimits)", () => {
  it("reports every counter of the specification with count, limit, remaining and reset", async () => {
    const t0 = nowSeconds();
    const r = await api.get("/v2/account/limits");
    expect(r.status).toBe(200);
    for (const [name, limit] of Object.entries(SPEC_COUNTERS)) {
      const c = r.body[name];
      expect(c, `counter ${name}`).toBeDefined();
      expect(c.limit, `${name}.limit`).toBe(limit);
      expect(typeof c.count).toBe("number");
      expect(c.remaining, `${name}.remaining`).toBe(limit - c.count);
      expectReset(c.reset, t0, c.count > 0);
    }
  });

  it("counts account updates under rest:post:account and every call under rest:global", async () => {
    const before = (await api.get("/v2/account/limits")).body;
    expect(before["rest:post:account"].count).toBe(0);
    expect((await api.post("/v2/account", { minify: { enabled: true } })).status).toBe(200);
    expect((await api.post("/v2/account", { minify: { enabled: false } })).status).toBe(200);
    const after = (await api.get("/v2/account/limits")).body;
    expect(after["rest:post:account"].count).toBe(2);
    expect(after["rest:post:account"].remaining).toBe(48);
    // the two updates and the second limits call at least
    expect(after["rest:global"].count).toBeGreaterThanOrEqual(before["rest:global"].count + 3);
  });

  it("counts each authenticated call once on rest:global, the token request not at all", async () => {
    // after the reset: a token, then the update is the first call counted
    const r = await api.post("/v2/account", { minify: { enabled: true } });
    expect(r.headers.get("x-global-ratelimit-remaining")).toBe("6999");
    const limits = (await api.get("/v2/account/limits")).body;
    expect(limits["rest:global"]).toMatchObject({ count: 2, limit: 7000, remaining: 6998 });
    expect(limits["rest:post:account"].count).toBe(1);
    // the window is the coming hour
    expect(limits["rest:post:account"].reset).toBeGreaterThan(nowSeconds() + 3500);
  });

  it("reflects a limit and usage set through the control surface", async () => {
    await api.setLimit("rest:post:files:delete", { limit: 10, used: 4 });
    const c = (await api.get("/v2/account/limits")).body["rest:post:files:delete"];
    expect(c).toMatchObject({ count: 4, limit: 10, remaining: 6 });
  });
});

describe("rate-limit headers (8.2)", () => {
  it("token-authenticated responses carry x-global-ratelimit-limit|remaining|reset for rest:global", async () => {
    await api.token();
    const t0 = nowSeconds();
    const first = await api.get("/v2/account");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-global-ratelimit-limit")).toBe("7000");
    const rem1 = Number(first.headers.get("x-global-ratelimit-remaining"));
    expect(Number.isInteger(rem1)).toBe(true);
    expect(rem1).toBeLessThan(7000);
    expectReset(first.headers.get("x-global-ratelimit-reset"), t0);
    const second = await api.get("/v2/account/storage");
    expect(Number(second.headers.get("x-global-ratelimit-remaining"))).toBe(rem1 - 1);
    // also on errors of authenticated calls
    const missing = await api.get("/v2/files/stat", { filename: "/none" });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-global-ratelimit-limit")).toBe("7000");
  });

  it("the account update carries x-ratelimit-* with type rest:post:account", async () => {
    const t0 = nowSeconds();
    const r = await api.post("/v2/account", { minify: { enabled: true } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-ratelimit-type")).toBe("rest:post:account");
    expect(r.headers.get("x-ratelimit-limit")).toBe("50");
    expect(r.headers.get("x-ratelimit-remaining")).toBe("49");
    expectReset(r.headers.get("x-ratelimit-reset"), t0);
    expect(r.headers.get("x-global-ratelimit-limit")).toBe("7000");
  });

  it("once rest:post:account is used up, the next update → 429 'rate limit exceeded' and nothing is applied", async () => {
    const before = (await api.get("/v2/account")).body.minify.enabled as boolean;
    const t0 = nowSeconds();
    await api.setLimit("rest:post:account", { used: 50 });
    const r = await api.post("/v2/account", { minify: { enabled: !before } });
    expect(r.status, r.text).toBe(429);
    expect(typeof r.body?.message).toBe("string");
    expect(r.body.message).toContain("rate limit exceeded");
    // docs/api.md: the message also says when requests may resume (a date-time or Unix time)
    expect(r.body.message).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\b\d{10}\b/);
    // the emulator's message names the counter
    expect(r.body.message).toMatch(
      /^rate limit exceeded for rest:post:account; requests may resume at \d{4}-/,
    );
    expect((await api.get("/v2/account")).body.minify.enabled).toBe(before);
    const c = (await api.get("/v2/account/limits")).body["rest:post:account"];
    expect(c.remaining).toBe(0);
    expect(c.count).toBe(50);
    expectReset(c.reset, t0);
  });

  it("a lowered limit applies at once (limit 1: one update passes, the second → 429)", async () => {
    await api.setLimit("rest:post:account", { limit: 1 });
    expect((await api.post("/v2/account", { minify: { enabled: true } })).status).toBe(200);
    const r = await api.post("/v2/account", { minify: { enabled: false } });
    expect(r.status).toBe(429);
    expect(r.body.message).toContain("rate limit exceeded");
    expect((await api.get("/v2/account")).body.minify.enabled).toBe(true);
  });

  it("once rest:global is used up, any authenticated call → 429", async () => {
    await api.setLimit("rest:global", { used: 7000 });
    const r = await api.get("/v2/account/storage");
    expect(r.status).toBe(429);
    expect(r.body.message).toContain("rate limit exceeded");
    expect(r.headers.get("x-global-ratelimit-remaining")).toBe("0");
  });

  it("counters are per account: using up one account's counter leaves another's alone", async () => {
    await api.addAccount("other-acct", "other-client", "other-secret");
    await api.setLimit("rest:post:account", { used: 50, account: alias });
    expect((await api.post("/v2/account", { minify: { enabled: true } })).status).toBe(429);
    const other = new Client(emu.url, "other-client", "other-secret");
    expect((await other.post("/v2/account", { minify: { enabled: true } })).status).toBe(200);
  });
});

describe("operations consume the counter their name gives (8.1) and report it in x-ratelimit-* (8.2)", () => {
  const byName: [string, string, () => Promise<{ status: number; headers: Headers; text: string }>][] = [
    ["rest:post:account", "updateAccount", () => api.post("/v2/account", { minify: { enabled: true } })],
    [
      "rest:post:files:delete",
      "deleteFile",
      async () => {
        await api.post("/v2/files/mkdir", undefined, { dirname: "/gone" });
        return api.post("/v2/files/delete", undefined, { filename: "/gone" });
      },
    ],
    ["rest:post:files:search", "search", () => api.post("/v2/files/search", { query: "anything" })],
    [
      "rest:post:files:batch:delete",
      "startBatchDelete",
      async () => {
        await api.post("/v2/files/mkdir", undefined, { dirname: "/batch" });
        return api.post("/v2/files/batch/delete", { filenames: ["/batch"] });
      },
    ],
    ["rest:get:stats:http", "getHttpStats", () => api.get("/v2/stats/http")],
    ["rest:get:stats:storage", "getStorageStats", () => api.get("/v2/stats/storage")],
  ];

  it.each(byName)("%s ← %s", async (counter, _op, send) => {
    const t0 = nowSeconds();
    const r = await send();
    expect(r.status, r.text).toBe(200);
    const limit = SPEC_COUNTERS[counter]!;
    expect(r.headers.get("x-ratelimit-type")).toBe(counter);
    expect(r.headers.get("x-ratelimit-limit")).toBe(String(limit));
    expect(r.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));
    expectReset(r.headers.get("x-ratelimit-reset"), t0);
    const c = (await api.get("/v2/account/limits")).body[counter];
    expect(c).toMatchObject({ count: 1, limit, remaining: limit - 1 });
  });

  it("batch delete is refused with 429 once its 25 an hour are used", async () => {
    await api.post("/v2/files/mkdir", undefined, { dirname: "/kept" });
    await api.setLimit("rest:post:files:batch:delete", { used: 25 });
    const r = await api.post("/v2/files/batch/delete", { filenames: ["/kept"] });
    expect(r.status, r.text).toBe(429);
    expect(r.headers.get("x-ratelimit-type")).toBe("rest:post:files:batch:delete");
    expect((await api.get("/v2/files/stat", { filename: "/kept" })).status).toBe(200);
  });
});

describe("request log (GET /_emulator/requests)", () => {
  it("logs /v2 requests in order with their operation name, status and account; never the control surface", async () => {
    await api.clearRequests();
    await api.get("/v2/account");
    await api.get("/v2/account");
    await api.post("/v2/files/mkdir", undefined, { dirname: "/logged" });
    await api.get("/v2/no-such-route");
    await api.accounts(); // control surface: not logged
    const log = await api.requests(0);
    const ops = log.requests.map((r) => r.operation);
    expect(ops).toEqual(["token", "getAccount", "getAccount", "mkdir", null]);
    const seqs = log.requests.map((r) => r.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(log.next).toBe(seqs[seqs.length - 1]);
    const mk = log.requests[3]!;
    expect(mk).toMatchObject({ method: "POST", status: 200, account: alias });
    expect(mk.path).toContain("/v2/files/mkdir");
    expect(log.requests[1]!.account).toBe(alias);
    expect(log.requests[4]!.status).toBe(404);
    // since=next → nothing new
    expect((await api.requests(log.next)).requests).toEqual([]);
    await api.get("/v2/account/users");
    await api.get("/v2/account/storage", undefined, { token: null });
    const more = await api.requests(log.next);
    expect(more.requests.map((r) => [r.operation, r.status, r.account])).toEqual([
      ["listUsers", 200, alias],
      ["getStorage", 401, null],
    ]);
  });

  it("counts requests by operation name for every operation", async () => {
    await api.clearRequests();
    const token = await api.token();
    for (const name of operationNames) {
      const { method, path } = route(name);
      const s = samples[name];
      await api.call(method, path, { query: s.query, body: s.body, token: name === "token" ? null : token });
    }
    const { requests } = await api.requests(0);
    const counts = new Map<string, number>();
    for (const r of requests) counts.set(String(r.operation), (counts.get(String(r.operation)) ?? 0) + 1);
    for (const name of operationNames) {
      // one token call above, one per sample
      expect(counts.get(name), name).toBe(name === "token" ? 2 : 1);
    }
    expect(counts.get("null")).toBeUndefined();
  });

  it("DELETE /_emulator/requests clears the log; reset clears it too", async () => {
    await api.get("/v2/account");
    expect((await api.requests(0)).requests.length).toBeGreaterThan(0);
    await api.clearRequests();
    expect((await api.requests(0)).requests).toEqual([]);
    await api.get("/v2/account");
    await api.reset();
    expect((await api.requests(0)).requests).toEqual([]);
  });
});
