// The package schema of the native face (`mediahost`), made from the code, never by hand:
// resources from the kinds (provider/resources: inputs and outputs from their zod schemas,
// descriptions from the doc comments of their properties and from `docs.summary`, secrets from
// their `secrets` capability), functions from the data functions (provider/functions.ts),
// and the provider's configuration from the configuration module's keys. `npm run docs` writes
// it to provider/native/schema.json, which the plugin serves (GetSchema); a unit test fails when
// the file and the code disagree.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { z } from "zod";
import { ENV_FALLBACK } from "../provider/config";
import { dataFunctions } from "../provider/functions";
import { kinds } from "../provider/resources";
import type { Kind } from "../provider/resources/kind";
import { PLUGIN_DOWNLOAD_URL, VERSION } from "../provider/version";
import { exampleBlock, importSection, type KindName, TYPE_DOCS } from "./registry-docs";

const PACKAGE = "mediahost";
/** The repository: the sources' directory from scripts/ (tests) or from dist/scripts (the build). */
const root = [join(__dirname, ".."), join(__dirname, "..", "..")].find((d) =>
  existsSync(join(d, "provider", "resources", "kind.ts")),
) as string;

type Spec = Record<string, unknown>;
type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
};

const token = (name: string) => `${PACKAGE}:index:${name}`;
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Doc comments of the properties of object literals in a source file, by the literal's key path. */
function docComments(file: string): Map<string, string> {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(root, file), "utf8"),
    ts.ScriptTarget.ES2022,
    true,
  );
  const docs = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
      const text = ts
        .getJSDocCommentsAndTags(node)
        .map((d) => (typeof d.comment === "string" ? d.comment : ""))
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      if (text && !docs.has(node.name.text)) docs.set(node.name.text, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return docs;
}

/** Turns JSON schemas into Pulumi type specs, collecting the named object types it makes. */
class Types {
  readonly types: Record<string, Spec> = {};

  /** The Pulumi spec of `schema`; object types are named `<name>`. */
  spec(schema: JsonSchema, name: string, secretPaths: string[][] = []): Spec {
    const choices = (schema.anyOf ?? schema.oneOf ?? []).filter((s) => s.type !== "null");
    if (choices.length === 1) return this.spec(choices[0]!, name, secretPaths);
    if (choices.length > 1) {
      const kinds = new Set(choices.map((c) => c.type));
      return kinds.size === 1 && !kinds.has("object") && !kinds.has(undefined)
        ? { type: [...kinds][0] }
        : { $ref: "pulumi.json#/Any" };
    }
    switch (schema.type) {
      case "string":
      case "boolean":
      case "integer":
      case "number":
        return { type: schema.type };
      case "array":
        return {
          type: "array",
          items: schema.items ? this.spec(schema.items, `${name}Item`) : { $ref: "pulumi.json#/Any" },
        };
      case "object": {
        if (schema.properties && Object.keys(schema.properties).length > 0) {
          this.types[token(name)] = {
            type: "object",
            ...((schema.description ?? TYPE_DOCS[name])
              ? { description: schema.description ?? TYPE_DOCS[name] }
              : {}),
            properties: this.properties(schema.properties, name, secretPaths),
            ...(schema.required?.length ? { required: schema.required } : {}),
          };
          return { $ref: `#/types/${token(name)}` };
        }
        const values = schema.additionalProperties;
        return values && typeof values === "object" && Object.keys(values).length > 0
          ? { type: "object", additionalProperties: this.spec(values, `${name}Value`) }
          : { $ref: "pulumi.json#/Any" };
      }
      default:
        if (schema.enum || schema.const !== undefined)
          return { type: typeof (schema.enum?.[0] ?? schema.const) };
        return { $ref: "pulumi.json#/Any" };
    }
  }

