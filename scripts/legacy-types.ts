// Declarations of both faces for TypeScript before 5.5, made from the package schema at build time
// (dist/sdk/legacy/). The SDK's own declarations compute every class's arguments from the kinds'
// zod schemas, which older compilers cannot evaluate: the CLI's bundled TypeScript 3.8, used when a
// project has none of its own, read every argument as unknown. package.json's `typesVersions`
// sends those compilers here; the JavaScript they run is the same.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SchemaProp as Prop, SchemaShape as Schema } from "./schema-shapes";

const dist = join(__dirname, "..");
const schema = JSON.parse(readFileSync(join(dist, "provider/native/schema.json"), "utf8")) as Schema;
const short = (token: string) => token.split(":").pop() as string;
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Inputs the SDK's classes take in another form than the plugin does (sdk/prepare.ts). */
const ARGS_DIFFER: Record<string, { omit: string[]; add: string[] }> = {
  AccountSettings: {
    omit: ["fetching", "fetchingSecrets"],
    add: [
      "/** Remote fetching of files missing from the account; its password and S3 secret key are stored as secrets. */",
      "fetching?: pulumi.Input<{ [key: string]: any }>;",
    ],
  },
  File: {
    omit: ["sourcePath", "contentSha256"],
    add: [
      "/** The file's content from a Pulumi asset: a FileAsset (a local file) or a StringAsset. */",
      "source?: pulumi.Input<pulumi.asset.Asset>;",
    ],
  },
};
const OUTPUTS_HIDDEN = new Set(["fetchingSecrets"]);

function typeOf(p: Prop): string {
  if (p.$ref?.startsWith("#/types/")) return short(p.$ref);
  if (p.$ref) return "any";
  switch (p.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return `${p.items ? typeOf(p.items) : "any"}[]`;
    case "object":
      return `{ [key: string]: ${p.additionalProperties ? typeOf(p.additionalProperties) : "any"} }`;
    default:
      return "any";
  }
}

const doc = (p: { description?: string }, indent: string) =>
  p.description ? `${indent}/** ${p.description.split("\n")[0]?.replaceAll("*/", "*\\/")} */\n` : "";

function fields(props: Record<string, Prop>, required: string[], wrap: (t: string) => string, indent = "  ") {
  return Object.entries(props)
    .map(([k, p]) => `${doc(p, indent)}${indent}${k}${required.includes(k) ? "" : "?"}: ${wrap(typeOf(p))};`)
    .join("\n");
}

function types(): string {
  return Object.entries(schema.types)
    .map(
      ([token, t]) =>
        `export interface ${short(token)} {\n${fields(t.properties ?? {}, t.required ?? [], (x) => x)}\n}`,
    )
    .join("\n");
}

function resources(native: boolean): string {
  const base = native ? "pulumi.CustomResource" : "pulumi.dynamic.Resource";
  const opts = native ? "pulumi.CustomResourceOptions" : "pulumi.CustomResourceOptions";
  return Object.entries(schema.resources)
    .map(([token, r]) => {
      const name = short(token);
      const differ = ARGS_DIFFER[name] ?? { omit: [], add: [] };
      const inputs = Object.fromEntries(
        Object.entries(r.inputProperties).filter(([k]) => !differ.omit.includes(k)),
      );
      const args = [
        fields(inputs, r.requiredInputs ?? [], (t) => `pulumi.Input<${t}>`),
        ...differ.add.map((l) => `  ${l}`),
      ];
      const outputs = Object.entries(r.properties)
        .filter(([k]) => !OUTPUTS_HIDDEN.has(k))
        .map(
          ([k, p]) =>
            `${doc(p, "  ")}  readonly ${k}: pulumi.Output<${typeOf(p)}${r.required?.includes(k) ? "" : " | undefined"}>;`,
        );
      const statics = native
        ? [
            `  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: { [key: string]: any }, opts?: ${opts}): ${name};`,
            `  static isInstance(obj: any): obj is ${name};`,
          ]
        : [];
      return [
        `export interface ${name}Args {\n${args.join("\n")}\n}`,
        `${doc(r, "")}export declare class ${name} extends ${base} {`,
        ...statics,
        ...outputs,
        `  constructor(name: string, args${(r.requiredInputs ?? []).length ? "" : "?"}: ${name}Args, opts?: ${opts});`,
        "}",
      ].join("\n");
    })
    .join("\n");
}

function functions(): string {
  return Object.entries(schema.functions)
    .map(([token, f]) => {
      const name = short(token);
      const args = `${upper(name)}Args`;
      let result = `${upper(name)}Result`;
      const inputs = f.inputs?.properties ?? {};
      const required = f.inputs?.required ?? [];
      const optional = required.length ? "" : "?";
      const lines = [
        `export interface ${args} {\n${fields(inputs, required, (t) => t)}\n}`,
        `export interface ${args}Output {\n${fields(inputs, required, (t) => `pulumi.Input<${t}>`)}\n}`,
        `export interface ${result} {\n${fields(f.outputs.properties ?? {}, f.outputs.required ?? [], (t) => t)}\n}`,
      ];
      // the TypeScript SDK returns the counters themselves (sdk/functions.ts)
      if (name === "getAccountLimits") result = `${result}["counters"]`;
      lines.push(
        `${doc(f, "")}export declare function ${name}(args${optional}: ${args}, opts?: pulumi.InvokeOptions): Promise<${result}>;`,
        `export declare function ${name}Output(args${optional}: ${args}Output, opts?: pulumi.InvokeOptions): pulumi.Output<${result}>;`,
      );
      return lines.join("\n");
    })
    .join("\n");
}

function provider(): string {
  const props = schema.provider.inputProperties;
  return [
    `export interface ProviderArgs {\n${fields(props, [], (t) => `pulumi.Input<${t}>`)}\n}`,
    "export declare class Provider extends pulumi.ProviderResource {",
    "  constructor(name: string, args?: ProviderArgs, opts?: pulumi.ResourceOptions);",
    "}",
  ].join("\n");
}

const header = [
  "// Made from the package schema by scripts/legacy-types.ts for TypeScript before 5.5 (package.json typesVersions).",
  'import * as pulumi from "@pulumi/pulumi";',
].join("\n");
const out = join(dist, "sdk/legacy");
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "index.d.ts"), [header, types(), resources(false), functions(), ""].join("\n"));
writeFileSync(
  join(out, "native.d.ts"),
  [header, types(), provider(), resources(true), functions(), ""].join("\n"),
);
