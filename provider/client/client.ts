// The typed /v2 client. Every method comes from the API contract (mediahost-contract), and each
// call follows the client's policy for its operation (./policy.ts). One loop runs a call's attempts
// and asks a classifier what each outcome means: input validation before anything is sent, bearer
// tokens (shared, renewed, re-minted once on 401), rate limits (wait for the reset when it is near,
// else fail naming the counter), waits a `Retry-After` asks for, retries with backoff and jitter
// that never turn an applied-but-unanswered write into an error, keep-alive connections, timeouts
// and a User-Agent.

import type { IncomingHttpHeaders } from "node:http";
import {
  errorText,
  fsErrorOf,
  GLOBAL_COUNTER,
  isFsErrorAnswer,
  type OperationInput,
  type OperationName,
  type OperationOutput,
  type OperationSpec,
  operations,
  secretValuesAt,
} from "mediahost-contract";
import type { z } from "zod";
import { VERSION } from "../version";
import { MediahostError, ProviderError, Redactor } from "./errors";
import { send } from "./http";
import { type OperationCall, type OperationPolicy, policies } from "./policy";
import {
  type CounterState,
  countersFromHeaders,
  RunBudget,
  rateLimitFrom,
  retryAfterMs,
} from "./rate-limits";
import { type Read, type ReadOperation, readAnswer } from "./reads";
import { type IssuedToken, renewTime, sharedTokenCache, TokenCache } from "./tokens";

export const USER_AGENT = `pulumi-mediahost/${VERSION}`;

export interface ClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Attempts per call for retryable failures (5xx, lost connections), within the deadline. Default 10. */
  maxAttempts?: number;
  /**
   * Backoff before retry n: random in [c/2, c] for c = min(maxMs, baseMs * 2^n) ("equal jitter":
   * spread, yet a flaky stretch of several seconds is waited out). Default 250 ms and 5 s.
   */
  backoff?: { baseMs: number; maxMs: number };
  /** Longest wait for a rate-limit reset before failing instead. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** The share of each counter's hourly limit this client may spend (percent). Default: no bound. */
  rateBudgetPercent?: number;
  /**
   * Each operation's deadline: every attempt, retry and backoff of one call, its body included,
   * ends within it (waiting for a rate-limit reset is bounded on its own). Default 30 s.
   */
  deadlineMs?: number;
  /** One attempt's share of the deadline at most, so that a hung connection is retried in time. Default 10 s. */
  attemptTimeoutMs?: number;
  /** Token lifetime to ask for (5..604800 s); the service default is 1200 s. */
  tokenLifetimeSeconds?: number;
  /** Where large (tus) uploads keep their URLs, to resume in a later run. Default: none kept. */
  uploadResumeFile?: string;
  tokenCache?: TokenCache;
  /** Retries, waits and token renewals, for progress logs and tests. */
  onEvent?: (event: ClientEvent) => void;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export type ClientEvent =
  | { type: "request"; operation: string; status: number | "network"; attempt: number }
  | { type: "retry"; operation: string; attempt: number; reason: string; delayMs: number }
  | { type: "rateLimitWait"; operation: string; counter?: string; waitMs: number }
  | { type: "token"; reason: "initial" | "expired" | "rejected" };

export interface ClientStats {
  requests: Record<string, number>;
  retries: number;
  rateLimitWaits: number;
  tokenRequests: number;
}

/** What a call of operation N gives the provider: what it reads of a JSON answer (./reads.ts), else the contract's. */
export type Answered<N extends OperationName> = N extends ReadOperation ? Read<N> : OperationOutput<N>;

