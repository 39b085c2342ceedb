// mediahost-doctor's probe: its calls to the service, read as the provider reads, each answer a
// fact. A write probe makes a folder and a file under a prefix, and removes all it made.
import { randomBytes } from "node:crypto";
import { errorText, fsErrorOf, HttpErrorBody, operations, SYSTEM_FOLDERS, schemas } from "mediahost-contract";
import type { z } from "zod";
import { type Credentials, type ReadOperation, readAnswer } from "../../provider/for-tools";
import {
  type DoctorReport,
  departures,
  Facts,
  ordered,
  type Row,
  UNOBSERVED,
  undocumentedIn,
  WRITE_FACTS,
} from "./doctor-facts";
import type { Secrets } from "./doctor-report";
import { type Answer, Wire } from "./doctor-wire";

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

/** Every item, none hidden in "and N more": each is a fact the user may need. */
const list = (items: string[]) => items.join(", ");
const fsError = (a: Answer) => fsErrorOf(a.text);
const isNoSuchFile = (a: Answer) => a.status === 404 || /no such file/i.test(fsError(a)?.message ?? "");
/** A write that succeeded: 2xx and no file-system error in its body (mkdir answers one under 200). */
const succeeded = (a: Answer) => a.status >= 200 && a.status < 300 && !fsError(a);
const said = (a: Answer) => `${a.status}${a.text ? ` ${errorText(a.text)}` : " (empty)"}`;
const asObject = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** What every check shares. */
interface Checks {
  wire: Wire;
  facts: Facts;
  secrets: Secrets;
  say: (line: string) => void;
  extras: string[];
}

/** Runs every check; throws only when the service cannot be asked at all (no token, no account). */
export async function runDoctor(options: DoctorOptions, secrets: Secrets): Promise<DoctorReport> {
  const { credentials, say } = options;
  secrets.add(credentials.clientSecret);
  const checks: Checks = {
    wire: new Wire(credentials.baseUrl, say),
    facts: new Facts(),
    secrets,
    say,
    extras: [],
  };
  await tokenFacts(checks, credentials);
  const account = await accountFacts(checks);
  await fileFacts(checks);
  await missingPathFact(checks);
  await apiErrorFact(checks);
  await tusFacts(checks);
  if (options.writeProbe)
    await writeProbe(checks.wire, checks.facts, options.writeProbe, options, checks.extras);
  else
    for (const [id, fact, section, expects] of WRITE_FACTS)
      checks.facts.add(id, section, fact, expects).unobserved("not observed (run with --write-probe PREFIX)");
  everyAnswerFacts(checks);
  const facts = ordered(checks.facts.rows);
  return {
    baseUrl: credentials.baseUrl,
    account: typeof account.alias === "string" ? account.alias : undefined,
    ...(options.writeProbe ? { writeProbe: options.writeProbe } : {}),
    facts,
    ok: facts.every((f) => f.handled !== "NO"),
  };
}

/**
 * An answer judged as the provider reads it (provider/client/reads.ts): a field it reads that is
 * missing or of another type is a NO; each way it departs from the documented shape otherwise is
 * a row of its own, handled.
 */
function schemaRow(
  { facts, extras }: Checks,
  id: string,
  section: string,
  fact: string,
  operation: ReadOperation,
  a: Answer,
): void {
  const row = facts.add(id, section, fact, "200 with every field the provider reads");
  if (a.status !== 200) {
    row.no(said(a));
    return;
  }
  const read = readAnswer(operation, a.json);
  if (!read.ok) row.no(`the provider cannot read it: ${read.issues}`);
  else row.documented("200; every field the provider reads is there");
  for (const d of departures(operations[operation].response as z.ZodType, a.json))
    facts.add(`${id}:${d.path}`, section, `${fact}: \`${d.path}\``, d.documented).documented(d.answered);
  extras.push(...undocumentedIn(operation, a, fact));
}

