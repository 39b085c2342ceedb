// mediahost-doctor's probe: the calls it makes against the service, reading the account the way
// the provider will, each answer judged into the facts (tools/lib/doctor-facts.ts). Read-only,
// unless a write probe is asked for (tools/lib/doctor-write-probe.ts).
import { randomBytes } from "node:crypto";
import { errorText, HttpErrorBody, operations, SYSTEM_FOLDERS, schemas } from "mediahost-contract";
import type { z } from "zod";
import { type Credentials, type ReadOperation, readAnswer } from "../../provider/for-tools";
import {
  type DoctorReport,
  departures,
  Facts,
  list,
  ordered,
  UNOBSERVED,
  undocumentedIn,
  WRITE_FACTS,
} from "./doctor-facts";
import type { Secrets } from "./doctor-report";
import { type Answer, asObject, fsError, said, Wire } from "./doctor-wire";
import { type ProbeOptions, writeProbe } from "./doctor-write-probe";

export interface DoctorOptions extends ProbeOptions {
  credentials: Credentials;
  /** An absolute folder that must not exist: made, probed and removed. */
  writeProbe?: string;
}

/** What every check shares: the calls, the facts, the values never shown, the fields nobody documents. */
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
