// The HTTP server: one route per entry of the operation table, each going through the same
// steps (authenticate, validate query and body with the table's schemas, count and enforce
// rate limits, handle), plus CORS, fault injection, the request log and error mapping; and,
// behind emulator/guard.ts, the control surface and the console.

import type { Server as TusServer } from "@tus/server";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { GLOBAL_COUNTER, type OperationName, type OperationSpec, operations } from "mediahost-contract";
import type { Account } from "./accounts";
import { registerCdn } from "./cdn";
import { CONSOLE_HEADER, registerConsole } from "./console";
import type { Context } from "./context";
import { type Control, registerControl } from "./control";
import { ApiError, FsError, httpError } from "./errors";
import { type ControlGuard, isControlRequest } from "./guard";
import { handlers } from "./handlers";
import { type Call, type Handler, Raw, type RequestContext, seconds } from "./handlers/types";
import { maskQuery } from "./secrets";
import { registerTus } from "./tus";
import { validate } from "./validation";
import { GATEWAY_PAGE, mapsOf, withExtraFields } from "./variants";

/** Largest request body: a batch of 1000 paths of 1024 characters fits. */
export const BODY_LIMIT = 4 * 1024 * 1024;
/** The largest simple upload (the emulator's choice); larger files go through tus. */
export const UPLOAD_LIMIT = 64 * 1024 * 1024;

function bodyLimitOf(request: FastifyRequest): number {
  const operation = (request.routeOptions.config as { operation?: OperationName }).operation;
  return operation && (operations[operation] as OperationSpec).rawBody ? UPLOAD_LIMIT : BODY_LIMIT;
}

/** A raw body as the table's `RawBody` takes it: the bytes and the content type they came with. */
function rawBody(request: FastifyRequest): { bytes: Buffer; contentType?: string } {
  const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const contentType = request.headers["content-type"];
  return contentType ? { bytes, contentType } : { bytes };
}

const CORS_PREFLIGHT = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers":
    "Accept, Authorization, Content-Type, If-None-Match, Content-Length, User-Agent",
  "access-control-max-age": "86400",
  "access-control-expose-headers": "*",
};

const isApi = (url: string) => url === "/v2" || url.startsWith("/v2/") || url.startsWith("/v2?");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rateHeaders(
  ctx: Context,
  reply: FastifyReply,
  account: Account,
  counter: string | undefined,
  now: number,
): void {
  if (ctx.plays("rate-headers-absent")) return;
  const sec = seconds(now);
  const g = account.limiter.state(GLOBAL_COUNTER, sec);
  reply.header("x-global-ratelimit-limit", g.limit);
  reply.header("x-global-ratelimit-remaining", g.remaining);
  reply.header("x-global-ratelimit-reset", g.reset);
  if (counter === undefined) return;
  const c = account.limiter.state(counter, sec);
  reply.header("x-ratelimit-limit", c.limit);
  reply.header("x-ratelimit-remaining", c.remaining);
  reply.header("x-ratelimit-reset", c.reset);
  reply.header("x-ratelimit-type", counter);
}

/** Counts the call on every counter it consumes, or refuses it (429, nothing applied). */
function enforceLimits(
  ctx: Context,
  reply: FastifyReply,
  account: Account,
  specific: string[],
  now: number,
): void {
  const sec = seconds(now);
  const counters = [GLOBAL_COUNTER, ...specific];
  const exceeded = account.limiter.exceeded(counters, sec);
  if (!exceeded) account.limiter.consume(counters, sec);
  rateHeaders(ctx, reply, account, exceeded && exceeded !== GLOBAL_COUNTER ? exceeded : specific[0], now);
  if (exceeded) {
    const resume = new Date(account.limiter.state(exceeded, sec).reset * 1000).toISOString();
    throw httpError(429, `rate limit exceeded for ${exceeded}; requests may resume at ${resume}`);
  }
}