/** The token, which every later call carries, and the form of its scope. */
async function tokenFacts(checks: Checks, credentials: Credentials): Promise<void> {
  const { wire, facts, secrets, say } = checks;
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
  schemaRow(checks, "token", "authentication-and-tokens", "token answer", "token", token);
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
}

/** The account: its answer, its read-only fields, its fetching secrets, its custom domains. */
async function accountFacts(checks: Checks): Promise<Record<string, unknown>> {
  const { wire, secrets, say } = checks;
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
  schemaRow(checks, "account", "account", "account answer", "getAccount", account);
  readOnlyFieldsFact(checks.facts, acc, fetching);
  fetchingSecretsFact(checks.facts, auth, s3);
  customDomainFact(checks.facts, acc);
  return acc;
}

function readOnlyFieldsFact(
  facts: Facts,
  acc: Record<string, unknown>,
  fetching: Record<string, unknown> | undefined,
): void {
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
}

function fetchingSecretsFact(
  facts: Facts,
  auth: Record<string, unknown> | undefined,
  s3: Record<string, unknown> | undefined,
): void {
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
}

function customDomainFact(facts: Facts, acc: Record<string, unknown>): void {
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
}

/** Files: the root's listing and its system folders, then one folder's stat, options and meta. */
async function fileFacts(checks: Checks): Promise<void> {
  const { wire, say } = checks;
  say("listing / and reading one folder");
  const root = await wire.call("GET", "/v2/files/readdir", { query: { dirname: "/" } });
  schemaRow(checks, "readdir", "files-and-folders", "readdir /", "readdir", root);
  const listed = asObject(root.json)?.contents;
  const contents = (Array.isArray(listed) ? listed : []) as { filename?: unknown; isDirectory?: unknown }[];
  const folders = contents
    .filter((e) => e?.isDirectory === true && typeof e.filename === "string")
    .map((e) => `/${e.filename as string}`);
  systemFoldersFact(
    checks.facts,
    folders.filter((f) => Object.hasOwn(SYSTEM_FOLDERS, f)),
  );
  // a folder of the user's, where there is one: the system folders answer in shapes of their own
  const folder = folders.find((f) => !Object.hasOwn(SYSTEM_FOLDERS, f)) ?? folders[0] ?? "/";
  const query = { query: { filename: folder } };
  const stat = await wire.call("GET", "/v2/files/stat", query);
  schemaRow(checks, "stat", "files-and-folders", `stat ${folder}`, "stat", stat);
  const options = await wire.call("GET", "/v2/files/options", query);
  schemaRow(checks, "options", "folder-options", `folder options of ${folder}`, "getFolderOptions", options);
  const meta = await wire.call("GET", "/v2/files/meta", query);
  schemaRow(checks, "meta", "meta", `meta of ${folder}`, "getMeta", meta);
}

function systemFoldersFact(facts: Facts, system: string[]): void {
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
}

/** The answer for a path that does not exist. */
async function missingPathFact({ wire, facts }: Checks): Promise<void> {
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
}

/** An API error's body: a stat without a path. */
async function apiErrorFact({ wire, facts }: Checks): Promise<void> {
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
}

/** tus: the upload locations, and an upload link for the first. */
async function tusFacts({ wire, facts, secrets }: Checks): Promise<void> {
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
  if (location === undefined) return urlRow.unobserved("not asked: no location");
  const link = await wire.call("GET", "/v2/files/tus/url", { query: { location, expiresIn: "60" } });
  const url = asObject(link.json)?.url;
  secrets.add(typeof url === "string" ? url : typeof link.json === "string" ? link.json : undefined);
  if (link.status === 200 && typeof url === "string") urlRow.documented("`{url}`");
  else if (link.status === 200 && typeof link.json === "string")
    urlRow.variant("tus-bare", "a bare JSON string");
  else urlRow.no(link.status === 200 ? "an answer without a URL" : said(link));
}

