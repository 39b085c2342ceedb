// The client's policies against a real HTTP server on loopback, scripted per test.
import { afterEach, describe, expect, it } from "vitest";
import {
  listFolder,
  MediahostClient,
  MediahostError,
  normalizeBaseUrl,
  searchHits,
  TokenCache,
  waitForJob,
} from "../../provider/client";
import { renewTime } from "../../provider/client/tokens";
import { json, type Recorded, startServer, tokenEndpoint } from "./helpers/http-server";

const SECRET = "s3cr3t-client-value";
let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A client with its own token cache, instant backoff and recorded sleeps. */
function clientFor(url: string, extra: Partial<ConstructorParameters<typeof MediahostClient>[0]> = {}) {
  const sleeps: number[] = [];
  const client = new MediahostClient({
    baseUrl: url,
    clientId: "demo-client",
    clientSecret: SECRET,
    tokenCache: new TokenCache(),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
  return { client, sleeps };
}

const account = { alias: "demo", fetching: { enabled: false }, minify: { enabled: false }, aliases: {} };

describe("base URL", () => {
  it("refuses plain http except on loopback", () => {
    expect(() => normalizeBaseUrl("http://api.example.com")).toThrow(
      /plain http is allowed only for loopback/,
    );
    expect(normalizeBaseUrl("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080");
    expect(normalizeBaseUrl("http://localhost:1/v2")).toBe("http://localhost:1");
    expect(normalizeBaseUrl("https://api.example.com/v2/")).toBe("https://api.example.com");
    expect(() => normalizeBaseUrl("ftp://x")).toThrow(/must use https/);
  });
});

describe("input validation", () => {
  it("fails before sending anything, naming the field and the rule", async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const { client } = clientFor(server.url);
    const err = await client.ops.mkdir({ query: { dirname: "photos" } }).catch((e) => e);
    expect(err).toBeInstanceOf(MediahostError);
    expect(err.kind).toBe("invalid");
    expect(err.message).toBe('mkdir (photos): invalid input: query.dirname: must begin with "/"');
    expect(server.requests).toHaveLength(0);
  });
});

describe("raw bodies", () => {
  it("sends the simple upload's bytes as they are, with their content type, not as JSON", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      res.end();
    });
    const { client } = clientFor(server.url);
    const bytes = new TextEncoder().encode('{"a": 1}');
    await client.ops.upload({
      query: { filename: "/a.json" },
      body: { bytes, contentType: "application/json" },
    });
    await client.ops.upload({ query: { filename: "/b.bin" }, body: { bytes: new Uint8Array([1, 2]) } });
    const [json, bin] = server.requests.filter((r) => r.path === "/v2/files/upload");
    expect(json?.body).toBe('{"a": 1}');
    expect(json?.headers["content-type"]).toBe("application/json");
    expect(bin?.headers["content-type"]).toBe("application/octet-stream");
    expect(bin?.headers["content-length"]).toBe("2");
  });
});

describe("the time of an answer", () => {
  it("callDated tells the Date of the answer that completed the call, after a retry too", async () => {
    const state = { issued: 0 };
    let uploads = 0;
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      // Node's server sends a Date of its own; these name one of their own
      if (++uploads === 1) {
        res.writeHead(503, { date: "Thu, 26 Nov 2026 10:00:00 GMT" });
        res.end("busy");
        return;
      }
      res.writeHead(200, { date: "Thu, 26 Nov 2026 10:00:07 GMT" });
      res.end();
    });
    const { client } = clientFor(server.url);
    const { answeredAt } = await client.callDated("upload", {
      query: { filename: "/a.txt" },
      body: { bytes: new Uint8Array([1]) },
    });
    expect(uploads).toBe(2);
    expect(answeredAt?.toISOString()).toBe("2026-11-26T10:00:07.000Z");
  });

  it("callDated tells nothing when the answer names no time", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      res.sendDate = false;
      res.end();
    });
    const { client } = clientFor(server.url);
    const { answeredAt } = await client.callDated("upload", {
      query: { filename: "/a.txt" },
      body: { bytes: new Uint8Array([1]) },
    });
    expect(answeredAt).toBeUndefined();
  });
});

