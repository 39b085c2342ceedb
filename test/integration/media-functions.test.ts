// The data functions over media (provider/media-functions.ts) against the emulator over HTTP:
// signed URLs with their key kept out of every text, search paged up to 1,000 and scrolled past it,
// statistics.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MediahostClient, TokenCache } from "../../provider/client";
import { argumentsOf, dataFunctions } from "../../provider/functions";
import { putFile } from "./helpers/files";
import { type Harness, startHarness } from "./helpers/harness";

let h: Harness;
const events: unknown[] = [];
const client = () =>
  new MediahostClient({
    baseUrl: h.emulator.url,
    clientId: "demo-client",
    clientSecret: "demo-secret",
    tokenCache: new TokenCache(),
    onEvent: (e) => events.push(e),
  });

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(async () => {
  await h.emulator.control.reset();
  h.configure();
  h.mark();
  events.length = 0;
});

/** A client that never waits for a rate limit's reset. */
const limitedClient = () =>
  new MediahostClient({
    baseUrl: h.emulator.url,
    clientId: "demo-client",
    clientSecret: "demo-secret",
    tokenCache: new TokenCache(),
    maxRateLimitWaitMs: 0,
  });

const KEY = "protect-key-5e2d9a";

describe("getSignedUrl", () => {
  it("signs the URL with the key (HS256) and returns it as a secret; the key is in no text", async () => {
    await putFile(h.api(), "/private/a.jpg", "img");
    const fn = dataFunctions.getSignedUrl;
    expect(fn.secrets).toEqual(["url"]);
    const args = argumentsOf("getSignedUrl", fn, {
      path: "/private/a.jpg",
      key: KEY,
      expiresIn: 60,
      secureParams: { w: 300 },
      insecureParams: { v: "2" },
    });
    const result = (await fn.run(client(), args)) as { path: string; url: string };
    expect(result.path).toBe("/private/a.jpg");
    const url = new URL(result.url);
    expect(url.searchParams.get("v")).toBe("2");
    const [head, payload, signature] = (url.searchParams.get("jwt") ?? "").split(".");
    const expected = createHmac("sha256", KEY).update(`${head}.${payload}`).digest("base64url");
    expect(signature).toBe(expected);
    const claims = JSON.parse(Buffer.from(payload as string, "base64url").toString());
    expect(claims).toMatchObject({ aud: "/private/a.jpg", args: { w: 300 } });
    expect(claims.exp - claims.iat).toBe(60);
    expect(result.url).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it("fails naming the field, without the key, on bad arguments and on the service's refusal", async () => {
    const fn = dataFunctions.getSignedUrl;
    expect(() => argumentsOf("getSignedUrl", fn, { path: "a", key: KEY, expiresIn: 0 })).toThrow(
      'getSignedUrl: invalid arguments: path: must begin with "/"; expiresIn: must be at least 1',
    );
    let message = "";
    try {
      argumentsOf("getSignedUrl", fn, { path: "/a", key: KEY, expiresIn: 700000 });
    } catch (err) {
      message = String(err);
    }
    expect(message).toContain("expiresIn: must be at most 604800");
    expect(message).not.toContain(KEY);
    const args = argumentsOf("getSignedUrl", fn, { path: "/a.jpg", key: KEY, expiresIn: 5, alias: "nope" });
    const refused = await fn.run(client(), args).then(
      () => "",
      (err: Error) => `${err.message} ${err.stack ?? ""} ${JSON.stringify(err)}`,
    );
    expect(refused).toMatch(/nope/);
    expect(refused).not.toContain(KEY);
  });
});

describe("searchFiles", () => {
  it("returns up to `limit` hits, past 1,000 by scrolling, and makes no scroll call past the limit", async () => {
    const n = 1150;
    const api = h.api();
    for (let i = 0; i < n; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, (_, j) =>
          putFile(api, `/s/f${String(i + j).padStart(4, "0")}.txt`, "x"),
        ),
      );
    }
    const fn = dataFunctions.searchFiles;
    h.mark();
    const all = (await fn.run(
      client(),
      argumentsOf("searchFiles", fn, { query: "dirname:\\/s", sort: { "filename.raw": "asc" }, limit: 1100 }),
    )) as { total: number; files: { filename: string }[] };
    expect(all.total).toBe(n);
    expect(all.files).toHaveLength(1100);
    expect(all.files[0]?.filename).toBe("/s/f0000.txt");
    expect(all.files[1099]?.filename).toBe("/s/f1099.txt");
    expect(new Set(all.files.map((f) => f.filename)).size).toBe(1100);
    // 11 pages of 100: one search and 10 scroll calls
    expect(h.calls()).toMatchObject({ search: 1, searchScroll: 10 });

    // up to 1,000 (the default limit), pages with from/size: no scroll call
    h.mark();
    const paged = (await fn.run(
      client(),
      argumentsOf("searchFiles", fn, { query: "dirname:\\/s", sort: { "filename.raw": "asc" } }),
    )) as { files: { filename: string }[] };
    expect(paged.files.map((f) => f.filename)).toEqual(all.files.slice(0, 1000).map((f) => f.filename));
    expect(h.calls()).toEqual({ token: 1, search: 10 });

    // past 1,000, the scroll counter used up: the scroll is refused, and not sent again
    await h.emulator.control.setLimit({ counter: "rest:post:files:search:scroll", limit: 5, used: 5 });
    h.mark();
    const err = (await fn
      .run(limitedClient(), argumentsOf("searchFiles", fn, { query: "dirname:\\/s", limit: 1100 }))
      .catch((e) => e)) as Error;
    expect(err.message).toMatch(
      /searchScroll: rate limit exceeded for counter rest:post:files:search:scroll/,
    );
    expect(h.calls()).toMatchObject({ search: 1, searchScroll: 1 });

    h.mark();
    const few = (await fn.run(
      client(),
      argumentsOf("searchFiles", fn, { query: "dirname:\\/s", limit: 5 }),
    )) as {
      files: unknown[];
    };
    expect(few.files).toHaveLength(5);
    expect(h.calls().searchScroll).toBeUndefined();
    expect(() => argumentsOf("searchFiles", fn, { query: "x", limit: 0 })).toThrow(
      "limit: must be at least 1",
    );
    expect(() => argumentsOf("searchFiles", fn, { query: "x", sort: { a: "up" } })).toThrow(
      'sort.a: must be "asc" or "desc"',
    );
  }, 60_000);
});