  /** The properties of an object, each with its description; `secretPaths` marks secrets. */
  properties(
    props: Record<string, JsonSchema>,
    name: string,
    secretPaths: string[][] = [],
    docs: Map<string, string> = new Map(),
  ): Record<string, Spec> {
    return Object.fromEntries(
      Object.entries(props).map(([key, schema]) => {
        const below = secretPaths.filter((p) => p[0] === key).map((p) => p.slice(1));
        const spec = this.spec(
          schema,
          `${name}${upper(key)}`,
          below.filter((p) => p.length > 0),
        );
        const description = schema.description ?? docs.get(key) ?? TYPE_DOCS[`${name}.${key}`];
        return [
          key,
          {
            ...spec,
            ...(description ? { description } : {}),
            ...(below.some((p) => p.length === 0) ? { secret: true } : {}),
          },
        ];
      }),
    );
  }
}

// inputs as a program writes them; results as the provider gives them (provider/client/reads.ts
// reads numbers from numeric strings, `null` as absent)
const jsonSchema = (schema: z.ZodType, io: "input" | "output" = "input") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;

const ACCOUNT = {
  type: "string",
  description:
    "A name under the provider's `accounts`; the provider's own credentials when absent. Changing it to other credentials replaces the resource.",
};

function resource(kind: Kind, types: Types): Spec {
  const file = `provider/resources/${kind.name.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())}.ts`;
  const docs = docComments(file);
  const inputSchema = jsonSchema(kind.inputs);
  for (const [key, judge] of Object.entries(kind.secrets?.judgedBy ?? {})) {
    const described = inputSchema.properties?.[key]?.description;
    inputSchema.properties![key] = {
      ...jsonSchema(judge as z.ZodType),
      ...(described ? { description: described } : {}),
    };
  }
  const secretPaths = [
    ...(kind.secrets?.inputs ?? []).map((k) => [k]),
    ...(kind.secrets?.writeOnly ?? []).map((p) => [...p]),
  ];
  const inputs = {
    account: ACCOUNT,
    ...types.properties(inputSchema.properties ?? {}, kind.name, secretPaths, docs),
  };
  const outputSchema = jsonSchema(z.object(kind.outputs as z.ZodRawShape));
  const outputs = {
    ...inputs,
    ...types.properties(outputSchema.properties ?? {}, kind.name, [], docs),
    accountAlias: { type: "string", description: "The alias of the account the resource was created in." },
  };
  const description = [
    kind.docs.summary,
    `Deleting the resource ${kind.docs.delete}. Drift a refresh finds: ${kind.docs.drift}.`,
    exampleBlock(kind.name as KindName, inputs, types.types),
    importSection(kind.name as KindName),
  ].join("\n\n");
  return {
    description,
    properties: outputs,
    required: [
      ...new Set([...(inputSchema.required ?? []), ...(outputSchema.required ?? []), "accountAlias"]),
    ],
    inputProperties: inputs,
    ...(inputSchema.required?.length ? { requiredInputs: inputSchema.required } : {}),
  };
}

/** The provider's configuration: the keys provider/config.ts reads, with their environment defaults. */
function providerConfig(types: Types): Record<string, Spec> {
  types.types[token("AccountCredentials")] = {
    type: "object",
    description: "The credentials of one account, named under `accounts`.",
    properties: {
      baseUrl: { type: "string", description: "The API's base URL (default: the provider's `baseUrl`)." },
      clientId: { type: "string", description: "API client ID." },
      clientSecret: { type: "string", description: "API client secret.", secret: true },
    },
    required: ["clientId", "clientSecret"],
  };
  return {
    baseUrl: {
      type: "string",
      description: "The API's base URL (`https://…`; plain `http://` only for loopback addresses).",
      defaultInfo: { environment: [ENV_FALLBACK.baseUrl] },
    },
    clientId: {
      type: "string",
      description: "API client ID.",
      defaultInfo: { environment: [ENV_FALLBACK.clientId] },
    },
    clientSecret: {
      type: "string",
      description: "API client secret.",
      secret: true,
      defaultInfo: { environment: [ENV_FALLBACK.clientSecret] },
    },
    accounts: {
      type: "object",
      additionalProperties: { $ref: `#/types/${token("AccountCredentials")}` },
      description: "Several accounts reached by one provider: resources pick one with `account: <name>`.",
      secret: true,
    },
    operationTimeoutSeconds: {
      type: "number",
      description: "Each API operation's deadline, retries, token requests and checks included (default 30).",
      defaultInfo: { environment: [ENV_FALLBACK.operationTimeoutSeconds] },
    },
    maxRateLimitWaitSeconds: {
      type: "number",
      description:
        "How long a call may wait for an exhausted rate-limit counter to reset before failing (default 60; 0 never waits).",
      defaultInfo: { environment: [ENV_FALLBACK.maxRateLimitWaitSeconds] },
    },
    rateBudgetPercent: {
      type: "number",
      description:
        "The share of each rate-limit counter's hourly limit one run may spend (above 0, at most 100; default: no bound): a call past it fails at once, naming the counter.",
      defaultInfo: { environment: [ENV_FALLBACK.rateBudgetPercent] },
    },
  };
}