/** What holds of every answer (rate-limit and Date headers, fields, gateways), and what no call shows. */
function everyAnswerFacts({ wire, facts, extras }: Checks): void {
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
}

const PROBE_FILE = "probe.mediahost-doctor";
const depth = (p: string) => p.split("/").length;

/** Makes and removes what the probe writes under `prefix`, filling the rows of WRITE_FACTS. */
export async function writeProbe(
  wire: Wire,
  facts: Facts,
  prefix: string,
  options: DoctorOptions,
  extras: string[],
): Promise<void> {
  const probe = new Probe(wire, facts, prefix, options);
  const trashHeld = await probe.checkPrefix();
  try {
    options.say(`write probe under ${prefix}`);
    await probe.mkdirs();
    const file = await probe.upload();
    await probe.contentType(file);
    await probe.folderOptions(extras);
    await probe.deleteMissing();
    await probe.points(file);
    await probe.deleteToTrash(file);
  } finally {
    await probe.cleanUp(trashHeld);
  }
}

type WriteFact = (typeof WRITE_FACTS)[number][0];

/** One write probe: its rows, and what it may have made (asked for, answered or not). */
class Probe {
  private readonly rows: Record<string, Row>;
  private readonly made = new Set<string>();
  private readonly writes: number[] = [];
  private readonly trashed: string[] = [];
  private readonly trash: string;

  constructor(
    private readonly wire: Wire,
    facts: Facts,
    private readonly prefix: string,
    private readonly options: DoctorOptions,
  ) {
    this.rows = Object.fromEntries(
      WRITE_FACTS.map(([id, fact, section, expects]) => [id, facts.add(id, section, fact, expects)]),
    );
    this.trash = `/.Trash${prefix}`;
  }

  private expect(id: WriteFact): Row {
    return this.rows[id] as Row;
  }

  private check(): void {
    if (this.options.stopping?.()) throw new Interrupted("interrupted");
  }

  private async write(
    method: "POST" | "DELETE",
    path: string,
    input: Parameters<Wire["call"]>[2],
    makes: string[] = [],
  ): Promise<Answer> {
    this.check();
    for (const p of makes) this.made.add(p);
    const a = await this.wire.call(method, path, input);
    if (succeeded(a)) this.writes.push(a.status);
    else for (const p of makes) this.made.delete(p);
    return a;
  }

  private stat(filename: string): Promise<Answer> {
    return this.wire.call("GET", "/v2/files/stat", { query: { filename } });
  }

  /** Refuses a prefix that exists or has no parent folder; answers whether the trash held it. */
  async checkPrefix(): Promise<boolean> {
    const { prefix } = this;
    const before = await this.stat(prefix);
    if (succeeded(before))
      throw new UsageError(`--write-probe ${prefix}: it exists; name a folder that does not exist`);
    if (!isNoSuchFile(before)) throw new Error(`GET /v2/files/stat ${prefix}: ${said(before)}`);
    const trashHeld = succeeded(await this.stat(this.trash));
    const parent = prefix.slice(0, prefix.lastIndexOf("/")) || "/";
    if (parent !== "/") {
      const p = await this.stat(parent);
      if (!succeeded(p) || asObject(p.json)?.isDirectory !== true)
        throw new UsageError(`--write-probe ${prefix}: its parent ${parent} is not a folder of the account`);
    }
    return trashHeld;
  }

  private mkdir(dirname: string, makes: string[]): Promise<Answer> {
    return this.write("POST", "/v2/files/mkdir", { query: { dirname } }, makes);
  }

