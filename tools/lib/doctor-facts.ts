// mediahost-doctor's facts: what it gathers, a row per fact docs/api.md marks [likely] or
// [unknown], and how an answer is judged against its documented shape.
import { operations, schemas } from "mediahost-contract";
import type { z } from "zod";
import { undocumentedKeys } from "./doctor-keys";
import type { Answer } from "./doctor-wire";

/**
 * The variants the doctor can tell apart from the documented answer. The published package does
 * not ship the emulator, so the names are spelled here; a test checks them against its list.
 */
export const RECOGNISED = [
  "documented-shapes",
  "token-scope-string",
  "errors-plain",
  "fs-errors-400",
  "fs-errors-200",
  "rate-headers-absent",
  "secrets-masked",
  "secrets-clear",
  "custom-domain-hidden",
  "sparse-answers",
  "extra-fields",
  "gateway-502",
  "no-date-header",
  "tus-bare",
  "mkdir-exists-409",
  "mkdir-parents",
  "upload-no-mkdir",
  "content-type-declared",
  "delete-final",
  "writes-204",
  "options-merge",
  "delete-missing-ok",
  "poi-set-conflict",
  "poi-delete-missing-ok",
] as const;
export type Recognised = (typeof RECOGNISED)[number];

/** The variants only a write the doctor never makes, or data it does not have, would show. */
export const UNOBSERVED = {
  "aliases-replace": [
    "account",
    "alias update [unknown]",
    "merges entries by name",
    "it would change the account",
  ],
  "subaccount-empty": [
    "custom-domains-and-sub-accounts",
    "sub-account creation answer [unknown]",
    "`{alias}`",
    "it would create a sub-account",
  ],
  "fetch-attempt-alt": [
    "uploads-and-fetches",
    "a fetch attempt's details [unknown]",
    "`result.code` a number",
    "it would fetch a remote file",
  ],
  "jobs-progress-only": [
    "jobs",
    "job states [unknown]",
    "`status` in a job's answer",
    "it would start a job",
  ],
  "spin-views-alt": [
    "statistics",
    "spin views' unknown parts [unknown]",
    '`Other`, `""`',
    "it needs real views",
  ],
  "events-alt": [
    "users-and-events",
    "an event's contentLength [unknown]",
    "the announced length",
    "it needs a fetch",
  ],
} as const;

/** Whether the provider handles an answer: "yes" (documented, or a variant), "NO", "n/a" (not observed). */
export type Handled = "yes" | "NO" | "n/a";

export interface Fact {
  /** Stable, for --json and tests. */
  id: string;
  fact: string;
  /** The docs/api.md section (its anchor). */
  section: string;
  expects: string;
  answered: string;
  handled: Handled;
  /** The emulator variant that plays this answer (none: the documented answer, or no variant). */
  variant?: string;
}

export interface DoctorReport {
  baseUrl: string;
  account?: string;
  writeProbe?: string;
  facts: Fact[];
  /** Every fact holds or is handled. */
  ok: boolean;
}

/** Where docs/api.md spells out an object that the contract lets through as any object. */
const DOCUMENTED: Record<string, Record<string, z.ZodType>> = {
  getAccount: { "fetching.s3": schemas.FetchingS3 },
  getMeta: { product: schemas.Product },
};

/** `where: path` of each field of a JSON answer that neither the contract nor docs/api.md names. */
export function undocumentedIn(operation: keyof typeof operations, answer: Answer, where: string): string[] {
  const { response } = operations[operation];
  if (answer.json === undefined || typeof response === "string") return [];
  return undocumentedKeys(answer.json, response, DOCUMENTED[operation] ?? {}).map((k) => `${where}: ${k}`);
}

/** One way an answer departs from its documented shape. */
interface Departure {
  /** The field, a list's elements as `[]`. */
  path: string;
  documented: string;
  answered: string;
}

/**
 * Where `json` departs from the documented `schema`, one entry per field and way (a field `null` in
 * many entries of a listing is one departure): what the documentation expects and what came.
 */
