// The API reference under docs/reference/, made from the package schema (scripts/schema.ts) as the
// Pulumi registry makes its pages: one page per resource and per function, with its description,
// its examples, its inputs and outputs (and the object types they use), and its import section.
// `npm run docs` writes them; test/unit/one-source.test.ts fails while a page and the schema differ.
import { packageSchema } from "./schema";
import type {
  SchemaFunction as Fn,
  SchemaProp as ObjectType,
  SchemaProp as Prop,
  SchemaResource as Resource,
} from "./schema-shapes";

export const REFERENCE_DIR = "docs/reference";

const PREFIX = "mediahost:index:";
const short = (token: string) => token.slice(PREFIX.length);
/** A page's file name: `Folder` → folder.md, `FolderMeta` → folder-meta.md, `getAccount` → get-account.md. */
export const pageName = (name: string) =>
  `${name.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase())}.md`;

const cell = (text: string | undefined) => (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

/** The type of a property as a reader sees it, linking object types to their section of the page. */
function typeOf(p: Prop, used: Set<string>): string {
  if (p.$ref?.startsWith("#/types/")) {
    const name = short(p.$ref.slice("#/types/".length));
    used.add(name);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (p.$ref) return "any";
  if (p.type === "array") return `${p.items ? typeOf(p.items, used) : "any"}[]`;
  if (p.type === "object")
    return `map of ${p.additionalProperties ? typeOf(p.additionalProperties, used) : "any"}`;
  return p.type ?? "any";
}

function table(
  props: Record<string, Prop>,
  required: string[],
  used: Set<string>,
  always = "required",
): string[] {
  return [
    `| name | type | ${always} | description |`,
    "|---|---|---|---|",
    ...Object.entries(props).map(
      ([name, p]) =>
        `| \`${name}\` | ${typeOf(p, used)}${p.secret ? " (secret)" : ""} | ${required.includes(name) ? "yes" : "no"} | ${cell(p.description)} |`,
    ),
  ];
}

/** The sections of the object types a page uses, and of the types those use, each once. */
function typeSections(used: Set<string>, types: Record<string, ObjectType>): string[] {
  const out: string[] = [];
  const done = new Set<string>();
  for (let todo = [...used]; todo.length > 0; ) {
    const name = todo.shift() as string;
    if (done.has(name)) continue;
    done.add(name);
    const type = types[PREFIX + name] ?? {};
    const more = new Set<string>();
    out.push(
      "",
      `### ${name}`,
      "",
      cell(type.description),
      "",
      ...table(type.properties ?? {}, type.required ?? [], more),
    );
    todo.push(...[...more].filter((m) => !done.has(m)));
  }
  return out.length > 0 ? ["", "## Types", ...out] : [];
}

/** A description as a page shows it: the registry's shortcodes and code-chooser markers left out. */
function prose(description: string): string {
  return description
    .split("\n")
    .filter(
      (line) =>
        !/^\{\{% \/?examples? %\}\}$/.test(line) && !/^<!--(Start|End) PulumiCodeChooser -->$/.test(line),
    )
    .join("\n")
    .replace(/\n{3,}/g, "\n\n");
}

function header(title: string, token: string): string[] {
  return [
    `# ${title}`,
    "",
    `\`${token}\`. Made by \`npm run docs\` from the package schema (provider/native/schema.json): edit the code, not this page.`,
    "",
  ];
}

function resourcePage(token: string, r: Resource, types: Record<string, ObjectType>): string {
  const [body, imports] = r.description.split("\n\n## Import");
  const used = new Set<string>();
  const outputsOnly = Object.fromEntries(
    Object.entries(r.properties).filter(([k]) => !(k in r.inputProperties)),
  );
  return [
    ...header(short(token), token),
    prose(body ?? ""),
    "",
    "## Inputs",
    "",
    ...table(r.inputProperties, r.requiredInputs ?? [], used),
    "",
    "## Outputs",
    "",
    "Every input, and:",
    "",
    ...table(outputsOnly, r.required ?? [], used, "always set"),
    ...(imports === undefined ? [] : ["", `## Import${imports}`]),
    ...typeSections(used, types),
    "",
  ].join("\n");
}

function functionPage(token: string, f: Fn, types: Record<string, ObjectType>): string {
  const used = new Set<string>();
  return [
    ...header(short(token), token),
    f.description,
    "",
    "## Arguments",
    "",
    ...table(f.inputs?.properties ?? {}, f.inputs?.required ?? [], used),
    "",
    "## Result",
    "",
    ...table(f.outputs?.properties ?? {}, f.outputs?.required ?? [], used, "always set"),
    ...typeSections(used, types),
    "",
  ].join("\n");
}

/** Every page of the reference, by file name under docs/reference/. */
export function referencePages(): Record<string, string> {
  const schema = packageSchema() as {
    resources: Record<string, Resource>;
    functions: Record<string, Fn>;
    types: Record<string, ObjectType>;
  };
  const pages: Record<string, string> = {};
  const index = [
    "# API reference",
    "",
    "Made by `npm run docs` from the package schema.",
    "",
    "## Resources",
    "",
  ];
  for (const [token, r] of Object.entries(schema.resources)) {
    pages[pageName(short(token))] = resourcePage(token, r, schema.types);
    index.push(`- [${short(token)}](${pageName(short(token))}): ${cell(r.description.split("\n")[0])}`);
  }
  index.push("", "## Functions", "");
  for (const [token, f] of Object.entries(schema.functions)) {
    pages[pageName(short(token))] = functionPage(token, f, schema.types);
    index.push(`- [${short(token)}](${pageName(short(token))}): ${cell(f.description)}`);
  }
  pages["README.md"] = `${index.join("\n")}\n`;
  return pages;
}