/** Closes the connection without an answer: a lost response, as the client sees it. */
function drop(ctx: Context, request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply {
  const emu = request.emu;
  if (emu) {
    emu.logged = true;
    ctx.log.push({ ...logFields(request, reply, emu), status, dropped: true });
  }
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}

function logFields(request: FastifyRequest, reply: FastifyReply, emu: RequestContext) {
  const url = request.url;
  const q = url.indexOf("?");
  const counter = reply.getHeader("x-ratelimit-type");
  const entry: {
    time: string;
    method: string;
    path: string;
    query?: string;
    operation: string | null;
    account: string | null;
    counter: string | null;
    latencyMs: number;
    via?: "console";
  } = {
    time: new Date().toISOString(),
    method: request.method,
    path: q < 0 ? url : url.slice(0, q),
    operation: emu.operation,
    account: emu.account,
    counter: typeof counter === "string" ? counter : null,
    latencyMs: Math.round(reply.elapsedTime * 10) / 10,
  };
  // credentials the table marks in a query, and any secret-looking parameter, never logged
  if (q >= 0 && q < url.length - 1) entry.query = maskQuery(url.slice(q + 1));
  if (emu.via) entry.via = emu.via;
  return entry;
}

async function serve(
  ctx: Context,
  name: OperationName,
  op: OperationSpec,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const now = Date.now();
  let account: Account | undefined;
  if (op.auth !== false) {
    account = ctx.authenticate(request.headers.authorization, now);
    if (request.emu) request.emu.account = account.alias;
    rateHeaders(ctx, reply, account, undefined, now);
  }
  const query = op.query ? validate(op.query, request.query, "query") : undefined;
  // a call without a body is checked as `{}`, so that the message names the first missing field
  const given = op.rawBody ? rawBody(request) : request.body === undefined ? {} : request.body;
  const body = op.body ? validate(op.body, given, "body") : undefined;
  if (account) enforceLimits(ctx, reply, account, op.counters?.({ query, body }) ?? [], now);
  const handler = handlers[name] as Handler<OperationName>;
  const result = await handler({ ctx, account, query, body, now, request } as Call<OperationName>);
  if (ctx.faults.takeDropAfterApply(name)) return drop(ctx, request, reply, 200);
  if (result === undefined)
    return reply.code(op.method !== "GET" && ctx.plays("writes-204") ? 204 : 200).send();
  if (result instanceof Raw) {
    return reply
      .headers(result.headers)
      .header("content-type", result.contentType)
      .header("content-length", result.length)
      .send(result.body);
  }
  const answer =
    op.method === "GET" && ctx.plays("extra-fields") ? withExtraFields(result, mapsOf(name)) : result;
  // a bare string is JSON too (`tus-bare`), not text
  return reply.type("application/json; charset=utf-8").send(JSON.stringify(answer));
}

/** An error answer: hapi's JSON by default; what the variants make of it (emulator/variants.ts). */
function sendError(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  reply.headers(error.headers);
  if (error instanceof FsError) {
    const status = ctx.plays("fs-errors-200") ? 200 : ctx.plays("fs-errors-400") ? 400 : error.statusCode;
    return reply.code(status).send(error.body);
  }
  if (request.emu && ctx.plays("errors-plain")) {
    const text = `${error.body.error ?? error.statusCode}: ${error.body.message ?? ""}`;
    return reply.code(error.statusCode).type("text/plain; charset=utf-8").send(text);
  }
  return reply.code(error.statusCode).send(error.body);
}

export interface ServerParts {
  control: Control;
  tus: TusServer;
  guard: ControlGuard;
  /** Where the emulator reaches its own /v2 API (known once listening). */
  internalUrl: () => string;
  /** The value of the console's marker header on its own API calls. */
  consoleNonce: string;
}

export function buildServer(ctx: Context, parts: ServerParts): FastifyInstance {
  const { control, tus, guard } = parts;
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    // errors raised before routing (a URL that does not decode) get the hapi shape too
    frameworkErrors: (error, _request, reply) => {
      (reply as FastifyReply).code(400).send(httpError(400, error.message).body);
    },
  });
  app.decorateRequest("emu", null);

  // an empty body with a JSON content type is no body, not an error (bodiless POSTs)
  const parseJson = app.getDefaultJsonParser("error", "ignore");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") done(null, undefined);
    else parseJson(request, body as string, done);
  });

  app.addHook("onRequest", async (request, reply) => {
    const url = request.url;
    if (url.startsWith("/tus")) return;
    // the control surface and the console: same origin, this host, the token if one is needed;
    // no CORS headers
    if (isControlRequest(request)) {
      const refusal = guard.check(request);
      if (refusal) return reply.code(refusal.status).send(httpError(refusal.status, refusal.message).body);
      return;
    }
    reply.header("access-control-allow-origin", "*");
    reply.header("access-control-expose-headers", "*");
    const operation = (request.routeOptions.config as { operation?: string }).operation ?? null;
    // an operation's route however its path was spelled (`/%762/account`), or any other /v2 path
    if (operation === null && !isApi(url)) return;
    request.emu = { operation, account: null, logged: false };
    if (request.headers[CONSOLE_HEADER] === parts.consoleNonce) request.emu.via = "console";
    if (request.method === "OPTIONS") return;
    const delay = ctx.faults.delay();
    if (delay > 0) await sleep(delay);
    // a maintenance window: refused before the service sees the call, saying when to come back
    const retryAfter = ctx.faults.refusal(request.method, operation);
    if (retryAfter !== undefined) {
      if (retryAfter) reply.header("retry-after", retryAfter);
      return reply.code(503).send(httpError(503, "Service Unavailable: maintenance").body);
    }
    const fault = ctx.faults.roll();
    if (fault?.kind === "drop") return drop(ctx, request, reply, 0);
    if (fault) return reply.code(fault.status).send(httpError(fault.status, "Injected fault").body);
    // a gateway in front of the service: the call never reaches it
    if (ctx.faults.takeBadGateway(operation) || (ctx.plays("gateway-502") && ++ctx.apiCalls % 4 === 0))
      return reply.code(502).type("text/html").send(GATEWAY_PAGE);
  });

  // Every answer's Date is the clock when it is sent, like the service stamps its answers. Node's
  // own is a string cached per second and renewed by a timer, which runs late on a busy event
  // loop: an upload answered just after a second began said the second before, while the file's
  // mtime, set a moment earlier, was already in the new one (docs/reliability.md, "When a file
  // was written"; emulator/test/unit/date-header.test.ts).
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (ctx.plays("no-date-header")) {
      reply.raw.sendDate = false;
      reply.removeHeader("date");
    } else reply.header("date", new Date().toUTCString());
    done(null, payload);
  });

  app.addHook("onResponse", (request, reply, done) => {
    const emu = request.emu;
    if (emu && !emu.logged) ctx.log.push({ ...logFields(request, reply, emu), status: reply.statusCode });
    done();
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof ApiError) return sendError(ctx, request, reply, error);
    const status = error.statusCode ?? 500;
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      const limit = bodyLimitOf(request);
      return sendError(
        ctx,
        request,
        reply,
        httpError(413, `Payload content length greater than maximum allowed: ${limit}`),
      );
    }
    if (status >= 400 && status < 500) {
      const message = error instanceof SyntaxError ? "Invalid request payload JSON format" : error.message;
      return sendError(ctx, request, reply, httpError(status, message));
    }
    process.stderr.write(`mediahost-emulator: ${error.stack ?? error.message}\n`);
    return sendError(ctx, request, reply, httpError(500, "An internal server error occurred"));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(httpError(404, `Not Found: ${request.method} ${request.url.split("?")[0]}`).body);
  });

  app.options("/*", (request, reply) => {
    // a preflight to the control surface gets no CORS grant (a cross-origin one never gets here)
    if (isControlRequest(request)) reply.code(204).send();
    else reply.code(204).headers(CORS_PREFLIGHT).send();
  });

  const routes = Object.entries(operations) as [OperationName, OperationSpec][];
  for (const [name, op] of routes.filter(([, op]) => !op.rawBody)) {
    app.route({
      method: op.method,
      url: op.path,
      config: { operation: name },
      handler: (request, reply) => serve(ctx, name, op, request, reply),
    });
  }
  // operations whose body is the bytes of a file, whatever its content type (JSON included)
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: UPLOAD_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    for (const [name, op] of routes.filter(([, op]) => op.rawBody)) {
      scope.route({
        method: op.method,
        url: op.path,
        config: { operation: name },
        handler: (request, reply) => serve(ctx, name, op, request, reply),
      });
    }
  });

  registerCdn(app, ctx);
  registerControl(app, control);
  registerConsole(app, { ctx, guard, internalUrl: parts.internalUrl, nonce: parts.consoleNonce });
  registerTus(app, tus);
  return app;
}
