// docs/api.md: the last shapes the service's documentation shows that the emulator now answers —
// a fetch attempt's `date` and `headers.result` ({version, code, reason}), an event's
// `fetching.contentLength` as a string, and a spin view's `user_agent_parsed` fields as strings
// with `event.data` {rows, columns, viewerSize}. Each answer also parses with the shared
// contract's schema (contract/schemas.ts).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { schemas } from "mediahost-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const { EventRecord, FetchResult, SpinViews } = schemas;

import { type Client, type Emulator, setup } from "./helpers/emulator";
import { type Origin, PNG_1X1, putFile, startOrigin } from "./helpers/files";

let emu: Emulator;
let api: Client;
let origin: Origin;

beforeAll(async () => {
  ({ emu, api } = await setup());
  origin = await startOrigin();
});
afterAll(async () => {
  await emu?.stop();
  await origin?.close();
});

const isoDate = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe("POST /v2/files/fetch: attempts", () => {
  it("carry `date` and `headers.result` with the remote's status line, beside its headers", async () => {
    const good = origin.serve("/shapes/pic.png", PNG_1X1, { contentType: "image/png" });
    const r = await api.post("/v2/files/fetch", [
      { url: good, filename: "/shapes/pic.png" },
      { url: `${origin.url}/shapes/none.png`, filename: "/shapes/none.png" },
      { url: "http://127.0.0.1:9/refused.png", filename: "/shapes/refused.png" },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(FetchResult.safeParse(r.body).error).toBeUndefined();
    const [ok, missing, refused] = r.body.map((item: { attempts: unknown[] }) => item.attempts[0]);
    expect(ok.date).toMatch(isoDate);
    expect(Date.parse(ok.date)).toBeGreaterThanOrEqual(Date.parse(ok.initiator.date));
    expect(ok.headers.result).toEqual({ version: "HTTP/1.1", code: 200, reason: "OK" });
    expect(ok.headers["content-type"]).toBe("image/png");
    expect(ok.headers["content-length"]).toBe(String(PNG_1X1.length));
    expect(missing.headers.result).toEqual({ version: "HTTP/1.1", code: 404, reason: "Not Found" });
    expect(missing.date).toMatch(isoDate);
    // nothing answered: no status line, no headers
    expect(refused.headers).toEqual({});
    expect(refused.statusCode).toBeNull();
    expect(refused.date).toMatch(isoDate);
  });
});

describe("POST /v2/account/events/search: fetch events", () => {
  it('`fetching.contentLength` is a string: the length the remote announced, or "0"', async () => {
    const r = await api.post("/v2/account/events/search", { module: "fetching" });
    expect(r.status, r.text).toBe(200);
    for (const event of r.body) expect(EventRecord.safeParse(event).error).toBeUndefined();
    const byUrl = Object.fromEntries(
      r.body.map((e: { fetching: { url: string } }) => [e.fetching.url, e.fetching]),
    );
    // the same as the attempt's answer headers say (this origin sends its 404 without a length)
    const again = await api.post("/v2/files/fetch", [
      { url: `${origin.url}/shapes/none.png`, filename: "/shapes/none.png" },
    ]);
    const announced = again.body[0].attempts[0].headers["content-length"];
    expect(byUrl[`${origin.url}/shapes/none.png`]).toMatchObject({
      statusCode: 404,
      contentLength: announced ?? "0",
    });
    expect(byUrl["http://127.0.0.1:9/refused.png"]).toMatchObject({ statusCode: null, contentLength: "0" });
  });

  it("a remote that announces a length: `contentLength` is that length, as a string", async () => {
    const busy = createServer((_req, res) => {
      res.writeHead(503, { "content-type": "text/plain", "content-length": "5" }).end("busy!");
    });
    await new Promise<void>((done) => busy.listen(0, "127.0.0.1", done));
    try {
      const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/busy.png`;
      const r = await api.post("/v2/files/fetch", [{ url, filename: "/shapes/busy.png" }]);
      expect(r.body[0].attempts[0].headers.result).toEqual({
        version: "HTTP/1.1",
        code: 503,
        reason: "Service Unavailable",
      });
      const events = await api.post("/v2/account/events/search", { module: "fetching" });
      const event = events.body.find((e: { fetching: { url: string } }) => e.fetching.url === url);
      expect(event.fetching).toMatchObject({ statusCode: 503, contentLength: "5" });
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });
});

describe("GET /v2/stats/spins/views", () => {
  it("`user_agent_parsed` fields are strings; `event.data` has rows, columns and viewerSize", async () => {
    // a spin: its folder's images are the frames (1x1 pixels each)
    await putFile(api, origin, "/spin/shoe/01.png", PNG_1X1, "image/png");
    await putFile(api, origin, "/spin/shoe/02.png", PNG_1X1, "image/png");
    await putFile(api, origin, "/spin/shoe/03.png", PNG_1X1, "image/png");
    await putFile(api, origin, "/spin/shoe/shoe.spin", "{}", "application/json");
    const alias = (await api.get("/v2/account")).body.alias;
    const chrome =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36";
    const view = await fetch(new URL(`/cdn/${alias}/spin/shoe/shoe.spin`, api.url), {
      headers: { "user-agent": chrome, referer: "https://shop.example.com/p/1" },
    });
    expect(view.status).toBe(200);
    const other = await fetch(new URL(`/cdn/${alias}/spin/shoe/shoe.spin`, api.url), {
      headers: { "user-agent": "curl/8.5.0" },
    });
    expect(other.status).toBe(200);

    const r = await api.get("/v2/stats/spins/views");
    expect(r.status, r.text).toBe(200);
    expect(SpinViews.safeParse(r.body).error).toBeUndefined();
    const [first, second] = r.body;
    expect(first.user_agent_parsed).toEqual({
      name: "Chrome",
      os: "Windows 10",
      os_name: "Windows",
      os_major: "10",
      device: "Other",
      major: "120",
      minor: "0",
      patch: "6099",
      build: "109",
    });
    expect(first.event).toEqual({
      origin: "/spin/shoe/shoe.spin",
      type: "spin",
      name: "viewerReady",
      data: { rows: 1, columns: 3, viewerSize: { width: 1, height: 1 } },
    });
    for (const v of Object.values(second.user_agent_parsed)) expect(v).toBeTypeOf("string");
    expect(second.user_agent_parsed).toMatchObject({ name: "Other", os: "Other", major: "" });
  });
});
