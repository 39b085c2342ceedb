// Starts the built emulator command line (`mediahost-emulator --port 0 ...`, emulator/README.md)
// and offers a tiny fetch-based client. Deliberately independent of the project's provider
// client: the contract suite checks the emulator against the specification, not against the
// code that consumes it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { resolve } from "node:path";

export const REPO_ROOT = resolve(__dirname, "../../../..");
/** The built command line; MEDIAHOST_EMULATOR_CLI points the suite at another build. */
export const CLI = process.env.MEDIAHOST_EMULATOR_CLI ?? resolve(REPO_ROOT, "emulator/dist/cli.js");

export const DEMO_CLIENT_ID = "demo-client";
export const DEMO_CLIENT_SECRET = "demo-secret";

export interface Emulator {
  /** Base URL, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** Everything the process wrote on stdout so far. */
  stdout: () => string;
  /** Sends SIGTERM and resolves with the exit code (or the signal name) once it is gone. */
  stop: () => Promise<number | string | null>;
}

/** Spawns `node emulator/dist/cli.js --port 0 [flags]` and waits for `listening on http://HOST:PORT`. */
export async function startEmulator(flags: string[] = [], timeoutMs = 15_000): Promise<Emulator> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: build the emulator first (npm run build)`);
  }
  const child: ChildProcess = spawn(process.execPath, [CLI, "--host", "127.0.0.1", "--port", "0", ...flags], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | string | null>((done) => {
    child.on("exit", (code, signal) => done(code ?? signal));
  });

  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(
        new Error(
          `emulator did not report "listening on" within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`,
        ),
      );
    }, timeoutMs);
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      const m = /^listening on (http:\/\/[^\s/]+:\d+)\s*$/m.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        done(m[1]);
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`emulator exited (${code ?? signal}) before listening\nstdout: ${out}\nstderr: ${err}`));
    });
  });

  let stopping: Promise<number | string | null> | undefined;
  const stop = () => {
    if (!stopping) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const killTimer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      stopping = exited.finally(() => clearTimeout(killTimer));
    }
    return stopping;
  };
  return { url, stdout: () => out, stop };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: convenient access in assertions
  body: any;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** A value sent as JSON. */
  body?: unknown;
  /** A raw body sent as is (with content-type application/json unless headers say otherwise). */
  rawBody?: string | Uint8Array;
  /** Bearer token; `null` sends no Authorization header. Defaults to the client's cached token. */
  token?: string | null;
  headers?: Record<string, string>;
}

async function toReply(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, text, json, body: json };
}

export class Client {
  private cached: string | undefined;

  constructor(
    readonly url: string,
    readonly clientId = DEMO_CLIENT_ID,
    readonly clientSecret = DEMO_CLIENT_SECRET,
  ) {}

  /** A fresh bearer token for this client's credentials (200 required). */
  async token(expiresIn?: number): Promise<string> {
    const body: Record<string, unknown> = { clientId: this.clientId, clientSecret: this.clientSecret };
    if (expiresIn !== undefined) body.expiresIn = expiresIn;
    const r = await this.call("POST", "/v2/token", { body, token: null });
    if (r.status !== 200 || typeof r.body?.token !== "string") {
      throw new Error(`token request failed: ${r.status} ${r.text}`);
    }
    return r.body.token as string;
  }

  /** Forgets the cached token (call after a reset: tokens may not survive it). */
  forget(): void {
    this.cached = undefined;
  }

  async call(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const u = new URL(path, this.url);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined) u.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: "application/json" };
    let body: string | Uint8Array | undefined;
    if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      headers["content-type"] = "application/json";
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] = "application/json";
    }
    let token = opts.token;
    if (token === undefined) {
      this.cached ??= await this.token();
      token = this.cached;
    }
    if (token !== null) headers.authorization = `Bearer ${token}`;
    Object.assign(headers, opts.headers ?? {});
    const res = await fetch(u, { method, headers, body });
    return toReply(res);
  }

  get(path: string, query?: CallOptions["query"], opts: CallOptions = {}) {
    return this.call("GET", path, { ...opts, query });
  }

  post(path: string, body?: unknown, query?: CallOptions["query"], opts: CallOptions = {}) {
    return this.call("POST", path, { ...opts, body, query });
  }

  del(path: string, query?: CallOptions["query"], opts: CallOptions = {}) {
    return this.call("DELETE", path, { ...opts, query });
  }

  // ---- the out-of-band control surface (docs/emulator-control.md) ----------------------------

  private async control(method: string, path: string, body?: unknown): Promise<Reply> {
    const res = await fetch(new URL(path, this.url), {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const r = await toReply(res);
    if (r.status >= 300) throw new Error(`${method} ${path} failed: ${r.status} ${r.text}`);
    return r;
  }

  async reset(): Promise<void> {
    await this.control("POST", "/_emulator/reset");
    this.forget();
  }

  async requests(since = 0): Promise<{ requests: LoggedRequest[]; next: number }> {
    return (await this.control("GET", `/_emulator/requests?since=${since}`)).body;
  }

  async clearRequests(): Promise<void> {
    await this.control("DELETE", "/_emulator/requests");
  }

  async accounts(): Promise<{ accounts: { alias: string; clientId: string }[] }> {
    return (await this.control("GET", "/_emulator/accounts")).body;
  }

  async addAccount(alias: string, clientId: string, clientSecret: string): Promise<void> {
    await this.control("POST", "/_emulator/accounts", { alias, clientId, clientSecret });
  }

  // biome-ignore lint/suspicious/noExplicitAny: the state dump is a test tool's free-form object
  async state(account: string): Promise<any> {
    return (await this.control("GET", `/_emulator/state?account=${encodeURIComponent(account)}`)).body;
  }

  async setLimit(
    counter: string,
    values: { limit?: number; used?: number; account?: string },
  ): Promise<void> {
    await this.control("POST", "/_emulator/limits", { counter, ...values });
  }

  async faults(settings: Record<string, unknown>): Promise<void> {
    await this.control("POST", "/_emulator/faults", settings);
  }

  /** Plays exactly these variants from now on (docs/api.md#variants); `[]`: none. */
  async variants(names: string[]): Promise<void> {
    await this.control("POST", "/_emulator/variants", { variants: names });
  }

  async behaviour(settings: {
    aliasesUpdate?: "merge" | "replace";
    mkdirExists?: "200" | "409";
  }): Promise<void> {
    await this.control("POST", "/_emulator/behaviour", settings);
  }
}

export interface LoggedRequest {
  seq: number;
  time: string | number;
  method: string;
  path: string;
  operation: string | null;
  status: number;
  account: string | null;
}

/** Starts one emulator and a client for it; call `stop()` in afterAll. */
export async function setup(flags: string[] = []): Promise<{ emu: Emulator; api: Client }> {
  const emu = await startEmulator(flags);
  return { emu, api: new Client(emu.url) };
}

/**
 * Sends a JSON body of about `size` bytes over a raw socket and returns the status the server
 * answers with. The headers go first; the body follows only if no answer came within a short
 * wait, in chunks, and stops as soon as an answer arrives. A server that rejects on
 * Content-Length (413) therefore answers before the body is written, and a write error after an
 * answer (the server closing early) does not hide the answer.
 */
export function postLargeBody(
  base: string,
  path: string,
  token: string,
  size: number,
): Promise<{ status: number; text: string }> {
  const u = new URL(path, base);
  const head = Buffer.from('{"minify":{"enabled":true},"x":"');
  const tail = Buffer.from('"}');
  const length = head.length + size + tail.length;
  return new Promise((done, fail) => {
    let received = Buffer.alloc(0);
    let status = 0;
    let finished = false;
    const finish = (err?: Error) => {
      if (finished) return;
      if (status === 0 && err) {
        finished = true;
        fail(err);
        return;
      }
      if (status === 0) return;
      finished = true;
      const text = received.toString("utf8").split("\r\n\r\n").slice(1).join("\r\n\r\n");
      done({ status, text });
      socket.destroy();
    };
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${length}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      setTimeout(async () => {
        const chunk = Buffer.alloc(64 * 1024, "a");
        const write = (b: Buffer) =>
          new Promise<void>((ok) => {
            if (socket.destroyed || status !== 0) return ok();
            if (socket.write(b)) ok();
            else socket.once("drain", () => ok());
          });
        await write(head);
        for (let sent = 0; sent < size && status === 0 && !socket.destroyed; sent += chunk.length) {
          await write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
        }
        await write(tail);
      }, 300);
    });
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(received.toString("latin1"));
      if (m?.[1]) status = Number(m[1]);
      const headEnd = received.indexOf("\r\n\r\n");
      if (status && headEnd >= 0) {
        const cl = /\r\ncontent-length:\s*(\d+)/i.exec(received.subarray(0, headEnd).toString("latin1"));
        if (cl?.[1] && received.length >= headEnd + 4 + Number(cl[1])) finish();
      }
    });
    socket.on("end", () => finish(new Error("connection closed without an answer")));
    socket.on("close", () => finish(new Error("connection closed without an answer")));
    socket.on("error", (e) => finish(e));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Repeats `probe` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