describe("searchFiles within the rate limits", () => {
  it("below 1,000 hits, spends the search counter only, and fails naming it once used up", async () => {
    const api = h.api();
    await Promise.all(Array.from({ length: 150 }, (_, i) => putFile(api, `/r/f${i}.txt`, "x")));
    await h.emulator.control.setLimit({ counter: "rest:post:files:search", limit: 1, used: 0 });
    const fn = dataFunctions.searchFiles;
    h.mark();
    const err = (await fn
      .run(limitedClient(), argumentsOf("searchFiles", fn, { query: "dirname:\\/r", limit: 5000 }))
      .catch((e) => e)) as Error;
    expect(err.message).toMatch(/^search: rate limit exceeded for counter rest:post:files:search/);
    // the first page, then its second refused: no scroll call
    expect(h.calls()).toEqual({ token: 1, search: 2 });
    await h.emulator.control.setLimit({ counter: "rest:post:files:search", limit: 1000, used: 0 });
  });
});

describe("statistics", () => {
  it("answers storage, HTTP and traffic by day for a range, and refuses a range in the wrong order", async () => {
    await putFile(h.api(), "/st/a.txt", "hello");
    const range = { from: new Date(Date.now() - 2 * 86_400_000).toISOString(), to: new Date().toISOString() };
    const storage = (await dataFunctions.getStorageStats.run(client(), range)) as {
      days: { day: string; used: number }[];
    };
    expect(storage.days.length).toBeGreaterThan(0);
    expect(storage.days.at(-1)?.used).toBeGreaterThanOrEqual(5);
    expect(storage.days.map((d) => d.day)).toEqual([...storage.days.map((d) => d.day)].sort());
    const http = (await dataFunctions.getHttpStats.run(client(), range)) as { days: { count: number }[] };
    expect(http.days.length).toBeGreaterThanOrEqual(2);
    const traffic = (await dataFunctions.getTrafficStats.run(client(), range)) as { traffic: object };
    expect(traffic.traffic).toHaveProperty("total");
    expect(() =>
      argumentsOf("getHttpStats", dataFunctions.getHttpStats, { from: range.to, to: range.from }),
    ).toThrow("to: must not be before from");
    expect(() => argumentsOf("getHttpStats", dataFunctions.getHttpStats, { from: "yesterday" })).toThrow(
      "from: must be an ISO 8601 date-time or a date (YYYY-MM-DD)",
    );
  });

  it("takes a date alone, as the service's Magento extension sends it: the start (from) or end (to) of that day, UTC", async () => {
    await putFile(h.api(), "/st/a.txt", "hello");
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const args = argumentsOf("getHttpStats", dataFunctions.getHttpStats, { from: yesterday, to: today });
    expect(args).toEqual({ from: `${yesterday}T00:00:00.000`, to: `${today}T23:59:59.999` });
    h.mark();
    const http = (await dataFunctions.getHttpStats.run(client(), args as never)) as {
      days: { day: string }[];
    };
    // both whole days: the end of today is not before the start of yesterday
    expect(http.days.map((d) => d.day)).toEqual([`${yesterday}T00:00:00.000Z`, `${today}T00:00:00.000Z`]);
    // the service is sent a form docs/api.md#statistics documents, never the date alone
    const sent = h.emulator.control.requests().requests.filter((r) => r.operation === "getHttpStats");
    expect(sent.at(-1)?.query).toBe(`from=${yesterday}T00%3A00%3A00.000&to=${today}T23%3A59%3A59.999`);
    // one day: from and to the same date
    expect(argumentsOf("getStorageStats", dataFunctions.getStorageStats, { from: today, to: today })).toEqual(
      {
        from: `${today}T00:00:00.000`,
        to: `${today}T23:59:59.999`,
      },
    );
    expect(() =>
      argumentsOf("getHttpStats", dataFunctions.getHttpStats, { from: today, to: yesterday }),
    ).toThrow("to: must not be before from");
    expect(() => argumentsOf("getHttpStats", dataFunctions.getHttpStats, { from: "2026-13-01" })).toThrow(
      "from: must be an ISO 8601 date-time or a date (YYYY-MM-DD)",
    );
  });
});
