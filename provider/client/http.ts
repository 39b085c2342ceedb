// The HTTP transport: undici's `request` over one keep-alive Agent per process, loaded on the
// first request. undici's index loads its whole module graph (fetch, WebSocket, caches, mocks:
// 109 modules, about 70 ms and 3 MiB of heap in a provider process) where the client needs the
// Agent and `request` (30 modules, about 20 ms); and a step that sends nothing (`preview`) needs
// neither. Those two modules are required by their paths in undici's package, which has no
// `exports` map; should a release move them, the index is loaded instead.
import type { Dispatcher } from "undici";

type RequestFunction = (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

interface Transport {
  agent: Dispatcher;
  request: RequestFunction;
}

let transport: Transport | undefined;

function load(): Transport {
  if (transport) return transport;
  let Agent: new (options: object) => Dispatcher;
  let request: RequestFunction;
  try {
    Agent = require("undici/lib/dispatcher/agent");
    request = require("undici/lib/api/api-request");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw err;
    const undici = require("undici") as typeof import("undici");
    Agent = undici.Agent;
    request = function (this: Dispatcher, options) {
      return this.request(options);
    };
  }
  transport = { agent: new Agent({ keepAliveTimeout: 30_000, connections: 16, pipelining: 1 }), request };
  return transport;
}

export type SendOptions = Omit<Dispatcher.RequestOptions, "origin" | "path"> & {
  /** Another dispatcher than the shared keep-alive Agent (tests). */
  dispatcher?: Dispatcher;
};

/** Sends one request to `url` (what undici's top-level `request(url, options)` does). */
export function send(url: URL, options: SendOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const t = load();
  return t.request.call(dispatcher ?? t.agent, {
    ...rest,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
