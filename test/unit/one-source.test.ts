// One source for each kind's shape (provider/resources): the README's resource table is the one
// the kinds make, and names every input of every kind's schema; the diffed properties are the
// schema's keys; every kind is registered, and the SDK's classes (with the kind's summary) are the
// ones `npm run docs` makes of it. (The SDK's types are the schema's types: the compiler holds
// those.)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as provider from "../../provider";
import { kinds } from "../../provider/resources";
import type { Kind } from "../../provider/resources/kind";
import {
  functionExports,
  inputsOf,
  KINDS_FILE,
  kindsModule,
  nativeExports,
  operationsTable,
  resourceTable,
  writersBlock,
} from "../../scripts/docs";
import { REFERENCE_DIR, referencePages } from "../../scripts/reference";
import { SCHEMA_FILE, schemaText } from "../../scripts/schema";

const readme = readFileSync(join(__dirname, "../../README.md"), "utf8");
const apiDoc = readFileSync(join(__dirname, "../../docs/api.md"), "utf8");

describe("one source for each kind's shape", () => {
  it("the README's resource table is the one the kinds make (run `npm run docs` after changing a kind)", () => {
    expect(readme).toContain(resourceTable());
  });

  it("the native face's package schema is the one the kinds, the data functions and the configuration make (run `npm run docs`)", () => {
    expect(readFileSync(join(__dirname, "../..", SCHEMA_FILE), "utf8")).toBe(schemaText());
  });

  it("docs/reference/ holds exactly the pages the package schema makes, one per resource and function (run `npm run docs`)", () => {
    const dir = join(__dirname, "../..", REFERENCE_DIR);
    const pages = referencePages();
    expect(readdirSync(dir).sort()).toEqual(Object.keys(pages).sort());
    for (const [file, text] of Object.entries(pages))
      expect(readFileSync(join(dir, file), "utf8"), file).toBe(text);
  });

  it("the SDK's export lists are the ones the kinds and the data functions make (run `npm run docs` after adding one)", () => {
    // whitespace aside: the formatter lays the lists out
    const squash = (text: string) => text.replace(/\s+/g, "").replaceAll(",}", "}");
    const sdk = (file: string) => squash(readFileSync(join(__dirname, "../..", file), "utf8"));
    expect(sdk("sdk/native.ts")).toContain(squash(nativeExports()));
    expect(sdk("sdk/functions.ts")).toContain(squash(functionExports()));
  });

  it("the SDK's classes, their summaries and the account writer's kinds are the ones the kinds make (run `npm run docs` after changing a kind)", () => {
    // whitespace and trailing commas aside: the formatter lays the file out
    const squash = (text: string) => text.replace(/\s+/g, "").replaceAll(",}", "}").replaceAll(",)", ")");
    const sdk = (file: string) => squash(readFileSync(join(__dirname, "../..", file), "utf8"));
    expect(sdk(KINDS_FILE)).toBe(squash(kindsModule()));
    expect(sdk("sdk/resource.ts")).toContain(squash(writersBlock()));
  });

  it("docs/api.md's table of operations is the one the contract and the client's policy make (run `npm run docs`)", () => {
    expect(apiDoc).toContain(operationsTable());
  });

  it("each kind's README row names every input of its schema", () => {
    for (const k of Object.values(kinds)) {
      const kind = k as unknown as Kind;
      for (const input of inputsOf(kind))
        expect(kind.docs.properties, `${kind.name}.${input}`).toContain(`\`${input}`);
    }
  });

  it("each kind's README row names nothing its schema lacks (every name in backticks is a property, at any depth, or a value)", () => {
    // the SDK's own arguments and the asset classes it takes, which are not the kind's inputs
    const sdkNames = new Set(["source", "FileAsset", "StringAsset", "RemoteAsset"]);
    for (const k of Object.values(kinds)) {
      const kind = k as unknown as Kind;
      const known = new Set([...namesIn(kind.inputs), ...Object.keys(kind.outputs), ...sdkNames]);
      // a property taken whole is named as the schema it is judged by describes it
      for (const schema of Object.values(kind.secrets?.judgedBy ?? {})) namesIn(schema, known);
      const cited = [...kind.docs.properties.matchAll(/`([^`]+)`/g)].flatMap((m) =>
        (m[1] as string).split("."),
      );
      for (const name of cited) expect(known.has(name), `${kind.name}: \`${name}\``).toBe(true);
    }
  });

  it("each kind diffs exactly its schema's inputs and account", async () => {
    provider.configure({ config: { get: () => undefined } });
    for (const [name, k] of Object.entries(kinds)) {
      const kind = k as unknown as Kind;
      const olds = Object.fromEntries(Object.keys(kind.inputs.shape).map((key) => [key, "old"]));
      const news = Object.fromEntries(Object.keys(kind.inputs.shape).map((key) => [key, "new"]));
      const d = await provider.diff(name, "id", { ...olds, account: "a" }, { ...news, account: "b" });
      expect(d.diffs.sort(), name).toEqual(["account", ...Object.keys(kind.inputs.shape)].sort());
    }
  });

  it("every kind declared under provider/resources is registered", () => {
    // the built modules, as the provider loads them
    const dir = join(__dirname, "../../dist/provider/resources");
    const registered = Object.values((require(join(dir, "index.js")) as { kinds: object }).kinds);
    const declared = readdirSync(dir)
      .filter((f) => f.endsWith(".js"))
      .flatMap((f) => Object.values(require(join(dir, f)) as Record<string, unknown>))
      .filter((v): v is Kind => !!v && typeof v === "object" && "inputs" in v && "create" in v);
    expect(new Set(declared).size).toBe(Object.keys(kinds).length);
    for (const kind of declared) expect(registered, kind.name).toContain(kind);
  });

  it("the SDK has a class for every kind in both faces, and the registry names each kind as the kind names itself", () => {
    // the built SDK, as programs load it
    const sdk = require(join(__dirname, "../../dist/sdk")) as Record<string, unknown>;
    const native = require(join(__dirname, "../../dist/sdk/native")) as Record<
      string,
      { __pulumiType?: string }
    >;
    for (const [name, kind] of Object.entries(kinds)) {
      expect((kind as unknown as Kind).name).toBe(name);
      expect(typeof sdk[name], name).toBe("function");
      expect(native[name]?.__pulumiType, name).toBe(`mediahost:index:${name}`);
    }
  });
});

/** Every property name and literal value anywhere in a zod schema. */
function namesIn(schema: unknown, into = new Set<string>()): Set<string> {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })?._zod?.def;
  if (!def) return into;
  const shape = def.shape as Record<string, unknown> | undefined;
  if (shape) {
    for (const [key, value] of Object.entries(shape)) {
      into.add(key);
      namesIn(value, into);
    }
  }
  for (const inner of [def.innerType, def.element, def.in, def.out, def.schema])
    if (inner) namesIn(inner, into);
  for (const option of (def.options as unknown[] | undefined) ?? []) namesIn(option, into);
  for (const value of (def.values as unknown[] | undefined) ?? []) into.add(String(value));
  for (const value of Object.values((def.entries as Record<string, unknown> | undefined) ?? {}))
    into.add(String(value));
  return into;
}