export function departures(schema: z.ZodType, json: unknown): Departure[] {
  const result = schema.safeParse(json);
  if (result.success) return [];
  const byField = new Map<string, Departure & { count: number }>();
  for (const issue of result.error.issues) {
    const path =
      issue.path.map((p) => (typeof p === "number" ? "[]" : String(p))).join(".") || "(the answer)";
    const got = /received (\w+)/.exec(issue.message)?.[1];
    const came = got === "undefined" ? "missing" : got === "null" ? "null" : got ? `a ${got}` : issue.message;
    const expected = /expected (\w+)/.exec(issue.message)?.[1];
    const key = `${path}\0${came}`;
    const seen = byField.get(key);
    if (seen) seen.count++;
    else
      byField.set(key, {
        path,
        documented: expected ? `a ${expected}` : issue.message,
        answered: came,
        count: 1,
      });
  }
  return [...byField.values()].map(({ count, ...d }) => ({
    ...d,
    answered: `${d.answered}${count > 1 ? ` (${count} times)` : ""}: handled (read as absent, its default, or not read at all)`,
  }));
}

export class Facts {
  readonly rows: Fact[] = [];
  add(id: string, section: string, fact: string, expects: string): Row {
    const row: Fact = { id, fact, section, expects, answered: "", handled: "n/a" };
    this.rows.push(row);
    return new Row(row);
  }
}

export class Row {
  constructor(readonly fact: Fact) {}
  documented(answered: string): void {
    Object.assign(this.fact, { answered, handled: "yes" });
  }
  variant(name: Recognised, answered: string): void {
    Object.assign(this.fact, { answered, handled: "yes", variant: name });
  }
  no(answered: string): void {
    Object.assign(this.fact, { answered, handled: "NO" });
  }
  unobserved(answered: string, variant?: string): void {
    Object.assign(this.fact, { answered, handled: "n/a", ...(variant ? { variant } : {}) });
  }
}

/** The facts that hold of every answer the service gave. */
export const GLOBAL = new Set(["rate-headers", "date-header", "extra-fields", "gateway"]);

/** The facts only a write shows: [id, fact, section, what docs/api.md expects]. */
export const WRITE_FACTS = [
  ["mkdir-exists", "mkdir of an existing path", "errors", "200 `{name, message}` Path already exists"],
  [
    "mkdir-parents",
    "mkdir under a missing parent [likely]",
    "files-and-folders",
    "fails: No such file or directory",
  ],
  [
    "upload-mkdir",
    "upload into a missing folder [unknown]",
    "uploads-and-fetches",
    "makes the folder (emulator)",
  ],
  [
    "content-type",
    "an upload's content type [live]",
    "uploads-and-fetches",
    "from the name: application/octet-stream",
  ],
  ["options-post", "folder options POST [unknown]", "folder-options", "replaces the set (emulator)"],
  [
    "delete-missing",
    "delete of a missing path [likely]",
    "files-and-folders",
    "fails: No such file or directory",
  ],
  ["poi-set-again", "a point set again by name [unknown]", "points-of-interest", "replaces it (emulator)"],
  [
    "poi-delete-missing",
    "delete of a missing point [unknown]",
    "points-of-interest",
    "404 Point of interest not found",
  ],
  ["delete-trash", "a deleted file [likely]", "files-and-folders", "moves to `/.Trash` + its path"],
  ["writes-status", "a bodiless write's success", "custom-domains-and-sub-accounts", "200 (empty)"],
  ["probe-cleanup", "the probe left nothing behind", "files-and-folders", "nothing left under the prefix"],
] as const;

/** What a read shows, then what holds of every answer, then what a write shows, then the rest. */
export function ordered(rows: Fact[]): Fact[] {
  const group = (f: Fact) =>
    f.id.startsWith("unobserved-")
      ? 3
      : WRITE_FACTS.some(([id]) => id === f.id)
        ? 2
        : GLOBAL.has(f.id)
          ? 1
          : 0;
  return rows.sort((a, b) => group(a) - group(b));
}
