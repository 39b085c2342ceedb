// The HTTP transport (provider/client/http.ts) against a real server on loopback: what the client
// relies on from it — one kept-alive connection, bodies that arrive with their length whatever the
// method, its two timeouts, aborts, and the errors that tell whether a request was never sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { send } from "../../provider/client/http";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<URL> {
  server = createServer(handler);
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/x`);
}

const TIMEOUTS = { headersTimeout: 2_000, bodyTimeout: 2_000 };

describe("the HTTP transport", () => {
  it("sends requests one after another over one kept-alive connection", async () => {
    const url = await serve((_req, res) => res.end("ok"));
    let connections = 0;
    server?.on("connection", () => connections++);
    for (let i = 0; i < 5; i++) {
      const response = await send(url, { method: "GET", headers: {}, ...TIMEOUTS });
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe("ok");
    }
    expect(connections).toBe(1);
  });

  it("sends a body with its length for every method, DELETE included", async () => {
    const seen: { method?: string; length?: string; body: string }[] = [];
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ method: req.method, length: req.headers["content-length"], body });
        res.end();
      });
    });
    for (const method of ["DELETE", "POST", "PUT"]) {
      const response = await send(url, { method, headers: {}, body: '{"tags":["ä"]}', ...TIMEOUTS });
      await response.body.text();
    }
    const bytes = await send(url, {
      method: "PUT",
      headers: {},
      body: new Uint8Array([1, 2, 3]),
      ...TIMEOUTS,
    });
    await bytes.body.text();
    expect(seen.map((s) => [s.method, s.length])).toEqual([
      ["DELETE", "15"],
      ["POST", "15"],
      ["PUT", "15"],
      ["PUT", "3"],
    ]);
    expect(seen[0]?.body).toBe('{"tags":["ä"]}');
  });

  it("gives the status, the headers, and the body as bytes or in chunks", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(206, { "x-ratelimit-remaining": "7" });
      res.write("ab");
      setTimeout(() => res.end("cd"), 20);
    });
    const whole = await send(url, { method: "GET", headers: {}, ...TIMEOUTS });
    expect(whole.statusCode).toBe(206);
    expect(whole.headers["x-ratelimit-remaining"]).toBe("7");
    expect(Buffer.from(await whole.body.bytes()).toString()).toBe("abcd");
    const chunks: string[] = [];
    for await (const chunk of (await send(url, { method: "GET", headers: {}, ...TIMEOUTS })).body)
      chunks.push(Buffer.from(chunk).toString());
    expect(chunks).toEqual(["ab", "cd"]);
  });

  it("fails a request whose answer does not begin in time as a timeout", async () => {
    const url = await serve(() => {});
    const err = await send(url, {
      method: "GET",
      headers: {},
      headersTimeout: 100,
      bodyTimeout: 5_000,
    }).catch((e) => e);
    expect(err).toMatchObject({ name: "TimeoutError", code: "HEADERS_TIMEOUT" });
  });

  it("fails a body that pauses longer than the body timeout as a timeout", async () => {
    const url = await serve((_req, res) => res.write("begun"));
    const response = await send(url, { method: "GET", headers: {}, headersTimeout: 2_000, bodyTimeout: 100 });
    await expect(response.body.text()).rejects.toMatchObject({ name: "TimeoutError", code: "BODY_TIMEOUT" });
  });

  it("an abort stops the request, and the reading of its body", async () => {
    const url = await serve((req, res) => {
      if (req.url?.endsWith("?body")) res.write("begun");
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      send(url, { method: "GET", headers: {}, signal: controller.signal, ...TIMEOUTS }),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
    const reading = new AbortController();
    const response = await send(new URL(`${url}?body`), {
      method: "GET",
      headers: {},
      signal: reading.signal,
      ...TIMEOUTS,
    });
    setTimeout(() => reading.abort(), 50);
    await expect(response.body.text()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("tells a request that never left (no connection) from one that may have arrived", async () => {
    // nothing listens there: refused, provably not sent
    const url = await serve(() => {});
    const closed = new URL(url);
    await new Promise((r) => server?.close(r));
    server = undefined;
    await expect(
      send(closed, { method: "POST", headers: {}, body: "{}", ...TIMEOUTS }),
    ).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
    // aborted before a connection was made: not sent either
    await expect(
      send(closed, { method: "POST", headers: {}, body: "{}", signal: AbortSignal.abort(), ...TIMEOUTS }),
    ).rejects.toMatchObject({ name: "AbortError", code: "NOT_CONNECTED" });
  });
});
