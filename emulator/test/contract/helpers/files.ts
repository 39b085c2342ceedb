// The /v2 API has no plain upload operation (uploads go through S3/FTP/tus), so the suite puts
// file content into the emulator the way the specification offers: `POST /v2/files/fetch`
// from a remote URL (docs/api.md#uploads-and-fetches), here a loopback HTTP server the test owns.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { type Client, until } from "./emulator";

export interface Origin {
  url: string;
  /** Serves `content` at `path`; with `auth`, only to HTTP basic authentication with it. */
  serve(
    path: string,
    content: string | Buffer,
    opts?: { contentType?: string; auth?: [string, string] },
  ): string;
  /** How many requests reached each path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startOrigin(): Promise<Origin> {
  const files = new Map<string, { body: Buffer; type: string; auth?: [string, string] }>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const f = files.get(path);
    if (!f) {
      res.writeHead(404).end("not found");
      return;
    }
    if (f.auth) {
      const expected = `Basic ${Buffer.from(`${f.auth[0]}:${f.auth[1]}`).toString("base64")}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { "www-authenticate": 'Basic realm="x"' }).end("unauthorized");
        return;
      }
    }
    res.writeHead(200, { "content-type": f.type, "content-length": f.body.length });
    res.end(req.method === "HEAD" ? undefined : f.body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    hits,
    serve(path, content, opts = {}) {
      files.set(path, {
        body: Buffer.isBuffer(content) ? content : Buffer.from(content),
        type: opts.contentType ?? "text/plain",
        auth: opts.auth,
      });
      return url + path;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Puts files into the emulator through `POST /v2/files/fetch` (at most 20 a call) and waits
 * until `stat` finds each of them.
 */
export async function putFiles(
  api: Client,
  origin: Origin,
  files: Record<string, string | Buffer>,
  contentType = "text/plain",
): Promise<void> {
  const entries = Object.entries(files);
  for (let i = 0; i < entries.length; i += 20) {
    const batch = entries.slice(i, i + 20).map(([filename, content]) => ({
      url: origin.serve(`/src${filename}`, content, { contentType }),
      filename,
      wait: true,
    }));
    const r = await api.post("/v2/files/fetch", batch);
    expect(r.status, r.text).toBe(200);
  }
  for (const [filename] of entries) {
    await until(`${filename} to exist`, async () => {
      const s = await api.get("/v2/files/stat", { filename });
      return s.status === 200 ? true : undefined;
    });
  }
}

export async function putFile(
  api: Client,
  origin: Origin,
  filename: string,
  content: string | Buffer,
  type?: string,
) {
  await putFiles(api, origin, { [filename]: content }, type);
}

export async function mkdirs(api: Client, ...dirs: string[]): Promise<void> {
  for (const dirname of dirs) {
    const r = await api.post("/v2/files/mkdir", undefined, { dirname });
    expect(r.status, `mkdir ${dirname}: ${r.text}`).toBe(200);
    // an existing path also answers 200, with the error as the body
    expect(r.text, `mkdir ${dirname}`).not.toMatch(/already exists/);
  }
}

/** A 1x1 PNG: enough for the image-only meta (approval, product, points of interest). */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
