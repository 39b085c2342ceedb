// HTTP requests with headers fetch() will not send as given (Host), over loopback, for the
// control surface's safety tests.
import { request } from "node:http";

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: convenient access in assertions
  body: any;
}

export function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  const u = new URL(base);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: u.hostname,
        port: Number(u.port),
        path,
        method: options.method ?? "GET",
        setHost: false,
        headers: { host: u.host, ...options.headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          done({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on("error", fail);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