export type OperationMethods = {
  [N in OperationName]: (
    ...args: object extends OperationInput<N> ? [input?: OperationInput<N>] : [input: OperationInput<N>]
  ) => Promise<Answered<N>>;
};

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Normalizes a base URL and refuses plain http to anything but a loopback address. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderError(`baseUrl: must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ProviderError(`baseUrl: must use https, got "${url.protocol}"`);
  }
  if (url.protocol === "http:" && !LOOPBACK.test(url.hostname)) {
    throw new ProviderError(
      `baseUrl: plain http is allowed only for loopback addresses; use https for ${url.hostname}`,
    );
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v2$/, "");
  return `${url.origin}${path}`;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Errors where the request provably never reached the service. */
const NOT_SENT = new Set(["ECONNREFUSED", "NOT_CONNECTED", "ENOTFOUND", "EAI_AGAIN"]);
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

export class MediahostClient {
  readonly baseUrl: string;
  readonly ops: OperationMethods;
  readonly stats: ClientStats = { requests: {}, retries: 0, rateLimitWaits: 0, tokenRequests: 0 };
  /** The last reading of every rate-limit counter seen in a response. */
  readonly counters = new Map<string, CounterState>();
  /** How long an answer takes to come, smoothed over this client's calls (undefined before the first). */
  roundTripMs?: number;
  /** Where large (tus) uploads keep their URLs, to resume in a later run (none: not kept). */
  readonly uploadResumeFile?: string;

  private readonly clientId: string;
  private readonly clientSecret: string;
  private readonly tokenKey: string;
  private readonly tokens: TokenCache;
  private readonly maxAttempts: number;
  private readonly backoff: { baseMs: number; maxMs: number };
  private readonly maxRateLimitWaitMs: number;
  private readonly deadlineMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly tokenLifetime?: number;
  private readonly onEvent: (event: ClientEvent) => void;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly redactor = new Redactor();
  private readonly runBudget?: RunBudget;

  constructor(options: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    if (!options.clientId) throw new ProviderError("clientId: required");
    if (!options.clientSecret) throw new ProviderError("clientSecret: required");
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.redactor.add(options.clientSecret);
    this.tokens = options.tokenCache ?? sharedTokenCache;
    this.tokenKey = TokenCache.key(this.baseUrl, this.clientId, this.clientSecret);
    this.maxAttempts = options.maxAttempts ?? 10;
    this.backoff = options.backoff ?? { baseMs: 250, maxMs: 5_000 };
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000;
    if (options.rateBudgetPercent !== undefined) this.runBudget = new RunBudget(options.rateBudgetPercent);
    this.deadlineMs = options.deadlineMs ?? 30_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
    this.tokenLifetime = options.tokenLifetimeSeconds;
    this.uploadResumeFile = options.uploadResumeFile;
    this.onEvent = options.onEvent ?? (() => {});
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? sleepFor;
    const methods: Record<string, (input?: object) => Promise<unknown>> = {};
    for (const name of Object.keys(operations) as OperationName[]) {
      methods[name] = (input?: object) => this.call(name, (input ?? {}) as OperationInput<typeof name>);
    }
    this.ops = methods as OperationMethods;
  }

  /** Calls operation `name` of the contract with its query and body, by the client's policy for it. */
  async call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<Answered<N>> {
    return (await this.run(this.prepare(name, input as OperationCall))) as Answered<N>;
  }

  /**
   * Calls operation `name` and tells when the service answered it: the `Date` of the answer that
   * completed it (undefined when none said, or when a repeat found the call applied without one).
   * What a write made of the object's time (a file's mtime) without reading it back.
   */
  async callDated<N extends OperationName>(
    name: N,
    input: OperationInput<N>,
  ): Promise<{ result: Answered<N>; answeredAt?: Date }> {
    let answeredAt: Date | undefined;
    const call = {
      ...this.prepare(name, input as OperationCall),
      answered: (at?: Date) => (answeredAt = at),
    };
    const result = (await this.run(call)) as Answered<N>;
    return { result, answeredAt };
  }

  /**
   * Calls a binary operation (a download) and streams its answer into `read`, which is called
   * afresh for each attempt: memory stays bounded whatever the size. The deadline bounds the wait
   * for the answer to begin; after that the body only has to keep arriving (at most the attempt
   * timeout between two chunks), however long the whole takes.
   */
  async stream<N extends OperationName, T>(
    name: N,
    input: OperationInput<N>,
    read: (body: AsyncIterable<Uint8Array>) => Promise<T>,
  ): Promise<T> {
    return (await this.run({ ...this.prepare(name, input as OperationCall), read })) as T;
  }

  /** The loop over a call's attempts. */
  private async run(call: PreparedCall): Promise<unknown> {
    const budget = { attempts: this.maxAttempts, remints: 1, rateLimitWaits: 3 };
    const deadline = new Deadline(this.deadlineMs);
    // set once an attempt may have reached the service without us seeing its answer
    let mayHaveApplied = false;
    for (let attempt = 1; ; ) {
      const token =
        call.spec.auth === false ? undefined : await this.tokenWithin(call, deadline, attempt - 1);
      if (deadline.left <= 0) throw this.timedOut(call, attempt - 1, deadline);
      const refused =
        call.spec.auth === false ? undefined : this.runBudget?.refusal(countersOf(call), this.counters);
      if (refused)
        throw new ProviderError(
          `${call.name}${call.subject ? ` ${call.subject}` : ""}: not sent: ${refused}`,
        );
      const outcome = await this.attempt(call, token, deadline, attempt);
      const verdict = this.classify(call, outcome, { attempt, mayHaveApplied, token });
      if (outcome.maybeApplied) mayHaveApplied = true;
      switch (verdict.action) {
        case "done":
          call.answered?.(verdict.answeredAt);
          return verdict.result;
        case "remint":
          // the token was revoked or expired early: mint a new one once and try again
          if (budget.remints-- === 0) throw verdict.otherwise;
          this.onEvent({ type: "token", reason: "rejected" });
          await raceSignal(
            this.tokens.renew(this.tokenKey, verdict.token, () => this.mint()),
            deadline.signal,
            () => this.timedOut(call, attempt, deadline),
          );
          continue;
        case "waitForReset": {
          const waited =
            budget.rateLimitWaits-- > 0
              ? await this.waitForReset(call.name, verdict.counter, verdict.resetAt)
              : undefined;
          if (waited === undefined) throw verdict.otherwise;
          // the wait has its own bound: it does not eat the operation's deadline
          deadline.extend(waited);
          continue;
        }
        case "repeat":
          if (attempt >= budget.attempts)
            throw verdict.timedOut ? this.timedOut(call, attempt, deadline) : verdict.otherwise;
          if (verdict.checkApplied && (await this.appliedUnanswered(call, verdict.reason, deadline, attempt)))
            return call.policy.doneResult?.(call.input);
          if (deadline.left <= 0) throw this.timedOut(call, attempt, deadline);
          if (verdict.waitMs !== undefined && verdict.waitMs > deadline.left)
            throw this.pastDeadline(call, verdict.otherwise, verdict.waitMs, deadline);
          await this.backoffBefore(
            call.name,
            attempt,
            verdict.retryReason ?? verdict.reason,
            deadline,
            verdict.waitMs,
          );
          attempt++;
          continue;
        case "fail":
          throw verdict.error;
      }
    }
  }

  /** A call's validated parts, its policy and subject; its credentials are noted for redaction. */
  private prepare(name: OperationName, input: OperationCall): PreparedCall {
    const spec: OperationSpec = operations[name];
    const policy: OperationPolicy = policies[name];
    const subject = policy.subject?.(input);
    const query = validate(name, subject, "query", spec.query, input.query);
    const body = validate(name, subject, "body", spec.body, input.body);
    for (const secret of secretValuesAt(spec.secrets ?? [], { query, body })) this.redactor.add(secret);
    return { name, spec, policy, subject, query, body, input };
  }

  /** The token, shared by every call and minted once, waited for within this call's deadline. */
  private tokenWithin(call: PreparedCall, deadline: Deadline, attempts: number): Promise<string> {
    return raceSignal(this.token(), deadline.signal, () => this.timedOut(call, attempts, deadline));
  }

  /** One attempt: the answer read whole, or why none came (and whether it may have been applied). */
  private async attempt(
    call: PreparedCall,
    token: string | undefined,
    deadline: Deadline,
    attempt: number,
  ): Promise<Outcome> {
    const budgetMs = Math.min(deadline.left, this.attemptTimeoutMs);
    try {
      const sent = Date.now();
      const answer = await this.send(call, token, budgetMs, deadline.attemptSignal(this.attemptTimeoutMs));
      const took = Date.now() - sent;
      this.roundTripMs = this.roundTripMs === undefined ? took : 0.8 * this.roundTripMs + 0.2 * took;
      this.stats.requests[call.name] = (this.stats.requests[call.name] ?? 0) + 1;
      this.onEvent({ type: "request", operation: call.name, status: answer.status, attempt });
      for (const [counter, state] of countersFromHeaders(answer.headers)) this.counters.set(counter, state);
      // the service counts every call it answers but a refused one
      if (call.spec.auth !== false && answer.status !== 429) this.runBudget?.spend(countersOf(call));
      // a 5xx may have been applied before it failed, except a 503 that says when to come back:
      // the service refused the call (docs/api.md#errors)
      const refused = answer.status === 503 && retryAfterMs(answer.headers) !== undefined;
      return { answer, maybeApplied: RETRYABLE_STATUS.has(answer.status) && !refused };
    } catch (err) {
      const code = (err as { code?: string }).code ?? "";
      const timedOut = isTimeout(err);
      this.onEvent({ type: "request", operation: call.name, status: "network", attempt });
      const reason = timedOut
        ? `no answer within ${seconds(budgetMs)} s`
        : this.redactor.redact(`${code || "error"}: ${(err as Error).message}`);
      return { lost: { reason, timedOut }, maybeApplied: !NOT_SENT.has(code) };
    }
  }

  /**
   * What to do with an attempt's outcome: done (the result), repeat it, wait for a rate-limit
   * reset, mint the token again, or fail. The loop in `call` owns the budgets of each.
   */
  private classify(
    call: PreparedCall,
    outcome: Outcome,
    { attempt, mayHaveApplied, token }: { attempt: number; mayHaveApplied: boolean; token?: string },
  ): Verdict {
    const { name, spec, policy, subject } = call;
    if ("lost" in outcome) {
      const { reason, timedOut } = outcome.lost;
      const otherwise = new MediahostError({
        kind: "network",
        operation: name,
        subject,
        serviceMessage: `${this.host}: ${reason}`,
        attempts: attempt,
      });
      return { action: "repeat", reason, checkApplied: outcome.maybeApplied, timedOut, otherwise };
    }
    const response = outcome.answer;
    const ok = response.status >= 200 && response.status < 300;
    // an error body on an operation whose success has none: the error it names, whatever the
    // status (the service answers mkdir of an existing path with 200 and such a body)
    const named = fsErrorOf(response.text);
    const bodiless = spec.response === "empty" || spec.response === "text";
    // and on any operation, a documented file-system error: a service may answer them all so
    if (ok && !(named && (bodiless || isFsErrorAnswer(named)))) {
      const result = this.parse(call, response);
      for (const secret of secretValuesAt(spec.secrets ?? [], { response: result }))
        this.redactor.add(secret);
      const date = Date.parse(String(response.headers.date ?? ""));
      return { action: "done", result, answeredAt: Number.isNaN(date) ? undefined : new Date(date) };
    }
    const message = this.redactor.redact(named?.message ?? errorText(response.text));
    const error = new MediahostError({
      kind: "http",
      operation: name,
      status: response.status,
      subject,
      serviceMessage: message,
      serviceName: named?.name,
      attempts: attempt,
    });
    if (response.status === 401 && token) return { action: "remint", token, otherwise: error };
    const after = retryAfterMs(response.headers);
    if (response.status === 429) {
      const limited = rateLimitFrom(response.headers, message);
      const { counter } = limited;
      // the service's own word on when to come back comes first
      const resetAt = after === undefined ? limited.resetAt : new Date(Date.now() + after);
      const otherwise = new MediahostError({
        kind: "rateLimited",
        operation: name,
        status: 429,
        subject,
        serviceMessage: message,
        counter: counter ?? GLOBAL_COUNTER,
        resetAt,
      });
      return { action: "waitForReset", counter, resetAt, otherwise };
    }
    if (mayHaveApplied && policy.retry.kind === "conflictMeansDone") {
      const conflict = policy.retry.conflict === "exists" ? error.isConflictExists : error.isNotFound;
      // an earlier attempt was applied and only its answer was lost
      if (conflict && (policy.retry.done?.(message) ?? true))
        return { action: "done", result: policy.doneResult?.(call.input) };
    }
    if (RETRYABLE_STATUS.has(response.status)) {
      return {
        action: "repeat",
        reason: `HTTP ${response.status}: ${message}`,
        retryReason: `HTTP ${response.status}`,
        checkApplied: outcome.maybeApplied,
        timedOut: false,
        waitMs: after,
        otherwise: error,
      };
    }
    return { action: "fail", error };
  }

  /**
   * After an attempt that may have been applied without our seeing its answer: whether it was
   * (the call is then done), by the operation's rule. An operation that may not be repeated fails
   * saying what to check; the others are repeated.
   */
  private async appliedUnanswered(
    call: PreparedCall,
    reason: string,
    deadline: Deadline,
    attempt: number,
  ): Promise<boolean> {
    const rule = call.policy.retry;
    if (rule.kind === "never") {
      throw new MediahostError({
        kind: "unsure",
        operation: call.name,
        subject: call.subject,
        serviceMessage: reason,
        check: rule.check(call.input),
      });
    }
    if (rule.kind !== "checkFirst") return false;
    // the check's own calls count against the deadline of the call they check
    return raceSignal(
      rule.applied(
        {
          exists: (path) => this.exists(path),
          points: (path) => this.call("getPoi", { query: { filename: path } }),
        },
        call.input,
      ),
      deadline.signal,
      () => this.timedOut(call, attempt, deadline),
    );
  }

  /** Whether a path exists (for the checks of `checkFirst` rules). */
  private async exists(path: string): Promise<boolean> {
    try {
      await this.call("stat", { query: { filename: path } });
      return true;
    } catch (err) {
      if (err instanceof MediahostError && (err.isNotFound || err.isNotADirectory)) return false;
      throw err;
    }
  }

  /**
   * Waits for an exhausted counter's reset when it is near enough (`maxRateLimitWaitMs`), for
   * `call` and for work done outside it (tus uploads, which tus-js-client sends): the time waited,
   * or undefined when the reset is too far to wait for.
   */
  async waitForReset(
    operation: string,
    counter: string | undefined,
    resetAt: Date | undefined,
  ): Promise<number | undefined> {
    const waitMs = resetAt ? resetAt.getTime() - Date.now() : Number.POSITIVE_INFINITY;
    if (waitMs > this.maxRateLimitWaitMs) return undefined;
    const delay = Math.max(0, waitMs) + 250 + Math.floor(this.random() * 250);
    this.stats.rateLimitWaits++;
    this.onEvent({ type: "rateLimitWait", operation, counter, waitMs: delay });
    await this.sleep(delay);
    return delay;
  }

  /** `text` with every credential this client has seen hidden (for messages made outside `call`). */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** The host the client talks to, for messages. */
  private get host(): string {
    return new URL(this.baseUrl).host;
  }

  /** The service asks to come back later than the operation's deadline allows. */
  private pastDeadline(call: PreparedCall, error: Error, waitMs: number, deadline: Deadline) {
    const e = error as MediahostError;
    return new MediahostError({
      kind: e.kind,
      operation: call.name,
      status: e.status,
      subject: call.subject,
      serviceName: e.serviceName,
      serviceMessage:
        `${e.serviceMessage ?? "unavailable"}; it asks to retry after ${seconds(waitMs)} s, past the ` +
        `operation's deadline (${seconds(Math.max(0, deadline.left))} s left of mediahost:operationTimeoutSeconds, ` +
        `${seconds(this.deadlineMs)} s)`,
      attempts: e.attempts,
    });
  }

  private timedOut(call: PreparedCall, attempts: number, deadline: Deadline) {
    return new MediahostError({
      kind: "timeout",
      operation: call.name,
      subject: call.subject,
      serviceMessage:
        `no answer from ${this.host} within ${seconds(deadline.elapsed)} s ` +
        `(${attempts === 0 ? "waiting for a token" : `${attempts} attempt${attempts === 1 ? "" : "s"}`}; ` +
        `the deadline is mediahost:operationTimeoutSeconds, ${seconds(this.deadlineMs)} s)`,
      attempts,
    });
  }

  /** One attempt: the request and its whole answer, within `budgetMs`, or until `signal` aborts. */
  private async send(
    { spec, query, body, read }: PreparedCall,
    token: string | undefined,
    budgetMs: number,
    signal: AbortSignal,
  ): Promise<Answer> {
    const url = new URL(this.baseUrl + spec.path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { "user-agent": USER_AGENT, accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | Uint8Array | undefined;
    if (spec.rawBody) {
      const raw = body as { bytes: Uint8Array; contentType?: string };
      headers["content-type"] = raw.contentType ?? "application/octet-stream";
      payload = raw.bytes;
    } else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    // the signal bounds the body too: a body that trickles in never outlasts the attempt — except
    // a streamed one, which is bounded by its pace (bodyTimeout) once the answer has begun
    const controller = new AbortController();
    const abort = () => controller.abort(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
    const response = await send(url, {
      method: spec.method,
      headers,
      body: payload,
      headersTimeout: budgetMs,
      bodyTimeout: read ? this.attemptTimeoutMs : budgetMs,
      signal: controller.signal,
    }).finally(() => {
      if (read) signal.removeEventListener("abort", abort);
    });
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    if (ok && spec.response === "binary" && read) {
      return { status: response.statusCode, headers: response.headers, streamed: await read(response.body) };
    }
    if (ok && spec.response === "binary") {
      return {
        status: response.statusCode,
        headers: response.headers,
        bytes: await response.body.bytes(),
      };
    }
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  private parse({ name, subject, spec }: PreparedCall, answer: Answer) {
    if (answer.streamed !== undefined) return answer.streamed;
    if (spec.response === "binary") return answer.bytes ?? new Uint8Array();
    const text = answer.text ?? "";
    if (spec.response === "empty") return undefined;
    if (spec.response === "text") return text;
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new MediahostError({
        kind: "response",
        operation: name,
        subject,
        serviceMessage: "body is not JSON",
      });
    }
    // judged by what the provider reads of it, not by the documented shape (./reads.ts)
    const read = readAnswer(name as ReadOperation, json);
    if (!read.ok)
      throw new MediahostError({ kind: "response", operation: name, subject, serviceMessage: read.issues });
    return read.value;
  }

  private async token(): Promise<string> {
    return this.tokens.get(this.tokenKey, () => this.mint());
  }

  /** Settles once a call could go out: the token is in hand (minted once if need be), or could not be had. */
  async ready(): Promise<void> {
    await this.token().catch(() => {});
  }

  /** Asks the service for a token; goes through `call` so it gets the same retries. */
  private async mint(): Promise<IssuedToken> {
    this.stats.tokenRequests++;
    const issuedAt = Date.now();
    const result = await this.call("token", {
      body: { clientId: this.clientId, clientSecret: this.clientSecret, expiresIn: this.tokenLifetime },
    });
    return { token: result.token, renewAt: renewTime(issuedAt, result.expiresIn) };
  }

  private async backoffBefore(
    operation: string,
    attempt: number,
    reason: string,
    deadline: Deadline,
    asked?: number,
  ): Promise<void> {
    this.stats.retries++;
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (attempt - 1));
    // what the service asked for (Retry-After), spread a little so that waiting clients do not
    // all come back at once; else the backoff
    const wanted =
      asked === undefined
        ? ceiling / 2 + Math.floor((this.random() * ceiling) / 2)
        : asked + Math.floor(this.random() * 250);
    const delayMs = Math.max(0, Math.min(Math.floor(wanted), deadline.left));
    this.onEvent({ type: "retry", operation, attempt, reason, delayMs });
    await this.sleep(delayMs);
  }
}

function validate(
  operation: string,
  subject: string | undefined,
  part: "query" | "body",
  schema: z.ZodType | undefined,
  value: unknown,
): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  // an operation whose query fields are all optional may be called without one
  const result = schema.safeParse(value === undefined && part === "query" ? {} : value);
  if (result.success) return result.data as Record<string, unknown>;
  const issues = result.error.issues.map((issue) => ({
    field: [part, ...issue.path.map(String)].join("."),
    rule: issue.message,
  }));
  throw new MediahostError({ kind: "invalid", operation, subject, issues });
}