describe("tokens", () => {
  it("mints one token for many concurrent callers and sends it as a bearer token", async () => {
    const state = { issued: 0 };
    server = await startServer(async (req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, account);
    });
    const { client } = clientFor(server.url);
    await Promise.all(Array.from({ length: 20 }, () => client.ops.getAccount()));
    expect(state.issued).toBe(1);
    const gets = server.requests.filter((r) => r.path === "/v2/account");
    expect(gets).toHaveLength(20);
    expect(new Set(gets.map((r) => r.headers.authorization))).toEqual(new Set(["Bearer tok-1"]));
    const tokenBody = JSON.parse(server.requests[0]!.body);
    expect(tokenBody).toEqual({ clientId: "demo-client", clientSecret: SECRET });
  });

  it("shares a token between clients of the same account through the cache", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, account);
    });
    const cache = new TokenCache();
    await clientFor(server.url, { tokenCache: cache }).client.ops.getAccount();
    await clientFor(server.url, { tokenCache: cache }).client.ops.getAccount();
    expect(state.issued).toBe(1);
  });

  it("re-mints once on 401 and retries the call", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (req.headers.authorization === "Bearer tok-1")
        return json(res, 401, { message: "Missing authentication" });
      json(res, 200, account);
    });
    const { client } = clientFor(server.url);
    await expect(client.ops.getAccount()).resolves.toMatchObject({ alias: "demo" });
    expect(state.issued).toBe(2);
  });

  it("gives up after the second 401 with the service's message", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 401, { message: "Missing authentication" });
    });
    const { client } = clientFor(server.url);
    const err = await client.ops.getAccount().catch((e) => e);
    expect(err.message).toBe("getAccount: HTTP 401: Missing authentication");
    expect(state.issued).toBe(2);
  });

  it("renews shortly before expiry", async () => {
    expect(renewTime(0, 1200)).toBe(1_170_000); // 30 s margin on a 20-minute token
    expect(renewTime(0, 5)).toBe(4_000); // a fifth of a 5-second token
    const cache = new TokenCache();
    let minted = 0;
    const mint = async () => ({ token: `t${++minted}`, renewAt: 1_000 });
    expect(await cache.get("k", mint, 0)).toBe("t1");
    expect(await cache.get("k", mint, 999)).toBe("t1");
    expect(await cache.get("k", mint, 1_000)).toBe("t2");
  });

  it("reports wrong credentials without the secret", async () => {
    server = await startServer((_req, res) => json(res, 401, { message: `invalid client secret ${SECRET}` }));
    const { client } = clientFor(server.url);
    const err = await client.ops.getAccount().catch((e) => e);
    expect(err.message).toBe("token: HTTP 401: invalid client secret [redacted]");
    expect(JSON.stringify(err)).not.toContain(SECRET);
  });
});

describe("rate limits", () => {
  function limited(resetInSeconds: number) {
    const state = { issued: 0, limited: 0 };
    return {
      state,
      handler: (req: Recorded, res: import("node:http").ServerResponse) => {
        if (tokenEndpoint(req, res, state)) return;
        if (state.limited === 0) {
          state.limited++;
          const reset = Math.ceil(Date.now() / 1000) + resetInSeconds;
          return json(
            res,
            429,
            { statusCode: 429, error: "Too Many Requests", message: "rate limit exceeded" },
            {
              "x-ratelimit-limit": "50",
              "x-ratelimit-remaining": "0",
              "x-ratelimit-reset": String(reset),
              "x-ratelimit-type": "rest:post:account",
            },
          );
        }
        res.writeHead(200, {
          "x-ratelimit-limit": "50",
          "x-ratelimit-remaining": "49",
          "x-ratelimit-reset": "1",
          "x-ratelimit-type": "rest:post:account",
        });
        res.end();
      },
    };
  }

  it("waits for the reset when it is within the bound, then succeeds", async () => {
    const { handler } = limited(2);
    server = await startServer(handler);
    const { client, sleeps } = clientFor(server.url, { maxRateLimitWaitMs: 10_000 });
    await expect(client.ops.updateAccount({ body: { minify: { enabled: true } } })).resolves.toBeUndefined();
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(1_000);
    expect(sleeps[0]).toBeLessThan(3_600);
    expect(client.stats.rateLimitWaits).toBe(1);
    expect(client.counters.get("rest:post:account")).toMatchObject({ limit: 50, remaining: 49 });
  });

  it("fails naming the counter and the reset time when the reset is too far", async () => {
    const { handler } = limited(3600);
    server = await startServer(handler);
    const { client, sleeps } = clientFor(server.url, { maxRateLimitWaitMs: 10_000 });
    const err = await client.ops.updateAccount({ body: { minify: { enabled: true } } }).catch((e) => e);
    expect(err.kind).toBe("rateLimited");
    expect(err.counter).toBe("rest:post:account");
    expect(err.resetAt.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(err.message).toMatch(
      /rate limit exceeded for counter rest:post:account; it resets at \d{4}-\d{2}-\d{2}T/,
    );
    expect(sleeps).toHaveLength(0);
  });

  it("reads the global counter from both header variants", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      const variant: Record<string, string> =
        req.path === "/v2/account"
          ? {
              "x-global-ratelimit-limit": "7000",
              "x-global-ratelimit-remaining": "6990",
              "x-global-ratelimit-reset": "100",
            }
          : {
              "x-ratelimit-limit": "7000",
              "x-ratelimit-remaining": "6980",
              "x-ratelimit-reset": "200",
              "x-ratelimit-type": "rest:global",
            };
      json(
        res,
        200,
        req.path === "/v2/account"
          ? account
          : { plan: 1, burstable: 0, extra: 0, used: 0, files: 0, quotaExceededDate: null },
        variant,
      );
    });
    const { client } = clientFor(server.url);
    await client.ops.getAccount();
    expect(client.counters.get("rest:global")).toMatchObject({ limit: 7000, remaining: 6990, reset: 100 });
    await client.ops.getStorage();
    expect(client.counters.get("rest:global")).toMatchObject({ remaining: 6980, reset: 200 });
  });
});

