// One error class for everything the client reports. It names the operation, the HTTP status,
// the service's own message and the path or alias concerned; it never carries a token or a
// secret (messages pass through `Redactor` before they get here).

/**
 * A failure the provider anticipated and explains in its message (bad configuration, a refusal to
 * act, a shape the service did not give): shown without a stack trace (provider/errors.ts).
 */
export class ProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "pulumi-mediahost";
    this.stack = message;
  }
}

export type MediahostErrorKind =
  | "http" // the service answered with an error status
  | "unsure" // no answer, and repeating could do the work twice: it may have been applied
  | "invalid" // the input broke a rule of the API; nothing was sent
  | "rateLimited" // a counter is exhausted and its reset is too far to wait for
  | "network" // no answer: connection refused or reset
  | "timeout" // no answer within the operation's deadline (or a job not finished within its own)
  | "job" // an asynchronous job the service ran reported a failure
  | "response"; // the answer does not have the documented shape

export interface MediahostErrorDetails {
  kind: MediahostErrorKind;
  operation: string;
  status?: number;
  serviceMessage?: string;
  /**
   * The service's name for the error, when its body gives one (file-system errors:
   * `PathExistsError`, `RiakFsError`, ...).
   */
  serviceName?: string;
  /** The path, alias or job the call was about. */
  subject?: string;
  /** For kind "rateLimited": the exhausted counter and when it resets. */
  counter?: string;
  resetAt?: Date;
  /** For kind "invalid": the fields and rules that failed. */
  issues?: { field: string; rule: string }[];
  /** Attempts made before giving up. */
  attempts?: number;
  /** For kind "unsure": what to check to learn whether the call was applied. */
  check?: string;
}

export class MediahostError extends Error implements MediahostErrorDetails {
  readonly kind: MediahostErrorKind;
  readonly operation: string;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly serviceName?: string;
  readonly subject?: string;
  readonly counter?: string;
  readonly resetAt?: Date;
  readonly issues?: { field: string; rule: string }[];
  readonly attempts?: number;
  readonly check?: string;

  constructor(details: MediahostErrorDetails) {
    super(describe(details));
    this.name = "MediahostError";
    this.kind = details.kind;
    this.operation = details.operation;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.serviceName = details.serviceName;
    this.subject = details.subject;
    this.counter = details.counter;
    this.resetAt = details.resetAt;
    this.issues = details.issues;
    this.attempts = details.attempts;
    this.check = details.check;
  }

  /**
   * The service said the object exists already (mkdir, copy, custom domain, sub-account): a 409, or
   * an error body under another status — the service documents mkdir of an existing path as HTTP
   * 200 with `{"name":"RiakFsError","message":"Path already exists: …"}` (docs/api.md#errors).
   */
  get isConflictExists(): boolean {
    // "File exists", "... already exists", "Custom domain already set: ..." (the same value again);
    // never "does not exist"
    const message = this.serviceMessage ?? "";
    return (
      this.kind === "http" &&
      (this.status === 409 || this.serviceName !== undefined) &&
      /exist|already/i.test(message) &&
      !/\bnot\s+exist|n't\s+exist|no such/i.test(message)
    );
  }

  /** The service said the object is not there. */
  get isNotFound(): boolean {
    return (
      this.kind === "http" &&
      (this.status === 404 ||
        (this.serviceName !== undefined && /no such file/i.test(this.serviceMessage ?? "")))
    );
  }

  /** The service refused to delete a folder that holds something. */
  get isNotEmpty(): boolean {
    return this.kind === "http" && /not empty/i.test(this.serviceMessage ?? "");
  }

  /** The path is a file where a folder was expected (e.g. a folder's path has become a file). */
  get isNotADirectory(): boolean {
    return (
      this.kind === "http" &&
      /not a directory/i.test(`${this.serviceName ?? ""} ${this.serviceMessage ?? ""}`)
    );
  }
}

function describe(d: MediahostErrorDetails): string {
  const about = d.subject ? ` (${d.subject})` : "";
  switch (d.kind) {
    case "invalid":
      return `${d.operation}${about}: invalid input: ${(d.issues ?? []).map((i) => `${i.field}: ${i.rule}`).join("; ")}`;
    case "rateLimited":
      return (
        `${d.operation}${about}: rate limit exceeded for counter ${d.counter ?? "unknown"}; ` +
        `it resets at ${d.resetAt ? d.resetAt.toISOString() : "an unknown time"}`
      );
    case "network":
      return `${d.operation}${about}: no answer from the service after ${d.attempts ?? 1} attempt(s): ${d.serviceMessage ?? "network error"}`;
    case "unsure":
      return `${d.operation}${about}: may have been applied (${d.serviceMessage ?? "no answer"}): check ${d.check ?? "the service"}`;
    case "timeout":
      return `${d.operation}${about}: ${d.serviceMessage ?? "no answer in time"}`;
    case "job":
      return `${d.operation}${about}: the job failed: ${d.serviceMessage ?? "no reason given"}`;
    case "response":
      return `${d.operation}${about}: unexpected response from the service: ${d.serviceMessage ?? ""}`;
    default:
      return `${d.operation}${about}: HTTP ${d.status}: ${d.serviceMessage ?? "no message"}`;
  }
}

/**
 * Removes known secret values (client secret, current token, secrets sent in a body) from
 * text that may reach an error message or a log line.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    // very short values would redact ordinary words; real secrets are longer
    if (value && value.length >= 4) this.secrets.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join("[redacted]");
    // bearer tokens the service might echo back
    return out.replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/g, "Bearer [redacted]");
  }
}