  /** The prefix made, then made again, then a folder under a parent that does not exist. */
  async mkdirs(): Promise<void> {
    const { prefix } = this;
    const made0 = await this.mkdir(prefix, [prefix]);
    if (!succeeded(made0)) throw new Error(`mkdir ${prefix}: ${said(made0)}`);

    const again = await this.mkdir(prefix, []);
    const exists = /exist/i.test(fsError(again)?.message ?? errorText(again.text));
    const existsRow = this.expect("mkdir-exists");
    if (again.status === 200 && exists) existsRow.documented(said(again));
    else if (again.status === 409) existsRow.variant("mkdir-exists-409", said(again));
    else if (again.status === 400 && exists) existsRow.variant("fs-errors-400", said(again));
    else existsRow.no(said(again));

    const orphan = `${prefix}/no-parent/child`;
    const deep = await this.mkdir(orphan, [`${prefix}/no-parent`, orphan]);
    const parentsRow = this.expect("mkdir-parents");
    if (succeeded(deep)) parentsRow.variant("mkdir-parents", `${deep.status}: made the parent too`);
    else if (isNoSuchFile(deep)) parentsRow.documented(said(deep));
    else parentsRow.no(said(deep));
  }

  private uploadTo(filename: string, makes: string[]): Promise<Answer> {
    const bytes = new TextEncoder().encode("mediahost-doctor probe\n");
    return this.write(
      "POST",
      "/v2/files/upload",
      { query: { filename }, bytes, contentType: "text/plain" },
      makes,
    );
  }

  /** The probe's file uploaded into a folder that does not exist, else into the prefix: its path. */
  async upload(): Promise<string | undefined> {
    const { prefix } = this;
    // a name whose extension no table knows: a type taken from the name cannot be the one sent
    let file: string | undefined = `${prefix}/no-folder/${PROBE_FILE}`;
    const intoMissing = await this.uploadTo(file, [`${prefix}/no-folder`, file]);
    const uploadRow = this.expect("upload-mkdir");
    if (succeeded(intoMissing)) uploadRow.documented(`${intoMissing.status}: made the folder`);
    else if (isNoSuchFile(intoMissing)) {
      uploadRow.variant("upload-no-mkdir", said(intoMissing));
      file = `${prefix}/${PROBE_FILE}`;
      const direct = await this.uploadTo(file, [file]);
      if (!succeeded(direct)) {
        uploadRow.no(`${said(intoMissing)}; into ${prefix} too: ${said(direct)}`);
        file = undefined;
      }
    } else {
      uploadRow.no(said(intoMissing));
      file = undefined;
    }
    return file;
  }

  async contentType(file: string | undefined): Promise<void> {
    const typeRow = this.expect("content-type");
    if (!file) return typeRow.unobserved("not observed: no file was uploaded");
    this.check();
    const st = await this.stat(file);
    const type = asObject(st.json)?.contentType;
    if (!succeeded(st)) typeRow.no(`stat: ${said(st)}`);
    else if (type === "application/octet-stream")
      typeRow.documented(`${type} (from the name \`${PROBE_FILE}\`)`);
    else if (type === "text/plain") typeRow.variant("content-type-declared", String(type));
    else typeRow.no(String(type));
  }

  /** Two option sets POSTed one after the other: whether the second replaced or merged. */
  async folderOptions(extras: string[]): Promise<void> {
    const { prefix } = this;
    const setOptions = (body: Record<string, boolean>) =>
      this.write("POST", "/v2/files/options", { query: { filename: prefix }, body });
    const optionsRow = this.expect("options-post");
    const o1 = await setOptions({ scanSpins: true });
    const o2 = await setOptions({ allowListing: false });
    this.check();
    const opts = await this.wire.call("GET", "/v2/files/options", { query: { filename: prefix } });
    extras.push(...undocumentedIn("getFolderOptions", opts, `folder options of ${prefix}`));
    const got = asObject(opts.json) ?? {};
    const shownOpts = JSON.stringify(opts.json);
    if (!succeeded(o1) || !succeeded(o2)) optionsRow.no(`POST: ${said(succeeded(o1) ? o2 : o1)}`);
    else if (got.allowListing === false && got.scanSpins === undefined)
      optionsRow.documented(`kept the last: ${shownOpts}`);
    else if (got.allowListing === false && got.scanSpins === true)
      optionsRow.variant("options-merge", `kept both: ${shownOpts}`);
    else optionsRow.no(`${opts.status} ${shownOpts}`);
  }