describe("retries", () => {
  it("retries an idempotent call on 5xx with growing, jittered delays", async () => {
    const state = { issued: 0, failures: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (state.failures < 3) {
        state.failures++;
        return json(res, state.failures === 2 ? 500 : 503, { message: "busy" });
      }
      json(res, 200, account);
    });
    const { client, sleeps } = clientFor(server.url, { backoff: { baseMs: 100, maxMs: 1_000 } });
    await expect(client.ops.getAccount()).resolves.toMatchObject({ alias: "demo" });
    expect(sleeps).toEqual([75, 150, 300]); // random() = 0.5: in [c/2, c] of c = 100, 200, 400
    expect(client.stats.retries).toBe(3);
  });

  it("without a Retry-After, the backoff waits out several seconds before the attempts run out", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 503, { message: "Service Unavailable" });
    });
    // the least the jitter can make of it: random() = 0
    const { client, sleeps } = clientFor(server.url, { random: () => 0 });
    const err = await client.ops.getAccount().catch((e) => e);
    expect(err.message).toBe("getAccount: HTTP 503: Service Unavailable");
    expect(server.calls("/v2/account")).toBe(10);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10_000);
  });

  it("waits what a 503's Retry-After asks (seconds), and repeats even a call that must not be repeated", async () => {
    const state = { issued: 0, refused: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      // a maintenance window: the service refuses the call and says when to come back
      if (state.refused++ < 2) return json(res, 503, { message: "maintenance" }, { "retry-after": "4" });
      json(res, 200, { id: "job-1" });
    });
    const { client, sleeps } = clientFor(server.url, { random: () => 0 });
    await expect(client.ops.startZip({ body: { filenames: ["/a"] } })).resolves.toEqual({ id: "job-1" });
    expect(sleeps).toEqual([4_000, 4_000]);
    expect(server.calls("/v2/files/zip")).toBe(3);
  });

  it("waits until the HTTP date a Retry-After names", async () => {
    const state = { issued: 0, refused: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (state.refused++ === 0) {
        const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 6_000).toUTCString();
        return json(res, 503, { message: "maintenance" }, { "retry-after": at });
      }
      json(res, 200, account);
    });
    const { client, sleeps } = clientFor(server.url, { random: () => 0 });
    await expect(client.ops.getAccount()).resolves.toMatchObject({ alias: "demo" });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(4_500);
    expect(sleeps[0]).toBeLessThanOrEqual(7_000);
  });

  it("waits what a 429's Retry-After asks when no counter header says", async () => {
    const state = { issued: 0, limited: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (state.limited++ === 0)
        return json(res, 429, { message: "Too Many Requests" }, { "retry-after": "3" });
      json(res, 200, account);
    });
    const { client, sleeps } = clientFor(server.url, { random: () => 0 });
    await expect(client.ops.getAccount()).resolves.toMatchObject({ alias: "demo" });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(3_000);
    expect(sleeps[0]).toBeLessThan(4_000);
    expect(client.stats.rateLimitWaits).toBe(1);
  });

  it("fails at once, saying so, when the Retry-After is past the operation's deadline", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 503, { message: "maintenance" }, { "retry-after": "120" });
    });
    const { client, sleeps } = clientFor(server.url);
    const err = await client.ops.getAccount().catch((e) => e);
    expect(err.message).toMatch(
      /^getAccount: HTTP 503: maintenance; it asks to retry after 120 s, past the operation's deadline \([\d.]+ s left of mediahost:operationTimeoutSeconds, 30 s\)$/,
    );
    expect(sleeps).toEqual([]);
    expect(server.calls("/v2/account")).toBe(1);
  });

  it("a 5xx without a Retry-After on a call that must not be repeated still fails as unsure", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 503, { message: "busy" });
    });
    const { client } = clientFor(server.url);
    await expect(client.ops.startZip({ body: { filenames: ["/a"] } })).rejects.toThrow(
      "startZip: may have been applied (HTTP 503: busy): check whether a ZIP job started",
    );
    expect(server.calls("/v2/files/zip")).toBe(1);
  });

  it("stops after maxAttempts with the last status", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 503, { message: "Service Unavailable" });
    });
    const { client } = clientFor(server.url, { maxAttempts: 3 });
    const err = await client.ops.getAccount().catch((e) => e);
    expect(err.message).toBe("getAccount: HTTP 503: Service Unavailable");
    expect(server.calls("/v2/account")).toBe(3);
  });

  it("does not retry a call that must not be repeated", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 500, { message: "boom" });
    });
    const { client } = clientFor(server.url);
    // a 500 may come after the job started: a repeat could start a second one
    await expect(client.ops.startZip({ body: { filenames: ["/a"] } })).rejects.toThrow(
      "startZip: may have been applied (HTTP 500: boom): check whether a ZIP job started (its effects), before starting it again",
    );
    expect(server.calls("/v2/files/zip")).toBe(1);
  });

  it("treats 'exists' after a lost mkdir answer as success, not an error", async () => {
    const state = { issued: 0, created: false };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (!state.created) {
        state.created = true; // applied, then the answer is lost
        res.socket?.destroy();
        return;
      }
      json(res, 409, { name: "PathExists", message: `Path already exists: ${req.query.get("dirname")}` });
    });
    const { client } = clientFor(server.url);
    await expect(client.ops.mkdir({ query: { dirname: "/photos" } })).resolves.toBeUndefined();
    expect(server.calls("/v2/files/mkdir")).toBe(2);
  });

  it("still reports 'exists' when the folder was there before the first attempt", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 409, { name: "PathExists", message: "Path already exists: /photos" });
    });
    const { client } = clientFor(server.url);
    const err = await client.ops.mkdir({ query: { dirname: "/photos" } }).catch((e) => e);
    expect(err.message).toBe("mkdir (/photos): HTTP 409: Path already exists: /photos");
    expect(err.isConflictExists).toBe(true);
  });

  it("returns the sub-account after a lost creation answer", async () => {
    const state = { issued: 0, n: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (state.n++ === 0) return void res.socket?.destroy();
      json(res, 409, { statusCode: 409, error: "Conflict", message: "Sub-account already exists: shop" });
    });
    const { client } = clientFor(server.url);
    await expect(client.ops.createSubAccount({ body: { alias: "shop" } })).resolves.toEqual({
      alias: "shop",
    });
  });

  it("gives a network error after the attempts when nothing answers", async () => {
    server = await startServer((_req, res) => void res.socket?.destroy());
    const { client } = clientFor(server.url, { maxAttempts: 2 });
    const err = await client.ops.getAccount().catch((e) => e);
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/^token: no answer from the service after 2 attempt\(s\)/);
  });
});