/** One attempt's answer, read whole. */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text?: string;
  bytes?: Uint8Array;
  /** What a streamed call's reader made of the body. */
  streamed?: unknown;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Whether an attempt ended because its time ran out (the signal, or the transport's timeouts). */
function isTimeout(err: unknown): boolean {
  const name = (err as { name?: string }).name;
  return name === "TimeoutError" || name === "AbortError";
}

/** The counters a call counts on (docs/api.md#rate-limits). */
const countersOf = (call: PreparedCall): string[] => [
  GLOBAL_COUNTER,
  ...(call.spec.counters?.({ query: call.query, body: call.body }) ?? []),
];

/** A call as `call` works with it: its contract, its policy and its validated parts. */
interface PreparedCall {
  name: OperationName;
  spec: OperationSpec;
  policy: OperationPolicy;
  subject?: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The input as the caller gave it, for the policy's functions. */
  input: OperationCall;
  /** For a streamed call: what reads the body of a successful answer. */
  read?: (body: AsyncIterable<Uint8Array>) => Promise<unknown>;
  /** Told, once the call is done, when the answer that completed it was made (its `Date`). */
  answered?: (at?: Date) => void;
}

/** An attempt's outcome: an answer, or none; and whether the service may have applied it. */
type Outcome = ({ answer: Answer } | { lost: { reason: string; timedOut: boolean } }) & {
  maybeApplied: boolean;
};

/** What the classifier tells the loop to do; `otherwise` is the error once that budget is spent. */
type Verdict =
  | { action: "done"; result: unknown; answeredAt?: Date }
  | {
      action: "repeat";
      /** Why, for the "may have been applied" error; `retryReason`, when given, for the retry event. */
      reason: string;
      retryReason?: string;
      checkApplied: boolean;
      timedOut: boolean;
      /** How long the service asked to wait (`Retry-After`), instead of the backoff. */
      waitMs?: number;
      otherwise: Error;
    }
  | { action: "waitForReset"; counter?: string; resetAt?: Date; otherwise: Error }
  | { action: "remint"; token: string; otherwise: Error }
  | { action: "fail"; error: Error };

/**
 * An operation's deadline, as a signal every wait of the call listens to. Waiting for a
 * rate-limit reset has its own bound, so the deadline moves by the time waited.
 */
class Deadline {
  private readonly started = Date.now();
  private endsAt: number;
  signal: AbortSignal;

  constructor(ms: number) {
    this.endsAt = this.started + ms;
    this.signal = AbortSignal.timeout(ms);
  }

  get left(): number {
    return this.endsAt - Date.now();
  }

  get elapsed(): number {
    return Date.now() - this.started;
  }

  extend(ms: number): void {
    this.endsAt += ms;
    this.signal = AbortSignal.timeout(Math.max(0, this.left));
  }

  /** One attempt's signal: the deadline's, or the attempt's own bound, whichever comes first. */
  attemptSignal(attemptMs: number): AbortSignal {
    return AbortSignal.any([this.signal, AbortSignal.timeout(attemptMs)]);
  }
}

/** `work`, unless `signal` aborts first: then the error `late` makes (the work is left to settle). */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal, late: () => Error): Promise<T> {
  work.catch(() => {}); // settled elsewhere (a shared token) or abandoned
  if (signal.aborted) return Promise.reject(late());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(late());
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