function dataFunction(
  name: string,
  fn: (typeof dataFunctions)[keyof typeof dataFunctions],
  types: Types,
): Spec {
  const args = jsonSchema(fn.args);
  const result = jsonSchema(fn.result, "output");
  const typeName = upper(name);
  return {
    description: fn.description,
    inputs: {
      properties: types.properties(
        args.properties ?? {},
        `${typeName}Args`,
        (fn.secretArgs ?? []).map((s) => [s]),
        docComments("provider/functions.ts"),
      ),
      ...(args.required?.length ? { required: args.required } : {}),
    },
    outputs: {
      properties: types.properties(
        result.properties ?? {},
        `${typeName}Result`,
        (fn.secrets ?? []).map((s) => [s]),
      ),
      ...(result.required?.length ? { required: result.required } : {}),
    },
  };
}

/** The whole package schema, as the plugin serves it. */
export function packageSchema(): Spec {
  const types = new Types();
  const config = providerConfig(types);
  const resources = Object.fromEntries(Object.values(kinds).map((k) => [token(k.name), resource(k, types)]));
  const functions = Object.fromEntries(
    Object.entries(dataFunctions).map(([name, fn]) => [token(name), dataFunction(name, fn, types)]),
  );
  return {
    name: PACKAGE,
    displayName: "Media host",
    version: VERSION,
    description:
      "Resources of a media hosting and CDN account's /v2 API: settings, aliases, custom domains, sub-accounts, folders with their options and meta, and files.",
    keywords: ["pulumi", "mediahost", "cdn", "media", "category/cloud", "kind/native"],
    license: "Apache-2.0",
    repository: "https://github.com/pulumi-mediahost/pulumi-mediahost",
    publisher: "pulumi-mediahost",
    // package.json's `pulumi.server`; a release may name another (scripts/release.ts)
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // SDKs laid out to be packed on their own (a go.mod of the Go SDK's own, under sdk/go)
    meta: { supportPack: true },
    config: { variables: config },
    provider: {
      description: "The provider of one media hosting account (or several, under `accounts`).",
      inputProperties: config,
    },
    resources,
    functions,
    types: types.types,
    language: {
      // programs import the native face's classes from the package itself: what `pulumi import`
      // writes runs as it is
      nodejs: {
        packageName: "pulumi-mediahost/native",
        packageDescription: "A Pulumi package for a media hosting and CDN account",
      },
      python: { packageName: "pulumi_mediahost" },
      go: {
        importBasePath: "github.com/pulumi-mediahost/pulumi-mediahost/sdk/go/mediahost",
        generateResourceContainerTypes: false,
      },
      csharp: { rootNamespace: "PulumiMediahost" },
    },
  };
}

export const SCHEMA_FILE = "provider/native/schema.json";

/** The schema as the file holds it. */
export function schemaText(): string {
  return `${JSON.stringify(packageSchema(), null, 2)}\n`;
}