describe("errors and headers", () => {
  it("carries operation, status, the service message (message, error, then name) and the subject", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      if (req.path === "/v2/files/stat")
        return json(res, 404, { name: "NotFound", message: "No such file or directory: /x" });
      if (req.path === "/v2/files/delete") return json(res, 409, { name: "DirectoryNotEmpty" });
      json(res, 400, { statusCode: 400, error: "Bad Request" });
    });
    const { client } = clientFor(server.url);
    const stat = await client.ops.stat({ query: { filename: "/x" } }).catch((e) => e);
    expect(stat).toMatchObject({
      operation: "stat",
      status: 404,
      subject: "/x",
      serviceMessage: "No such file or directory: /x",
    });
    const del = await client.ops.deleteFile({ query: { filename: "/d" } }).catch((e) => e);
    expect(del.message).toBe("deleteFile (/d): HTTP 409: DirectoryNotEmpty");
    const acc = await client.ops.getAccount().catch((e) => e);
    expect(acc.message).toBe("getAccount: HTTP 400: Bad Request");
  });

  it("never puts the token or a body secret into an error", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 400, { message: `bad request ${req.body} with ${req.headers.authorization}` });
    });
    const { client } = clientFor(server.url, { maxAttempts: 1 });
    const password = "fetch-password-123";
    const err = await client.ops
      .updateAccount({
        body: {
          fetching: {
            enabled: true,
            type: "http",
            http: { url: "https://o.example", auth: { enabled: true, username: "u", password } },
          },
        },
      })
      .catch((e) => e);
    expect(err.message).toContain("[redacted]");
    expect(err.message).not.toContain(password);
    expect(err.message).not.toContain("tok-1");
  });

  it("sends its User-Agent", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, account);
    });
    await clientFor(server.url).client.ops.getAccount();
    expect(server.requests[1]!.headers["user-agent"]).toMatch(/^pulumi-mediahost\/\d+\.\d+\.\d+$/);
  });

  it("rejects a response that lacks a field the provider reads, naming it", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, { contents: [{ filename: "a" }] });
    });
    const err = await clientFor(server.url)
      .client.ops.readdir({ query: { dirname: "/" } })
      .catch((e) => e);
    expect(err.kind).toBe("response");
    expect(err.message).toMatch(
      /^readdir \(\/\): unexpected response from the service: contents\.0\.isDirectory: Invalid input: expected boolean, received undefined$/,
    );
  });
});

