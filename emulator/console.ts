// The web console at /_emulator/console: a page of plain HTML, CSS and JavaScript shipped in
// the package (emulator/console/: the page, its style sheet and its ES modules), no framework and
// no build step. It reads the control surface (state, limits, the request log as a stream, faults)
// and makes hand changes the way a person does in the service's dashboard: through the /v2 API
// itself, so each one is authenticated, validated, counted, logged and persisted like any other
// call. The page never holds a token:
// `POST /_emulator/console/api/<operation>` makes the call over HTTP to this emulator with a
// token minted here for the account, and answers the API's status and (masked) body.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type OperationName, type OperationSpec, operations } from "mediahost-contract";
import type { Context } from "./context";
import { notFound } from "./errors";
import { CONSOLE_PATH, type ControlGuard } from "./guard";
import { maskPart, maskUserinfo } from "./secrets";

/** The writes a person makes in the dashboard; the console offers these and nothing else. */
export const HAND_CHANGES: ReadonlySet<OperationName> = new Set<OperationName>([
  "updateAccount",
  "addCustomDomain",
  "removeCustomDomain",
  "createSubAccount",
  "deleteSubAccount",
  "mkdir",
  "upload",
  "rename",
  "copy",
  "deleteFile",
  "setMeta",
  "setTitle",
  "setDescription",
  "addTags",
  "removeTags",
  "setFolderOptions",
]);

/** Marks the console's own calls in the request log (`via: "console"`); unguessable per process. */
export const CONSOLE_HEADER = "x-mediahost-console";

/** The content type of each kind of asset: the page's ES modules and its style sheet. */
const ASSET_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** The assets the page may load: every module and style sheet in its folder, by name. */
function assetsIn(dir: string): Map<string, string> {
  const assets = new Map<string, string>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const type = ASSET_TYPES[extname(name)];
    if (type) assets.set(name, type);
  }
  return assets;
}

/** The page may load only its own script and style, and talk only to this emulator. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/** The assets' folder, from the sources (emulator/) or from the build (emulator/dist/emulator/). */
function assetsDir(): string {
  // beside the sources (tests), or beside dist/ (the built package)
  const candidates = [join(__dirname, "console"), join(__dirname, "..", "console")];
  return candidates.find((d) => existsSync(join(d, "index.html"))) ?? (candidates[0] as string);
}

export interface ConsoleOptions {
  ctx: Context;
  guard: ControlGuard;
  /** Where this emulator can reach its own /v2 API (a loopback address when on every interface). */
  internalUrl: () => string;
  nonce: string;
}

export function consoleNonce(): string {
  return randomBytes(18).toString("base64url");
}

export function registerConsole(app: FastifyInstance, options: ConsoleOptions): void {
  const dir = assetsDir();
  const assets = assetsIn(dir);
  const cache = new Map<string, Buffer>();
  const asset = async (name: string) => {
    let data = cache.get(name);
    if (!data) {
      data = await readFile(join(dir, name));
      cache.set(name, data);
    }
    return data;
  };

  app.get(CONSOLE_PATH, async (request: FastifyRequest<{ Querystring: { token?: string } }>, reply) => {
    const { guard } = options;
    // the printed link carries the token once: it becomes a same-site, script-proof cookie
    if (
      request.query.token !== undefined &&
      guard.token !== undefined &&
      guard.matches(request.query.token)
    ) {
      return reply
        .code(303)
        .headers(PAGE_HEADERS)
        .header(
          "set-cookie",
          `${guard.cookieName}=${guard.token}; Path=/_emulator; HttpOnly; SameSite=Strict`,
        )
        .header("location", CONSOLE_PATH)
        .send();
    }
    return reply
      .headers(PAGE_HEADERS)
      .type("text/html; charset=utf-8")
      .send(await asset("index.html"));
  });

  app.get<{ Params: { name: string } }>(`${CONSOLE_PATH}/:name`, async (request, reply) => {
    const type = assets.get(request.params.name);
    if (!type) throw notFound(`Not found: ${request.url.split("?")[0]}`);
    return reply
      .headers(PAGE_HEADERS)
      .type(type)
      .send(await asset(request.params.name));
  });

  // hand changes: the body is passed on as it came (JSON, or a file's bytes for an upload)
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 64 * 1024 * 1024 }, (_r, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { operation: string }; Querystring: Record<string, string> }>(
      `${CONSOLE_PATH}/api/:operation`,
      (request, reply) => handChange(options, request, reply),
    );
  });
}

async function handChange(
  { ctx, internalUrl, nonce }: ConsoleOptions,
  request: FastifyRequest<{ Params: { operation: string }; Querystring: Record<string, string> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const name = request.params.operation as OperationName;
  if (!HAND_CHANGES.has(name)) throw notFound(`Not a hand change: ${request.params.operation}`);
  const spec = operations[name] as OperationSpec;
  const { account: alias, ...query } = request.query;
  const who = alias ?? ctx.initialAccounts[0]?.alias ?? "";
  const account = ctx.world.account(who);
  if (!account) throw notFound(`Account not found: ${who}`);
  // a token for this call only, minted here: it never reaches the page, and is not an API call
  const { token } = ctx.issueToken(account, account.clientId, 300, Date.now()) as { token: string };
  const url = new URL(spec.path, internalUrl());
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const bytes = Buffer.isBuffer(request.body) ? request.body : undefined;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, [CONSOLE_HEADER]: nonce };
  const contentType = request.headers["content-type"];
  if (bytes && bytes.length > 0 && contentType) headers["content-type"] = contentType;
  let res: Response;
  try {
    res = await fetch(url, {
      method: spec.method,
      headers,
      body: bytes && bytes.length > 0 ? new Uint8Array(bytes) : undefined,
    });
  } catch (e) {
    const cause = ((e as Error).cause as Error | undefined)?.message ?? (e as Error).message;
    return reply.send({ status: 0, body: { message: `the API answered nothing (${cause})` } });
  }
  const text = await res.text();
  let body: unknown = null;
  if (text !== "") {
    try {
      body = maskPart(name, "response", JSON.parse(text));
    } catch {
      body = maskUserinfo(text);
    }
  }
  return reply.send({ status: res.status, body });
}
