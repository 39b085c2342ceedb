// A real HTTP server on 127.0.0.1 with a free port, scripted per test, recording every request.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export async function startServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const recorded = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(recorded);
      try {
        await handler(recorded, res);
      } catch (err) {
        res.statusCode = 599;
        res.end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (path: string) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

/** Answers POST /v2/token with numbered tokens; returns true when it handled the request. */
export function tokenEndpoint(
  req: Recorded,
  res: ServerResponse,
  state: { issued: number },
  expiresIn = 1200,
): boolean {
  if (req.path !== "/v2/token") return false;
  state.issued++;
  json(res, 200, { token: `tok-${state.issued}`, expiresIn, scope: ["files:read"] });
  return true;
}