describe("helpers", () => {
  it("lists a folder across pages by following continuation", async () => {
    const state = { issued: 0 };
    const entry = (n: number) => ({
      filename: `f${n}`,
      mtime: "2026-01-01T00:00:00Z",
      size: 1,
      isDirectory: false,
      meta: {},
    });
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      const page = Number(req.query.get("continuation") ?? 0);
      json(res, 200, {
        contents: Array.from({ length: page < 2 ? 100 : 30 }, (_, i) => entry(page * 100 + i)),
        ...(page < 2 ? { continuation: String(page + 1) } : {}),
      });
    });
    const names: string[] = [];
    for await (const e of listFolder(clientFor(server.url).client, "/big")) names.push(e.filename);
    expect(names).toHaveLength(230);
    expect(names[229]).toBe("f229");
    expect(server.calls("/v2/files/readdir")).toBe(3);
  });

  /** A search service of `total` hits: pages by from/size, scrolls by a cursor; the first answer of `lose` is lost. */
  function searchService(total: number, lose?: { from: number }) {
    const state = { issued: 0, lost: false };
    const hit = (n: number) => ({
      _index: "files",
      _type: "_doc",
      _id: `h${n}`,
      _score: 1,
      _source: {
        accountId: "demo",
        filename: `/a/f${n}.jpg`,
        dirname: "/a",
        basename: `f${n}.jpg`,
        extension: ".jpg",
        id: `h${n}`,
        ctime: "t",
        mtime: "t",
        size: 1,
      },
    });
    const page = (from: number, size: number) =>
      Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => hit(from + i));
    return async (req: Recorded, res: import("node:http").ServerResponse) => {
      if (tokenEndpoint(req, res, state)) return;
      const body = JSON.parse(req.body) as {
        from?: number;
        size: number;
        scroll?: boolean;
        scrollId?: string;
      };
      if (lose && body.from === lose.from && !state.lost) {
        state.lost = true;
        return void res.socket?.destroy();
      }
      if (req.path === "/v2/files/search/scroll") {
        const [from, size] = String(body.scrollId).split(":").map(Number) as [number, number];
        const next = from + size < total ? { scrollId: `${from + size}:${size}` } : {};
        return json(res, 200, { hits: page(from, size), total, ...next });
      }
      const from = body.from ?? 0;
      const next =
        body.scroll && from + body.size < total ? { scrollId: `${from + body.size}:${body.size}` } : {};
      json(res, 200, { hits: page(from, body.size), total, ...next });
    };
  }
  const perCounter = (requests: Recorded[]) => ({
    search: requests.filter((r) => r.path === "/v2/files/search").length,
    scroll: requests.filter((r) => r.path === "/v2/files/search/scroll").length,
  });

  it("pages a search below 1,000 hits with from/size, and repeats a page whose answer was lost", async () => {
    server = await startServer(searchService(250, { from: 100 }));
    const { total, hits } = await searchHits(clientFor(server.url).client, { query: "jpg" }, 1000);
    expect(total).toBe(250);
    expect(hits.map((h) => h._source.filename)).toEqual(
      Array.from({ length: 250 }, (_, i) => `/a/f${i}.jpg`),
    );
    const bodies = server.requests
      .filter((r) => r.path === "/v2/files/search")
      .map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      { query: "jpg", size: 100 },
      { query: "jpg", size: 100, from: 100 }, // lost, and repeated
      { query: "jpg", size: 100, from: 100 },
      { query: "jpg", size: 50, from: 200 },
    ]);
    expect(perCounter(server.requests)).toEqual({ search: 4, scroll: 0 });
  });

  it("a limit past 1,000 on fewer hits asks for a scroll once, and pages all the same", async () => {
    server = await startServer(searchService(250));
    const { hits } = await searchHits(clientFor(server.url).client, { query: "jpg" }, 5000);
    expect(hits).toHaveLength(250);
    expect(JSON.parse(server.requests.find((r) => r.path === "/v2/files/search")?.body ?? "")).toEqual({
      query: "jpg",
      size: 100,
      scroll: true,
    });
    expect(perCounter(server.requests)).toEqual({ search: 3, scroll: 0 });
  });

  it("scrolls only when both the limit and the hits pass 1,000, and stops at the limit", async () => {
    server = await startServer(searchService(1150));
    const { total, hits } = await searchHits(clientFor(server.url).client, { query: "jpg" }, 1100);
    expect(total).toBe(1150);
    expect(hits.map((h) => h._source.filename)).toEqual(
      Array.from({ length: 1100 }, (_, i) => `/a/f${i}.jpg`),
    );
    expect(perCounter(server.requests)).toEqual({ search: 1, scroll: 10 });
  });

  it("with the limit at 1,000 and more hits, pages the first 1,000 and never scrolls", async () => {
    server = await startServer(searchService(1150));
    const { hits } = await searchHits(clientFor(server.url).client, { query: "jpg" }, 1000);
    expect(hits).toHaveLength(1000);
    expect(perCounter(server.requests)).toEqual({ search: 10, scroll: 0 });
  });

  it("polls a job until done and reports progress", async () => {
    const state = { issued: 0, polls: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      state.polls++;
      json(res, 200, {
        progress: Math.min(100, state.polls * 40),
        result: state.polls >= 3 ? [{ filename: "a.zip", size: 1, url: "u" }] : undefined,
      });
    });
    const seen: number[] = [];
    const { client } = clientFor(server.url);
    const done = await waitForJob(client, "zip", "j1", {
      onProgress: (s) => seen.push(s.progress),
      sleep: async () => {},
    });
    expect(seen).toEqual([40, 80, 100]);
    expect(done.result).toHaveLength(1);
  });
});

