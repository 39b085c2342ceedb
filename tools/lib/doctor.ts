// mediahost-doctor's checks: it reads an account the way the provider will, and says for each fact
// docs/api.md marks [likely] or [unknown] what the service answered, and which emulator variant
// (emulator/variants.ts) plays that answer. With a write probe it also makes and removes one
// folder and one small file under a prefix the user names, leaving nothing behind.
import { randomBytes } from "node:crypto";
import { errorText, fsErrorOf, HttpErrorBody, operations, SYSTEM_FOLDERS, schemas } from "mediahost-contract";
import type { z } from "zod";
import { type Credentials, type ReadOperation, readAnswer } from "../../provider/for-tools";
import { undocumentedKeys } from "./doctor-keys";
import { type Answer, Wire } from "./doctor-wire";

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

export interface DoctorOptions {
  credentials: Credentials;
  /** An absolute folder that must not exist: made, probed and removed. */
  writeProbe?: string;
  say: (line: string) => void;
  /** true once the run must stop (a signal): the probe then cleans up and throws `Interrupted`. */
  stopping?: () => boolean;
}

/** A problem with what the user asked (exit 2), not with the service. */
export class UsageError extends Error {}
export class Interrupted extends Error {}

/** Every value the output must never show; everything printed goes through `redact`. */
export class Secrets {
  private readonly values = new Set<string>();
  add(value: unknown): void {
    if (typeof value === "string" && value.length >= 4 && !/^\*+$/.test(value)) this.values.add(value);
  }
  redact(text: string): string {
    let out = text;
    for (const v of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(v).join("[hidden]");
    return out;
  }
}

/** Every item, none hidden in "and N more": each is a fact the user may need. */
const list = (items: string[]) => items.join(", ");
const fsError = (a: Answer) => fsErrorOf(a.text);
const isNoSuchFile = (a: Answer) => a.status === 404 || /no such file/i.test(fsError(a)?.message ?? "");
/** A write that succeeded: 2xx and no file-system error in its body (mkdir answers one under 200). */
const succeeded = (a: Answer) => a.status >= 200 && a.status < 300 && !fsError(a);
const said = (a: Answer) => `${a.status}${a.text ? ` ${errorText(a.text)}` : " (empty)"}`;
const asObject = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Where docs/api.md spells out an object that the contract lets through as any object. */
const DOCUMENTED: Record<string, Record<string, z.ZodType>> = {
  getAccount: { "fetching.s3": schemas.FetchingS3 },
  getMeta: { product: schemas.Product },
};

/** `where: path` of each field of a JSON answer that neither the contract nor docs/api.md names. */
function undocumentedIn(operation: keyof typeof operations, answer: Answer, where: string): string[] {
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
function departures(schema: z.ZodType, json: unknown): Departure[] {
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

class Facts {
  readonly rows: Fact[] = [];
  add(id: string, section: string, fact: string, expects: string): Row {
    const row: Fact = { id, fact, section, expects, answered: "", handled: "n/a" };
    this.rows.push(row);
    return new Row(row);
  }
}

class Row {
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

/** Runs every check; throws only when the service cannot be asked at all (no token, no account). */
export async function runDoctor(options: DoctorOptions, secrets: Secrets): Promise<DoctorReport> {
  const { credentials, say } = options;
  secrets.add(credentials.clientSecret);
  const wire = new Wire(credentials.baseUrl, say);
  const facts = new Facts();
  const extras: string[] = [];
  const walk = (operation: keyof typeof operations, answer: Answer, where: string) =>
    extras.push(...undocumentedIn(operation, answer, where));
  // an answer is judged as the provider reads it (provider/client/reads.ts): a field it reads that
  // is missing or of another type is a NO; each way it departs from the documented shape
  // otherwise is a row of its own, handled
  const schemaRow = (id: string, section: string, fact: string, operation: ReadOperation, a: Answer) => {
    const row = facts.add(id, section, fact, "200 with every field the provider reads");
    if (a.status !== 200) return row.no(said(a));
    const read = readAnswer(operation, a.json);
    if (!read.ok) row.no(`the provider cannot read it: ${read.issues}`);
    else row.documented("200; every field the provider reads is there");
    for (const d of departures(operations[operation].response as z.ZodType, a.json))
      facts.add(`${id}:${d.path}`, section, `${fact}: \`${d.path}\``, d.documented).documented(d.answered);
    walk(operation, a, fact);
  };

  // the token
  say(`asking ${credentials.baseUrl} for a token`);
  const token = await wire.call("POST", "/v2/token", {
    auth: false,
    body: { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
  });
  const tokenValue = asObject(token.json)?.token;
  secrets.add(tokenValue);
  if (token.status !== 200 || typeof tokenValue !== "string")
    throw new Error(`POST /v2/token: the service gave no token: ${said(token)}`);
  wire.token = tokenValue;
  schemaRow("token", "authentication-and-tokens", "token answer", "token", token);
  const scope = asObject(token.json)?.scope;
  const scopeRow = facts.add(
    "token-scope",
    "authentication-and-tokens",
    "token scope's form [live]",
    "an array holding one space-separated string (the documentation: one scope an element)",
  );
  // nothing reads the scope: every form is handled, and the row says which one the service uses
  if (Array.isArray(scope) && scope.length === 1 && /\s/.test(String(scope[0])))
    scopeRow.documented("an array holding one space-separated string, as the live service answers");
  else if (Array.isArray(scope))
    scopeRow.variant("documented-shapes", `an array of ${scope.length} scopes, as documented`);
  else if (typeof scope === "string") scopeRow.variant("token-scope-string", "one space-separated string");
  else scopeRow.documented(`${scope === undefined ? "no scope" : `a ${typeof scope}`} (nothing reads it)`);

  // the account
  say("reading the account");
  const account = await wire.call("GET", "/v2/account");
  if (account.status !== 200) throw new Error(`GET /v2/account: ${said(account)}`);
  const acc = asObject(account.json) ?? {};
  const fetching = asObject(acc.fetching);
  const http = asObject(fetching?.http);
  const auth = asObject(http?.auth);
  const s3 = asObject(fetching?.s3);
  for (const v of [auth?.password, s3?.secretAccessKey, s3?.accessKeyId]) secrets.add(v);
  if (typeof http?.url === "string") {
    try {
      const u = new URL(http.url);
      secrets.add(decodeURIComponent(u.password));
      secrets.add(u.password);
    } catch {
      // not a URL: nothing to hide in it
    }
  }
  schemaRow("account", "account", "account answer", "getAccount", account);

  const missing: string[] = schemas.ACCOUNT_READ_ONLY_FIELDS.filter((k) => acc[k] === undefined);
  if (fetching && fetching.maxFilesize === undefined) missing.push("fetching.maxFilesize");
  const sparseRow = facts.add(
    "account-read-only",
    "account",
    "account's read-only fields [likely]",
    "`dateCreated`, `fileSizeLimit`, `cdnURL`, `cdnTempURL`, `fetching.maxFilesize`, `status`, …",
  );
  if (missing.length === 0) sparseRow.documented("all of them");
  else sparseRow.variant("sparse-answers", `without ${list(missing)}`);

  const secretRow = facts.add(
    "fetching-secrets",
    "account",
    "fetching secrets [likely]",
    'never in clear (`""`)',
  );
  const shown = [
    ["fetching.http.auth.password", auth?.password],
    ["fetching.s3.secretAccessKey", s3?.secretAccessKey],
  ].filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== "");
  const masked = shown.filter(([, v]) => /^\*+$/.test(v));
  const clear = shown.filter(([, v]) => !/^\*+$/.test(v));
  if (clear.length)
    secretRow.variant(
      "secrets-clear",
      clear.map(([k, v]) => `${k} in clear (${v.length} characters)`).join("; "),
    );
  else if (masked.length)
    secretRow.variant("secrets-masked", masked.map(([k, v]) => `${k} masked (\`${v}\`)`).join("; "));
  else if (auth?.enabled === true || s3) secretRow.documented("empty");
  else secretRow.documented("not observable here (no fetching password or S3 secret is set)");

  const aliases = asObject(acc.aliases) ?? {};
  const withDomain = Object.entries(aliases).filter(([, e]) => typeof asObject(e)?.customDomain === "string");
  const domainRow = facts.add(
    "custom-domain",
    "account",
    "custom domain read back [likely]",
    "`aliases.<name>.customDomain`",
  );
  if (withDomain.length) domainRow.documented(`shown on ${list(withDomain.map(([n]) => n))}`);
  else
    domainRow.variant(
      "custom-domain-hidden",
      "not observable here (no alias shows one; if the account has custom domains, the service hides them)",
    );

  // files: the root, one folder, its options and meta
  say("listing / and reading one folder");
  const root = await wire.call("GET", "/v2/files/readdir", { query: { dirname: "/" } });
  schemaRow("readdir", "files-and-folders", "readdir /", "readdir", root);
  const listed = asObject(root.json)?.contents;
  const contents = (Array.isArray(listed) ? listed : []) as { filename?: unknown; isDirectory?: unknown }[];
  const folders = contents
    .filter((e) => e?.isDirectory === true && typeof e.filename === "string")
    .map((e) => `/${e.filename as string}`);
  const system = folders.filter((f) => Object.hasOwn(SYSTEM_FOLDERS, f));
  const systemRow = facts.add(
    "system-folders",
    "files-and-folders",
    "the account's system folders [live]",
    "`/.Trash`, `/.processed`, `/.well-known`, `/Profiles`, `/Shared` at the root",
  );
  if (system.length === 0) systemRow.documented("none at the root");
  else
    systemRow.documented(
      `${list(system)}: the account's own; the provider never declares, adopts, moves, deletes or writes into ` +
        "them, generate leaves them out, and a program that declares one fails at preview" +
        (system.includes("/Profiles") ? "; the .profile files in /Profiles stay manageable as files" : ""),
    );
  // a folder of the user's, where there is one: the system folders answer in shapes of their own
  const folder = folders.find((f) => !Object.hasOwn(SYSTEM_FOLDERS, f)) ?? folders[0] ?? "/";
  schemaRow(
    "stat",
    "files-and-folders",
    `stat ${folder}`,
    "stat",
    await wire.call("GET", "/v2/files/stat", { query: { filename: folder } }),
  );
  schemaRow(
    "options",
    "folder-options",
    `folder options of ${folder}`,
    "getFolderOptions",
    await wire.call("GET", "/v2/files/options", { query: { filename: folder } }),
  );
  schemaRow(
    "meta",
    "meta",
    `meta of ${folder}`,
    "getMeta",
    await wire.call("GET", "/v2/files/meta", { query: { filename: folder } }),
  );

  // errors: a path that does not exist, and an API error
  const nowhere = `/mediahost-doctor-${randomBytes(6).toString("hex")}`;
  const missingAnswer = await wire.call("GET", "/v2/files/stat", { query: { filename: nowhere } });
  const missingRow = facts.add(
    "fs-error-status",
    "errors",
    "a missing path's status [unknown]",
    "404 `{name, message}` No such file or directory",
  );
  const noSuch = /no such file/i.test(fsError(missingAnswer)?.message ?? "");
  if (missingAnswer.status === 404) missingRow.documented(said(missingAnswer));
  else if (noSuch && missingAnswer.status === 400) missingRow.variant("fs-errors-400", said(missingAnswer));
  else if (noSuch && missingAnswer.status === 200)
    missingRow.variant("fs-errors-200", `200 ${errorText(missingAnswer.text)}`);
  else missingRow.no(said(missingAnswer));

  const apiError = await wire.call("GET", "/v2/files/stat");
  const apiRow = facts.add(
    "api-error-body",
    "errors",
    "an API error's body [likely]",
    "hapi JSON `{statusCode, error, message}`",
  );
  const body = asObject(apiError.json);
  // the provider reads an error's text from `message`, then `error`, then `name` (docs/api.md#errors)
  const readable = ["message", "error", "name"].some((k) => typeof body?.[k] === "string");
  if (apiError.status < 400) apiRow.no(`${said(apiError)} (a stat without a path succeeded)`);
  else if (apiError.json !== undefined && HttpErrorBody.safeParse(apiError.json).success)
    apiRow.documented(`${apiError.status} JSON: ${errorText(apiError.text)}`);
  else if (body && readable)
    apiRow.documented(
      `${apiError.status} JSON \`{${Object.keys(body).join(", ")}}\`, read as the provider reads it: ${errorText(apiError.text)}`,
    );
  else if (apiError.json === undefined)
    apiRow.variant("errors-plain", `${apiError.status} text: ${errorText(apiError.text)}`);
  else apiRow.no(`${apiError.status} JSON with no message, error or name: ${errorText(apiError.text)}`);

  // tus
  const locations = await wire.call("GET", "/v2/files/tus/locations");
  const tusRow = facts.add(
    "tus-locations",
    "uploads-and-fetches",
    "tus locations [unknown]",
    "an array of names",
  );
  const locs = Array.isArray(locations.json) ? (locations.json as unknown[]) : undefined;
  let location: string | undefined;
  if (locations.status !== 200 || !locs) tusRow.no(said(locations));
  else if (locs.every((l) => typeof l === "string")) {
    tusRow.documented(`[${list(locs as string[])}]`);
    location = locs[0] as string | undefined;
  } else if (locs.every((l) => typeof asObject(l)?.name === "string")) {
    location = asObject(locs[0])?.name as string | undefined;
    tusRow.variant("tus-bare", "`[{name}]` objects");
  } else tusRow.no(`an array of ${list(locs.map((l) => typeof l))}`);
  const urlRow = facts.add("tus-url", "uploads-and-fetches", "tus upload link [unknown]", "`{url}`");
  if (location === undefined) urlRow.unobserved("not asked: no location");
  else {
    const link = await wire.call("GET", "/v2/files/tus/url", { query: { location, expiresIn: "60" } });
    const url = asObject(link.json)?.url;
    secrets.add(typeof url === "string" ? url : typeof link.json === "string" ? link.json : undefined);
    if (link.status === 200 && typeof url === "string") urlRow.documented("`{url}`");
    else if (link.status === 200 && typeof link.json === "string")
      urlRow.variant("tus-bare", "a bare JSON string");
    else urlRow.no(link.status === 200 ? "an answer without a URL" : said(link));
  }

  if (options.writeProbe) await writeProbe(wire, facts, options.writeProbe, options, extras);
  else
    for (const [id, fact, section, expects] of WRITE_FACTS)
      facts.add(id, section, fact, expects).unobserved("not observed (run with --write-probe PREFIX)");

  // what holds of every answer
  const served = wire.answers.filter((a) => a.call !== "POST /v2/token");
  const withRate = served.filter(({ answer: a }) =>
    Object.keys(a.headers).some((h) => h.startsWith("x-ratelimit-") || h.startsWith("x-global-ratelimit-")),
  );
  const rateRow = facts.add(
    "rate-headers",
    "rate-limits",
    "rate-limit headers",
    "`x-ratelimit-*`, `x-global-ratelimit-*`",
  );
  if (withRate.length) rateRow.documented(`on ${withRate.length} of ${served.length} answers`);
  else rateRow.variant("rate-headers-absent", `none on ${served.length} answers`);
  const undated = wire.answers.filter(({ answer: a }) => !a.headers.date);
  const dateRow = facts.add(
    "date-header",
    "uploads-and-fetches",
    "`Date` header [unknown]",
    "on every answer",
  );
  if (undated.length === 0) dateRow.documented(`on all ${wire.answers.length} answers`);
  else dateRow.variant("no-date-header", `missing on ${undated.length} of ${wire.answers.length} answers`);
  const extraRow = facts.add("extra-fields", "errors", "fields nobody documents", "only documented fields");
  if (extras.length === 0) extraRow.documented("only documented fields");
  else extraRow.variant("extra-fields", `${extras.length} undocumented: ${list(extras)}`);
  const gatewayRow = facts.add("gateway", "errors", "a gateway in front", "no 502/503/504");
  if (wire.gateway.length === 0) gatewayRow.documented("none");
  else {
    const html = wire.gateway.filter((g) => g.html).length;
    gatewayRow.variant(
      "gateway-502",
      `${wire.gateway.length} answers ${list([...new Set(wire.gateway.map((g) => String(g.status)))])}` +
        `${html ? ` (${html} HTML pages)` : ""}, each repeated`,
    );
  }
  for (const [variant, [section, fact, expects, why]] of Object.entries(UNOBSERVED))
    facts.add(`unobserved-${variant}`, section, fact, expects).unobserved(`not observed: ${why}`, variant);

  // what a read shows, then what holds of every answer, then what a write shows, then the rest
  const group = (f: Fact) =>
    f.id.startsWith("unobserved-")
      ? 3
      : WRITE_FACTS.some(([id]) => id === f.id)
        ? 2
        : GLOBAL.has(f.id)
          ? 1
          : 0;
  facts.rows.sort((a, b) => group(a) - group(b));
  return {
    baseUrl: credentials.baseUrl,
    account: typeof acc.alias === "string" ? acc.alias : undefined,
    ...(options.writeProbe ? { writeProbe: options.writeProbe } : {}),
    facts: facts.rows,
    ok: facts.rows.every((f) => f.handled !== "NO"),
  };
}

const GLOBAL = new Set(["rate-headers", "date-header", "extra-fields", "gateway"]);

/** The facts only a write shows: [id, fact, section, what docs/api.md expects]. */
const WRITE_FACTS = [
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

const PROBE_FILE = "probe.mediahost-doctor";
const depth = (p: string) => p.split("/").length;

async function writeProbe(
  wire: Wire,
  facts: Facts,
  prefix: string,
  options: DoctorOptions,
  extras: string[],
) {
  const { say } = options;
  const rows = Object.fromEntries(
    WRITE_FACTS.map(([id, fact, section, expects]) => [id, facts.add(id, section, fact, expects)]),
  );
  const expect = (id: (typeof WRITE_FACTS)[number][0]) => rows[id] as Row;
  const check = () => {
    if (options.stopping?.()) throw new Interrupted("interrupted");
  };
  // what the probe may have made (asked for, answered or not): removed deepest first
  const made = new Set<string>();
  const writes: number[] = [];
  const write = async (
    method: "POST" | "DELETE",
    path: string,
    input: Parameters<Wire["call"]>[2],
    makes: string[] = [],
  ) => {
    check();
    for (const p of makes) made.add(p);
    const a = await wire.call(method, path, input);
    if (succeeded(a)) writes.push(a.status);
    else for (const p of makes) made.delete(p);
    return a;
  };

  const before = await wire.call("GET", "/v2/files/stat", { query: { filename: prefix } });
  if (succeeded(before))
    throw new UsageError(`--write-probe ${prefix}: it exists; name a folder that does not exist`);
  if (!isNoSuchFile(before)) throw new Error(`GET /v2/files/stat ${prefix}: ${said(before)}`);
  // a deleted file moves to the trash (docs/api.md#files-and-folders): the probe's copies there are
  // removed too, unless the trash held that folder before the probe (then only its own file's)
  const trash = `/.Trash${prefix}`;
  const trashHeld = succeeded(await wire.call("GET", "/v2/files/stat", { query: { filename: trash } }));
  const trashed: string[] = [];
  const parent = prefix.slice(0, prefix.lastIndexOf("/")) || "/";
  if (parent !== "/") {
    const p = await wire.call("GET", "/v2/files/stat", { query: { filename: parent } });
    if (!succeeded(p) || asObject(p.json)?.isDirectory !== true)
      throw new UsageError(`--write-probe ${prefix}: its parent ${parent} is not a folder of the account`);
  }
  try {
    say(`write probe under ${prefix}`);
    const mkdir = (dirname: string, makes: string[]) =>
      write("POST", "/v2/files/mkdir", { query: { dirname } }, makes);
    const made0 = await mkdir(prefix, [prefix]);
    if (!succeeded(made0)) throw new Error(`mkdir ${prefix}: ${said(made0)}`);

    const again = await mkdir(prefix, []);
    const exists = /exist/i.test(fsError(again)?.message ?? errorText(again.text));
    const existsRow = expect("mkdir-exists");
    if (again.status === 200 && exists) existsRow.documented(said(again));
    else if (again.status === 409) existsRow.variant("mkdir-exists-409", said(again));
    else if (again.status === 400 && exists) existsRow.variant("fs-errors-400", said(again));
    else existsRow.no(said(again));

    const orphan = `${prefix}/no-parent/child`;
    const deep = await mkdir(orphan, [`${prefix}/no-parent`, orphan]);
    const parentsRow = expect("mkdir-parents");
    if (succeeded(deep)) parentsRow.variant("mkdir-parents", `${deep.status}: made the parent too`);
    else if (isNoSuchFile(deep)) parentsRow.documented(said(deep));
    else parentsRow.no(said(deep));

    const bytes = new TextEncoder().encode("mediahost-doctor probe\n");
    const upload = (filename: string, makes: string[]) =>
      write("POST", "/v2/files/upload", { query: { filename }, bytes, contentType: "text/plain" }, makes);
    // a name whose extension no table knows: a type taken from the name cannot be the one sent
    let file: string | undefined = `${prefix}/no-folder/${PROBE_FILE}`;
    const intoMissing = await upload(file, [`${prefix}/no-folder`, file]);
    const uploadRow = expect("upload-mkdir");
    if (succeeded(intoMissing)) uploadRow.documented(`${intoMissing.status}: made the folder`);
    else if (isNoSuchFile(intoMissing)) {
      uploadRow.variant("upload-no-mkdir", said(intoMissing));
      file = `${prefix}/${PROBE_FILE}`;
      const direct = await upload(file, [file]);
      if (!succeeded(direct)) {
        uploadRow.no(`${said(intoMissing)}; into ${prefix} too: ${said(direct)}`);
        file = undefined;
      }
    } else {
      uploadRow.no(said(intoMissing));
      file = undefined;
    }

    const typeRow = expect("content-type");
    if (file) {
      check();
      const st = await wire.call("GET", "/v2/files/stat", { query: { filename: file } });
      const type = asObject(st.json)?.contentType;
      if (!succeeded(st)) typeRow.no(`stat: ${said(st)}`);
      else if (type === "application/octet-stream")
        typeRow.documented(`${type} (from the name \`${PROBE_FILE}\`)`);
      else if (type === "text/plain") typeRow.variant("content-type-declared", String(type));
      else typeRow.no(String(type));
    } else typeRow.unobserved("not observed: no file was uploaded");

    const setOptions = (body: Record<string, boolean>) =>
      write("POST", "/v2/files/options", { query: { filename: prefix }, body });
    const optionsRow = expect("options-post");
    const o1 = await setOptions({ scanSpins: true });
    const o2 = await setOptions({ allowListing: false });
    check();
    const opts = await wire.call("GET", "/v2/files/options", { query: { filename: prefix } });
    extras.push(...undocumentedIn("getFolderOptions", opts, `folder options of ${prefix}`));
    const got = asObject(opts.json) ?? {};
    const shownOpts = JSON.stringify(opts.json);
    if (!succeeded(o1) || !succeeded(o2)) optionsRow.no(`POST: ${said(succeeded(o1) ? o2 : o1)}`);
    else if (got.allowListing === false && got.scanSpins === undefined)
      optionsRow.documented(`kept the last: ${shownOpts}`);
    else if (got.allowListing === false && got.scanSpins === true)
      optionsRow.variant("options-merge", `kept both: ${shownOpts}`);
    else optionsRow.no(`${opts.status} ${shownOpts}`);

    const gone = await write("POST", "/v2/files/delete", { query: { filename: `${prefix}/never-made` } });
    const deleteRow = expect("delete-missing");
    if (succeeded(gone)) deleteRow.variant("delete-missing-ok", `${gone.status} (empty)`);
    else if (isNoSuchFile(gone)) deleteRow.documented(said(gone));
    else deleteRow.no(said(gone));

    const poiAgain = expect("poi-set-again");
    const poiMissing = expect("poi-delete-missing");
    if (file) {
      const point = { name: "mediahost-doctor", x: 0.1, y: 0.1, width: 0.2, height: 0.2 };
      const p1 = await write("POST", "/v2/files/poi", { query: { filename: file }, body: point });
      const p2 = await write("POST", "/v2/files/poi", {
        query: { filename: file },
        body: { ...point, x: 0.3 },
      });
      if (!succeeded(p1)) poiAgain.no(`the first set: ${said(p1)}`);
      else if (succeeded(p2)) poiAgain.documented(`${p2.status}: replaced`);
      else if (p2.status === 409) poiAgain.variant("poi-set-conflict", said(p2));
      else poiAgain.no(said(p2));
      const d = await write("DELETE", "/v2/files/poi", {
        query: { filename: file },
        body: { name: "mediahost-doctor-none" },
      });
      if (d.status === 404) poiMissing.documented(said(d));
      else if (succeeded(d)) poiMissing.variant("poi-delete-missing-ok", `${d.status} (empty)`);
      else poiMissing.no(said(d));
    } else {
      poiAgain.unobserved("not observed: no file was uploaded");
      poiMissing.unobserved("not observed: no file was uploaded");
    }

    const trashRow = expect("delete-trash");
    if (file) {
      const removed = await write("POST", "/v2/files/delete", { query: { filename: file } });
      if (!succeeded(removed)) trashRow.no(`delete: ${said(removed)}`);
      else {
        made.delete(file);
        check();
        const copy = `/.Trash${file}`;
        const there = await wire.call("GET", "/v2/files/stat", { query: { filename: copy } });
        if (succeeded(there)) {
          trashed.push(copy);
          trashRow.documented(`moved to ${copy}`);
        } else if (isNoSuchFile(there)) trashRow.variant("delete-final", "gone, and not in `/.Trash`");
        else trashRow.no(`stat ${copy}: ${said(there)}`);
      }
    } else trashRow.unobserved("not observed: no file was uploaded");
  } finally {
    const left = await removeAll(wire, [...made], say);
    // a delete inside the trash is final
    left.push(...(await removeAll(wire, trashHeld ? trashed : await treeUnder(wire, trash), say)));
    const after = await wire
      .call("GET", "/v2/files/stat", { query: { filename: prefix } })
      .catch(() => undefined);
    if (after && !isNoSuchFile(after) && !left.includes(prefix)) left.push(prefix);
    const cleanRow = expect("probe-cleanup");
    if (left.length) cleanRow.no(`could not remove ${list(left)}: remove them by hand`);
    else cleanRow.documented(`removed the ${made.size} paths it made`);
    const statusRow = expect("writes-status");
    const statuses = [...new Set(writes)];
    if (statuses.every((s) => s === 200)) statusRow.documented(`200 on all ${writes.length} writes`);
    else if (statuses.every((s) => s === 200 || s === 204))
      statusRow.variant(
        "writes-204",
        `204 on ${writes.filter((s) => s === 204).length} of ${writes.length} writes`,
      );
    else statusRow.no(list(statuses.map(String)));
  }
}

/** `folder` and every path under it (none when it does not exist). */
async function treeUnder(wire: Wire, folder: string): Promise<string[]> {
  const paths: string[] = [];
  const walk = async (dir: string): Promise<boolean> => {
    let continuation: string | undefined;
    do {
      const query: Record<string, string> = { dirname: dir, ...(continuation ? { continuation } : {}) };
      const page = await wire.call("GET", "/v2/files/readdir", { query });
      if (!succeeded(page)) return false;
      const json = asObject(page.json);
      for (const e of (Array.isArray(json?.contents) ? json.contents : []) as {
        filename?: unknown;
        isDirectory?: unknown;
      }[]) {
        if (typeof e?.filename !== "string") continue;
        const path = `${dir}/${e.filename}`;
        paths.push(path);
        if (e.isDirectory === true) await walk(path);
      }
      continuation = typeof json?.continuation === "string" ? json.continuation : undefined;
    } while (continuation);
    return true;
  };
  if (await walk(folder)) paths.push(folder);
  return paths;
}

/** Deletes `paths` deepest first; a path already gone is fine. Answers the paths that remain. */
async function removeAll(wire: Wire, paths: string[], say: (line: string) => void): Promise<string[]> {
  const left: string[] = [];
  for (const path of paths.sort((a, b) => depth(b) - depth(a) || b.localeCompare(a))) {
    try {
      const a = await wire.call("POST", "/v2/files/delete", { query: { filename: path } });
      if (!succeeded(a) && !isNoSuchFile(a)) {
        say(`could not remove ${path}: ${said(a)}`);
        left.push(path);
      }
    } catch (err) {
      say(`could not remove ${path}: ${err instanceof Error ? err.message : String(err)}`);
      left.push(path);
    }
  }
  if (paths.length)
    say(
      left.length ? `${left.length} paths left behind` : `removed the ${paths.length} paths the probe made`,
    );
  return left;
}

const WIDTHS = [44, 36, 48, 24];

/** `text` in lines of at most `width` characters, broken between words where it can be. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    for (let w = word; w.length > 0; ) {
      const room = line ? width - line.length - 1 : width;
      if (w.length <= room) {
        line = line ? `${line} ${w}` : w;
        w = "";
      } else if (line && w.length <= width) {
        lines.push(line);
        line = "";
      } else {
        lines.push(line ? `${line} ${w.slice(0, room)}` : w.slice(0, room));
        line = "";
        w = w.slice(room);
      }
    }
  }
  return [...lines, line];
}

/** The report as a table, one row per fact, its cells wrapped. */
export function renderTable(report: DoctorReport): string {
  const header = [
    "fact (section of docs/api.md)",
    "docs/api.md expects",
    "the service answered",
    "provider handles it",
  ];
  const rows = report.facts.map((f) => [
    `${f.fact} (#${f.section})`,
    f.expects,
    f.answered,
    f.handled === "yes" && f.variant
      ? `yes: ${f.variant}`
      : f.handled === "n/a" && f.variant
        ? `n/a (${f.variant})`
        : f.handled,
  ]);
  const cells = rows.map((r) => r.map((c, i) => wrap(c, WIDTHS[i] as number)));
  const widths = header.map((h, i) =>
    Math.max(h.length, ...cells.flatMap((r) => (r[i] as string[]).map((l) => l.length))),
  );
  const line = (parts: string[]) =>
    parts
      .map((c, i) => c.padEnd(widths[i] as number))
      .join(" | ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("-+-");
  const body = cells.flatMap((r) => {
    const height = Math.max(...r.map((c) => c.length));
    return Array.from({ length: height }, (_, k) => line(r.map((c) => c[k] ?? "")));
  });
  const failing = report.facts.filter((f) => f.handled === "NO");
  const mode = report.writeProbe ? `, write probe under ${report.writeProbe}` : ", read-only";
  return [
    `${report.baseUrl}${report.account ? ` (account ${report.account})` : ""}${mode}`,
    line(header),
    rule,
    ...body,
    rule,
    failing.length
      ? `${failing.length} fact${failing.length === 1 ? "" : "s"} the provider does not handle: ` +
        failing.map((f) => f.fact).join("; ")
      : "every fact observed holds or is handled",
  ].join("\n");
}
