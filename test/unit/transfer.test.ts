// Large uploads go through tus-js-client, outside the client's own request loop: a tus request
// refused by the upload counter must still wait for the counter's reset when it is near, then
// continue, as every other call does. A scripted tus server on loopback makes the order exact.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MediahostClient, TokenCache } from "../../provider/client";
import { SIMPLE_UPLOAD_MAX, upload } from "../../provider/client/transfer";
import { json, startServer } from "./helpers/http-server";

let cache: string;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), "mediahost-transfer-"));
  process.env.XDG_CACHE_HOME = cache; // where tus-js-client keeps unfinished uploads
});
afterAll(() => rm(cache, { recursive: true, force: true }));

describe("a tus upload and the upload counter", () => {
  it("waits for a near reset, then uploads, logging progress; the wait is reported like any other", async () => {
    const size = SIMPLE_UPLOAD_MAX + 1;
    let creates = 0;
    let received = 0;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token") return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      if (req.path === "/v2/files/tus/locations") return json(res, 200, ["local"]);
      if (req.path === "/v2/files/tus/url")
        return json(res, 200, { url: `${server.url}/tus?token=link-secret` });
      if (req.method === "POST" && req.path === "/tus") {
        creates++;
        if (creates === 1) {
          const reset = Math.ceil(Date.now() / 1000) + 1;
          return json(
            res,
            429,
            { message: "rate limit exceeded for rest:post:files:upload" },
            {
              "x-ratelimit-limit": "1",
              "x-ratelimit-remaining": "0",
              "x-ratelimit-reset": String(reset),
              "x-ratelimit-type": "rest:post:files:upload",
            },
          );
        }
        res.writeHead(201, { location: `${server.url}/tus/u1`, "tus-resumable": "1.0.0" });
        return void res.end();
      }
      if (req.method === "PATCH" && req.path === "/tus/u1") {
        received += Buffer.byteLength(req.body, "latin1");
        res.writeHead(204, { "upload-offset": String(received), "tus-resumable": "1.0.0" });
        return void res.end();
      }
      json(res, 404, { message: `unexpected ${req.method} ${req.path}` });
    });
    const events: string[] = [];
    const client = new MediahostClient({
      baseUrl: server.url,
      clientId: "c",
      clientSecret: "client-secret-0001",
      tokenCache: new TokenCache(),
      maxRateLimitWaitMs: 5_000,
      onEvent: (e) => void (e.type === "rateLimitWait" && events.push(`${e.operation} ${e.counter}`)),
    });
    try {
      const progress: string[] = [];
      await upload(
        client,
        "/big.bin",
        { bytes: new Uint8Array(size).fill(7) },
        { fingerprint: "f1", progress: (line) => progress.push(line) },
      );
      expect(creates).toBe(2);
      expect(received).toBe(size);
      expect(events).toEqual(["tusUpload rest:post:files:upload"]);
      // progress in tenths, each once, ending at 100%
      expect(progress.at(-1)).toBe(`uploading /big.bin: 100% of ${size} bytes`);
      expect(new Set(progress).size).toBe(progress.length);
    } finally {
      await server.close();
    }
  });
});