  async deleteMissing(): Promise<void> {
    const filename = `${this.prefix}/never-made`;
    const gone = await this.write("POST", "/v2/files/delete", { query: { filename } });
    const deleteRow = this.expect("delete-missing");
    if (succeeded(gone)) deleteRow.variant("delete-missing-ok", `${gone.status} (empty)`);
    else if (isNoSuchFile(gone)) deleteRow.documented(said(gone));
    else deleteRow.no(said(gone));
  }

  /** A point of the file set twice by name, then a point it does not have deleted. */
  async points(file: string | undefined): Promise<void> {
    const poiAgain = this.expect("poi-set-again");
    const poiMissing = this.expect("poi-delete-missing");
    if (!file) {
      poiAgain.unobserved("not observed: no file was uploaded");
      poiMissing.unobserved("not observed: no file was uploaded");
      return;
    }
    const point = { name: "mediahost-doctor", x: 0.1, y: 0.1, width: 0.2, height: 0.2 };
    const p1 = await this.write("POST", "/v2/files/poi", { query: { filename: file }, body: point });
    const p2 = await this.write("POST", "/v2/files/poi", {
      query: { filename: file },
      body: { ...point, x: 0.3 },
    });
    if (!succeeded(p1)) poiAgain.no(`the first set: ${said(p1)}`);
    else if (succeeded(p2)) poiAgain.documented(`${p2.status}: replaced`);
    else if (p2.status === 409) poiAgain.variant("poi-set-conflict", said(p2));
    else poiAgain.no(said(p2));
    const d = await this.write("DELETE", "/v2/files/poi", {
      query: { filename: file },
      body: { name: "mediahost-doctor-none" },
    });
    if (d.status === 404) poiMissing.documented(said(d));
    else if (succeeded(d)) poiMissing.variant("poi-delete-missing-ok", `${d.status} (empty)`);
    else poiMissing.no(said(d));
  }

  /** The file deleted: whether it moved to the trash. */
  async deleteToTrash(file: string | undefined): Promise<void> {
    const trashRow = this.expect("delete-trash");
    if (!file) return trashRow.unobserved("not observed: no file was uploaded");
    const removed = await this.write("POST", "/v2/files/delete", { query: { filename: file } });
    if (!succeeded(removed)) return trashRow.no(`delete: ${said(removed)}`);
    this.made.delete(file);
    this.check();
    const copy = `/.Trash${file}`;
    const there = await this.stat(copy);
    if (succeeded(there)) {
      this.trashed.push(copy);
      trashRow.documented(`moved to ${copy}`);
    } else if (isNoSuchFile(there)) trashRow.variant("delete-final", "gone, and not in `/.Trash`");
    else trashRow.no(`stat ${copy}: ${said(there)}`);
  }

  /** Removes what it made, its copies in the trash too (a delete there is final). */
  async cleanUp(trashHeld: boolean): Promise<void> {
    const { wire, prefix, made, writes } = this;
    const { say } = this.options;
    const left = await removeAll(wire, [...made], say);
    left.push(...(await removeAll(wire, trashHeld ? this.trashed : await treeUnder(wire, this.trash), say)));
    const after = await this.stat(prefix).catch(() => undefined);
    if (after && !isNoSuchFile(after) && !left.includes(prefix)) left.push(prefix);
    const cleanRow = this.expect("probe-cleanup");
    if (left.length) cleanRow.no(`could not remove ${list(left)}: remove them by hand`);
    else cleanRow.documented(`removed the ${made.size} paths it made`);
    const statusRow = this.expect("writes-status");
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
