// The HTTP transport: Node.js's own `http`/`https` over one keep-alive Agent per scheme and process.
// Not undici: compiling its WebAssembly parser left a provider process tens of MiB larger
// (docs/benchmark-history.md, "Since: Node.js's own HTTP"). Each call of the client is a request
// with two timeouts and an abort signal, which is all this module gives.
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** How long the answer's status and headers may take, from the start. */
  headersTimeout: number;
  /** How long the body may pause once the answer has begun. */
  bodyTimeout: number;
  /** Aborts the request, or the reading of its body. */
  signal?: AbortSignal;
}

/** The answer's body: read whole, or iterated chunk by chunk (a streamed download). */
export interface Body extends AsyncIterable<Uint8Array> {
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

export interface Response {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Body;
}

/** An idle connection is closed after this long, or a second before the server's own keep-alive timeout. */
const IDLE_MS = 30_000;
/** Connections to the service at once: the engine's default `--parallel` is 4 per CPU. */
const MAX_SOCKETS = 16;

let agents: { http: HttpAgent; https: HttpsAgent } | undefined;

function agentFor(url: URL): HttpAgent {
  agents ??= {
    http: new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS }),
  };
  return url.protocol === "https:" ? agents.https : agents.http;
}

/** An error with a `code` and a `name`, as the client classifies them (client.ts, `isTimeout`). */
function failure(message: string, code: string, name = "Error"): Error {
  return Object.assign(new Error(message), { code, name });
}

/** Sends one request to `url`; resolves with the status and headers, the body still to read. */
export function send(url: URL, options: SendOptions): Promise<Response> {
  const { signal } = options;
  return new Promise<Response>((resolve, reject) => {
    let socket: Socket | undefined;
    // Node.js sends no length for a body of DELETE (nor of GET), so the service would not see it
    const length =
      options.body === undefined ? {} : { "content-length": String(Buffer.byteLength(options.body)) };
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: options.method,
      headers: { ...options.headers, ...length },
      agent: agentFor(url),
    });
    // the request never reached the service while its connection was still being made
    const reached = () => socket !== undefined && !socket.connecting;
    const abort = () => {
      request.destroy(
        reached()
          ? failure("the request was aborted", "ABORT_ERR", "AbortError")
          : failure("the request was aborted before a connection was made", "NOT_CONNECTED", "AbortError"),
      );
    };
    const headersTimer = setTimeout(() => {
      request.destroy(
        reached()
          ? failure(
              `no answer's headers within ${options.headersTimeout} ms`,
              "HEADERS_TIMEOUT",
              "TimeoutError",
            )
          : failure(`no connection within ${options.headersTimeout} ms`, "NOT_CONNECTED", "TimeoutError"),
      );
    }, options.headersTimeout);
    const done = () => {
      clearTimeout(headersTimer);
      signal?.removeEventListener("abort", abort);
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
    request.on("socket", (s) => {
      socket = s;
    });
    request.on("error", (err) => {
      done();
      reject(err);
    });
    request.on("response", (response) => {
      done();
      resolve({
        statusCode: response.statusCode ?? 0,
        headers: response.headers,
        body: body(response, options),
      });
    });
    request.end(options.body);
  });
}

/** The body of `response`, bounded by the signal and by pauses longer than the body timeout. */
function body(response: IncomingMessage, { bodyTimeout, signal }: SendOptions): Body {
  const socket = response.socket;
  const idle = () =>
    response.destroy(failure(`the body paused for ${bodyTimeout} ms`, "BODY_TIMEOUT", "TimeoutError"));
  const abort = () => response.destroy(failure("the request was aborted", "ABORT_ERR", "AbortError"));
  socket.setTimeout(bodyTimeout);
  socket.on("timeout", idle);
  // a body that fails before it is read fails its reader, not the process
  response.on("error", () => {});
  if (signal?.aborted) abort();
  else signal?.addEventListener("abort", abort, { once: true });
  // by then the connection is back with the agent, which has set its idle timeout again
  response.once("close", () => {
    socket.removeListener("timeout", idle);
    signal?.removeEventListener("abort", abort);
  });
  const bytes = async (): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  return {
    [Symbol.asyncIterator]: () => response[Symbol.asyncIterator](),
    bytes,
    text: async () => (await bytes()).toString("utf8"),
  };
}
