// The documentation made from the code, never written by hand:
// - the README's resource table, from the kinds themselves (provider/resources): the properties
//   cell each kind writes (checked to name every input of its schema), what replaces it (its
//   rules), what delete does and what drift is visible;
// - docs/api.md's table of operations, from the contract (mediahost-contract) and the client's
//   policy per operation (provider/client/policy.ts);
// - the native face's package schema, provider/native/schema.json (scripts/schema.ts), and the API
//   reference made from it, docs/reference/ (scripts/reference.ts);
// - the SDK's export lists: the native face's classes (sdk/native.ts) and the data functions of
//   both faces (sdk/functions.ts, sdk/native.ts), from the kinds and provider/functions.ts.
// `npm run docs` writes them between their markers; unit tests fail when a document and the code
// disagree.
//
//   npm run docs
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type OperationName, type OperationSpec, operations } from "mediahost-contract";
import { VARIANTS } from "mediahost-emulator";
import { policies } from "../provider/client/policy";
import { dataFunctions } from "../provider/functions";
import { kinds } from "../provider/resources";
import type { Kind } from "../provider/resources/kind";
import { REFERENCE_DIR, referencePages } from "./reference";
import { SCHEMA_FILE, schemaText } from "./schema";

export const START = "<!-- resources:start (made by `npm run docs` from provider/resources) -->";
export const END = "<!-- resources:end -->";
export const OPERATIONS_START =
  "<!-- operations:start (made by `npm run docs` from contract/ and provider/client/policy.ts) -->";
export const OPERATIONS_END = "<!-- operations:end -->";
export const VARIANTS_START = "<!-- variants:start (made by `npm run docs` from emulator/variants.ts) -->";
export const VARIANTS_END = "<!-- variants:end -->";

/** The inputs of a kind its README row must name. */
export function inputsOf(kind: Kind): string[] {
  return Object.keys(kind.inputs.shape).filter((k) => k !== "fetchingSecrets");
}

export function resourceTable(): string {
  const rows = Object.values(kinds).map((k) => {
    const kind = k as unknown as Kind;
    const own = kind.replaceOn.map((p) =>
      // a location carried by its container's move in the same run is followed, not replaced
      p === kind.tree?.location
        ? `\`${p}\` (unless its folder moves in the same run: it follows)`
        : `\`${p}\``,
    );
    // the lifecycle replaces delete-first only for the kind's own properties, never for `account`
    if (kind.deleteBeforeReplace && own.length > 0) own[own.length - 1] += " (old one removed first)";
    const replaces = kind.tree?.moves
      ? `\`account\` only: a \`${kind.tree.location}\` change moves it with its content`
      : [...own, "`account`"].join(", ");
    return `| \`${kind.name}\` | ${kind.docs.properties} | ${replaces} | ${kind.docs.delete} | ${kind.docs.drift} |`;
  });
  return [
    START,
    "| resource | properties | replaces on | delete | drift visible |",
    "|---|---|---|---|---|",
    ...rows,
    END,
  ].join("\n");
}

/** What a repeat after a lost answer does, in words (provider/client/policy.ts). */
const REPEATS: Record<string, string> = {
  idempotent: "repeated",
  conflictMeansDone: "repeated; the conflict proves it",
  checkFirst: "looked for first",
  repeatable: "repeated: the same when done twice",
  never: "never: fails saying what to check",
};

/** Every operation of the contract: method, path, counters beyond `rest:global`, repeat rule, credentials. */
export function operationsTable(): string {
  const rows = (Object.entries(operations) as [OperationName, OperationSpec][]).map(([name, spec]) => {
    const always = spec.counters?.({ query: {}, body: {} }) ?? [];
    // the one counter that depends on the body: an account update that sets fetching
    const withFetching = (spec.counters?.({ query: {}, body: { fetching: {} } }) ?? []).filter(
      (c) => !always.includes(c),
    );
    const counters = [
      ...always.map((c) => `\`${c}\``),
      ...withFetching.map((c) => `\`${c}\` when it sets \`fetching\``),
    ].join(", ");
    const secrets = (spec.secrets ?? []).map((s) => `\`${s}\``).join(", ");
    return (
      `| \`${name}\` | ${spec.method} \`${spec.path}\` | ${counters} | ` +
      `${REPEATS[policies[name].retry.kind]} | ${secrets} |`
    );
  });
  return [
    OPERATIONS_START,
    "| operation | method and path | counters (besides `rest:global`) | a repeat after a lost answer | credentials it carries |",
    "|---|---|---|---|---|",
    ...rows,
    OPERATIONS_END,
  ].join("\n");
}

export const EXPORTS_START =
  "// exports:start (made by `npm run docs` from provider/resources and provider/functions.ts)";
export const EXPORTS_END = "// exports:end";

