// The documentation made from the code, never written by hand:
// - the README's resource table, from the kinds themselves (provider/resources): the properties
//   cell each kind writes (checked to name every input of its schema), what replaces it (its
//   rules), what delete does and what drift is visible;
// - docs/api.md's table of operations, from the contract (mediahost-contract) and the client's
//   policy per operation (provider/client/policy.ts);
// - the native face's package schema, provider/native/schema.json (scripts/schema.ts), and the API
//   reference made from it, docs/reference/ (scripts/reference.ts);
// - the SDK's export lists: the native face's classes (sdk/native.ts) and the data functions of
//   both faces (sdk/functions.ts, sdk/native.ts), from the kinds and provider/functions.ts;
// - the SDK's classes of each kind, in both faces, with its summary (sdk/kinds.ts), and the kinds
//   the SDK gathers as account writes (sdk/resource.ts), from the kinds.
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
  const rows = Object.values(kinds).map((kind: Kind) => {
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

export const KINDS_FILE = "sdk/kinds.ts";
export const WRITERS_START = "// writers:start (made by `npm run docs` from provider/resources)";
export const WRITERS_END = "// writers:end";

/** `text` as a doc comment at `indent`, its lines wrapped at 100 characters. */
function docComment(text: string, indent = ""): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  if (lines.length === 1 && indent.length + 7 + text.length <= 110) return [`${indent}/** ${text} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

/**
 * sdk/kinds.ts: each kind's classes in both faces, with its summary as their doc comment, its
 * arguments' type, and its own outputs (the writer membership is sdk/resource.ts's block).
 */
export function kindsModule(): string {
  const all = Object.entries(kinds).map(([name, kind]) => ({ name, kind }));
  const classes = (name: string) => `${name.charAt(0).toLowerCase()}${name.slice(1)}Classes`;
  return [
    "// The resource classes of both faces, one pair per kind: made by `npm run docs` from the kinds",
    "// (provider/resources), never by hand. A class's doc comment is its kind's `docs.summary`; its",
    "// arguments and outputs are the kind's schema's types, or sdk/prepare.ts's for a kind the program",
    "// prepares (`ArgsFor`, `OutputsFor`, `kindClasses`: sdk/resource.ts). The dynamic classes are",
    "// exported at the top level, the native ones in the `native` namespace (sdk/native.ts).",
    'import { type ArgsFor, type KindClasses, kindClasses, type OutputsFor } from "./resource";',
    ...all.flatMap(({ name, kind }) => [
      "",
      `export type ${name}Args = ArgsFor<"${name}">;`,
      // typed by name, so that the declarations name the types rather than spell them out
      `const ${classes(name)}: KindClasses<${name}Args, OutputsFor<"${name}">> = kindClasses("${name}", { ${Object.keys(
        kind.outputs,
      )
        .map((o) => `${o}: true`)
        .join(", ")} });`,
      ...docComment(kind.docs.summary),
      `export class ${name} extends ${classes(name)}.dynamic {}`,
    ]),
    "",
    "/**",
    " * The native face's classes (type tokens `mediahost:index:<Kind>`), served by the provider plugin",
    " * `pulumi-resource-mediahost`: the same arguments and outputs as the classes above, and `provider`",
    " * instances reach several accounts (sdk/native.ts).",
    " */",
    "export namespace native {",
    ...all.flatMap(({ name, kind }) => [
      ...docComment(kind.docs.summary, "  "),
      `  export class ${name} extends ${classes(name)}.native {}`,
    ]),
    "}",
    "",
  ].join("\n");
}

/** sdk/resource.ts's list of the kinds that write through the account writer. */
export function writersBlock(): string {
  const writers = Object.values(kinds)
    .filter((k) => k.viaAccountWriter)
    .map((k) => JSON.stringify(k.name));
  return [
    WRITERS_START,
    `export const ACCOUNT_WRITER_KINDS: ReadonlySet<string> = new Set([${writers.join(", ")}]);`,
    WRITERS_END,
  ].join("\n");
}

/** sdk/resource.ts with its list of writer kinds replaced by the one the kinds make. */
export function withWriters(text: string): string {
  return between(text, WRITERS_START, WRITERS_END, writersBlock(), "sdk/resource.ts");
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
  const exporting = ["sdk/functions.ts", "sdk/native.ts"] as const;
  for (const file of exporting) {
    writeFileSync(join(root, file), withExports(readFileSync(join(root, file), "utf8"), file));
  }
  writeFileSync(join(root, KINDS_FILE), kindsModule());
  const resource = join(root, "sdk/resource.ts");
  writeFileSync(resource, withWriters(readFileSync(resource, "utf8")));
  const sdkFiles = [...exporting, KINDS_FILE, "sdk/resource.ts"];
  // the lists as the formatter lays them out (the test compares them whitespace aside)
  execFileSync(join(root, "node_modules", ".bin", "biome"), ["format", "--write", ...sdkFiles], {
    cwd: root,
    stdio: "ignore",
  });
  process.stdout.write(
    `README.md: resource table written; docs/api.md: operations and variants written; emulator/README.md: variants written; ` +
      `${SCHEMA_FILE}: package schema written; ${REFERENCE_DIR}: API reference written; ` +
      "sdk/functions.ts, sdk/native.ts: export lists written; " +
      `${KINDS_FILE}: the kinds' classes written; sdk/resource.ts: the account writer's kinds written\n`,
  );
}
