// mediahost-doctor's calls: raw HTTP through the provider's own transport, so that the doctor sees
// each answer's status, headers and body as the service sent them. A 502, 503 or 504 is repeated
// a few times and counted: a gateway in front of the service answered (docs/api.md#errors).
import type { IncomingHttpHeaders } from "node:http";
import { send } from "../../provider/for-tools";

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body as JSON, when it parses. */
  json?: unknown;
}

export interface CallInput {
  query?: Record<string, string>;
  /** A JSON body, or raw bytes with `contentType`. */
  body?: unknown;
  bytes?: Uint8Array;
  contentType?: string;
  /** false: the token request, the only call without a bearer token. */
  auth?: boolean;
}

export interface GatewayAnswer {
  call: string;
  status: number;
  html: boolean;
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);
const ATTEMPTS = 5;
const TIMEOUT_MS = 30_000;

export class Wire {
  /** Every answer a gateway gave instead of the service, in order. */
  readonly gateway: GatewayAnswer[] = [];
  /** Every answer the service gave, for the facts that hold of all of them (headers). */
  readonly answers: { call: string; answer: Answer }[] = [];
  token?: string;

  constructor(
    readonly baseUrl: string,
    private readonly say: (line: string) => void,
  ) {}

  async call(method: "GET" | "POST" | "DELETE", path: string, input: CallInput = {}): Promise<Answer> {
    const url = new URL(
      path.replace(/^\//, ""),
      this.baseUrl.endsWith("/") ? this.baseUrl : `${this.baseUrl}/`,
    );
    for (const [k, v] of Object.entries(input.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: "application/json" };
    if (input.auth !== false && this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | Uint8Array | undefined;
    if (input.bytes) {
      body = input.bytes;
      headers["content-type"] = input.contentType ?? "application/octet-stream";
    } else if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers["content-type"] = "application/json";
    }
    const name = `${method} ${path}`;
    for (let attempt = 1; ; attempt++) {
      const response = await send(url, {
        method,
        headers,
        body,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      const text = await response.body.text();
      const answer: Answer = { status: response.statusCode, headers: response.headers, text };
      try {
        if (text !== "") answer.json = JSON.parse(text);
      } catch {
        // not JSON: the text is the answer
      }
      if (GATEWAY_STATUSES.has(answer.status) && attempt < ATTEMPTS) {
        const html = /^\s*<(!doctype|html|head|body)/i.test(text);
        this.gateway.push({ call: name, status: answer.status, html });
        this.say(`${name}: ${answer.status}${html ? " (an HTML page)" : ""}; repeating`);
        await new Promise((r) => setTimeout(r, 100 * attempt));
        continue;
      }
      this.answers.push({ call: name, answer });
      return answer;
    }
  }
}