/** The names a destructuring export lists, one a line (`npm run docs` then formats the file). */
function names(list: string[]): string {
  return list.map((n) => `  ${n},`).join("\n");
}

/** Every data function, and its Output form, as the SDKs export them. */
function functionNames(): string[] {
  return Object.keys(dataFunctions).flatMap((name) => [name, `${name}Output`]);
}

/** The data functions' export list, destructured from the module's `functions`. */
function functionList(): string[] {
  return ["export const {", names(functionNames()), "} = functions;"];
}

/** sdk/functions.ts's exports: the dynamic face's data functions. */
export function functionExports(): string {
  return [EXPORTS_START, ...functionList(), EXPORTS_END].join("\n");
}

/** sdk/native.ts's exports: the native classes of every kind, their argument types, and the data functions. */
export function nativeExports(): string {
  const kindNames = Object.keys(kinds).sort();
  return [
    EXPORTS_START,
    "export const {",
    names(kindNames),
    "} = native;",
    ...kindNames.map((k) => `export type ${k} = native.${k};`),
    "export type {",
    names(kindNames.map((k) => `${k}Args`)),
    '} from "./resources";',
    ...functionList(),
    EXPORTS_END,
  ].join("\n");
}

/**
 * Every variant of the emulator: the fact it plays (a section of docs/api.md, reached from `api`,
 * its path from the page the table is on) and what it then answers.
 */
export function variantsTable(api = ""): string {
  const rows = (Object.entries(VARIANTS) as [string, { section: string; plays: string }][]).map(
    ([name, v]) => `| \`${name}\` | [${v.section.replace(/-/g, " ")}](${api}#${v.section}) | ${v.plays} |`,
  );
  return [
    VARIANTS_START,
    "| variant | fact | what the emulator answers instead |",
    "|---|---|---|",
    ...rows,
    VARIANTS_END,
  ].join("\n");
}

/** `text` with what stands between `start` and `end` replaced by `block` (which carries the markers). */
function between(text: string, start: string, end: string, block: string, file: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: the markers ${start} ... ${end} are missing`);
  return text.slice(0, from) + block + text.slice(to + end.length);
}

/** The README with its resource table replaced by the one the kinds make. */
export function withTable(readme: string): string {
  return between(readme, START, END, resourceTable(), "README.md");
}

/** docs/api.md with its tables of operations and variants replaced by the ones the code makes. */
export function withOperations(api: string): string {
  const operations = between(api, OPERATIONS_START, OPERATIONS_END, operationsTable(), "docs/api.md");
  return between(operations, VARIANTS_START, VARIANTS_END, variantsTable(), "docs/api.md");
}

/** emulator/README.md with its table of variants replaced by the one emulator/variants.ts makes. */
export function withVariants(readme: string): string {
  return between(readme, VARIANTS_START, VARIANTS_END, variantsTable("../docs/api.md"), "emulator/README.md");
}

/** An SDK module with its export lists replaced by the ones the kinds and data functions make. */
export function withExports(text: string, file: "sdk/functions.ts" | "sdk/native.ts"): string {
  const block = file === "sdk/native.ts" ? nativeExports() : functionExports();
  return between(text, EXPORTS_START, EXPORTS_END, block, file);
}

if (require.main === module) {
  const root = join(__dirname, "..", "..");
  writeFileSync(join(root, SCHEMA_FILE), schemaText());
  const reference = join(root, REFERENCE_DIR);
  const pages = referencePages();
  mkdirSync(reference, { recursive: true });
  for (const old of readdirSync(reference)) if (!(old in pages)) rmSync(join(reference, old));
  for (const [file, text] of Object.entries(pages)) writeFileSync(join(reference, file), text);
  const readme = join(root, "README.md");
  writeFileSync(readme, withTable(readFileSync(readme, "utf8")));
  const api = join(root, "docs", "api.md");
  writeFileSync(api, withOperations(readFileSync(api, "utf8")));
  const emulatorReadme = join(root, "emulator", "README.md");
  writeFileSync(emulatorReadme, withVariants(readFileSync(emulatorReadme, "utf8")));
  const sdkFiles = ["sdk/functions.ts", "sdk/native.ts"] as const;
  for (const file of sdkFiles) {
    writeFileSync(join(root, file), withExports(readFileSync(join(root, file), "utf8"), file));
  }
  // the lists as the formatter lays them out (the test compares them whitespace aside)
  execFileSync(join(root, "node_modules", ".bin", "biome"), ["format", "--write", ...sdkFiles], {
    cwd: root,
    stdio: "ignore",
  });
  process.stdout.write(
    `README.md: resource table written; docs/api.md: operations and variants written; emulator/README.md: variants written; ` +
      `${SCHEMA_FILE}: package schema written; ${REFERENCE_DIR}: API reference written; ` +
      "sdk/functions.ts, sdk/native.ts: export lists written\n",
  );
}