describe("deadlines", () => {
  it("a service that accepts connections and never answers fails within the deadline, naming host, operation and time", async () => {
    server = await startServer(() => {
      // never answers
    });
    const { client } = clientFor(server.url, { deadlineMs: 1_200, attemptTimeoutMs: 400, sleep: undefined });
    const started = Date.now();
    const err = (await client.ops.getAccount().catch((e) => e)) as MediahostError;
    const waited = Date.now() - started;
    expect(err.kind).toBe("timeout");
    // the token request is the first to hang: its deadline and the operation's end together
    expect(err.message).toMatch(
      /^(token|getAccount): no answer from 127\.0\.0\.1:\d+ within 1\.\d s \((\d attempts?|waiting for a token); the deadline is mediahost:operationTimeoutSeconds, 1\.2 s\)$/,
    );
    expect(waited).toBeGreaterThanOrEqual(1_100);
    expect(waited).toBeLessThan(2_500);
  });

  it("the deadline is the whole operation's: a token minted again after a 401 counts against it", async () => {
    let tokens = 0;
    server = await startServer(async (req, res) => {
      if (req.path === "/v2/token") {
        // the first token is given at once; the one minted after the 401 never comes
        if (++tokens === 1) json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
      json(res, 401, { message: "Token revoked" });
    });
    const { client } = clientFor(server.url, {
      deadlineMs: 1_200,
      attemptTimeoutMs: 1_000,
      sleep: undefined,
    });
    const started = Date.now();
    const err = (await client.ops.getAccount().catch((e) => e)) as MediahostError;
    expect(err.kind).toBe("timeout");
    expect(err.message).toMatch(/^getAccount: no answer from 127\.0\.0\.1:\d+ within 1\.\d s/);
    // not 0.5 s and then a deadline of the new token's own (1.7 s)
    expect(Date.now() - started).toBeLessThan(1_550);
  });

  it("a body that trickles in forever is bounded by the deadline too", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"alias":"demo"');
      const drip = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(drip));
    });
    const { client } = clientFor(server.url, { deadlineMs: 1_000, attemptTimeoutMs: 400, sleep: undefined });
    const started = Date.now();
    const err = (await client.ops.getAccount().catch((e) => e)) as MediahostError;
    expect(err.kind).toBe("timeout");
    expect(err.message).toMatch(/^getAccount: no answer from 127\.0\.0\.1:\d+ within 1(\.\d)? s/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("errors that arrive as success", () => {
  it("reads an error body under HTTP 200 as the error it names (mkdir of an existing path)", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, { name: "RiakFsError", message: "Path already exists: /a" });
    });
    const { client } = clientFor(server.url);
    const err = (await client.ops.mkdir({ query: { dirname: "/a" } }).catch((e) => e)) as MediahostError;
    expect(err).toBeInstanceOf(MediahostError);
    expect(err.status).toBe(200);
    expect(err.serviceName).toBe("RiakFsError");
    expect(err.isConflictExists).toBe(true);
    expect(err.message).toBe("mkdir (/a): HTTP 200: Path already exists: /a");
  });

  it("an error body saying a path does not exist is not a conflict, whatever its wording", async () => {
    const state = { issued: 0 };
    const messages = ["Parent does not exist: /a", "Path doesn't exist: /a", "No such file or directory: /a"];
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, { name: "RiakFsError", message: messages[Number(req.query.get("dirname")?.slice(2))] });
    });
    const { client } = clientFor(server.url);
    for (const [i, message] of messages.entries()) {
      const err = (await client.ops
        .mkdir({ query: { dirname: `/a${i}` } })
        .catch((e) => e)) as MediahostError;
      expect(err.serviceMessage, message).toBe(message);
      expect(err.isConflictExists, message).toBe(false);
    }
  });

  it("a lost mkdir answer whose retry says (under 200) the path exists counts as done", async () => {
    const state = { issued: 0, mkdirs: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      state.mkdirs++;
      if (state.mkdirs === 1) return void res.socket?.destroy();
      json(res, 200, { name: "RiakFsError", message: "Path already exists: /a" });
    });
    const { client } = clientFor(server.url);
    await expect(client.ops.mkdir({ query: { dirname: "/a" } })).resolves.toBe(undefined);
    expect(state.mkdirs).toBe(2);
  });

  it("a JSON answer that has a name and a message is data, where the operation answers JSON", async () => {
    const state = { issued: 0 };
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, [{ userId: "u", role: "owner", name: "x", message: "y" }]);
    });
    const { client } = clientFor(server.url);
    expect(await client.ops.listUsers()).toHaveLength(1);
  });
});

describe("jobs", () => {
  it("a failed job is a job error, not an HTTP error; one that never ends is a timeout", async () => {
    const state = { issued: 0 };
    let progress = { progress: 100, status: "failed", error: "disk on fire" } as Record<string, unknown>;
    server = await startServer((req, res) => {
      if (tokenEndpoint(req, res, state)) return;
      json(res, 200, progress);
    });
    const { client } = clientFor(server.url);
    const failed = (await waitForJob(client, "zip", "j1").catch((e) => e)) as MediahostError;
    expect(failed.kind).toBe("job");
    expect(failed.status).toBeUndefined();
    expect(failed.message).toBe("getZipJob (job j1): the job failed: disk on fire");
    progress = { progress: 10 };
    const slow = (await waitForJob(client, "zip", "j2", { timeoutMs: 300, intervalMs: 100 }).catch(
      (e) => e,
    )) as MediahostError;
    expect(slow.kind).toBe("timeout");
    expect(slow.message).toMatch(/^getZipJob \(job j2\): job not finished after 0 s \(progress 10\)$/);
  });
});
