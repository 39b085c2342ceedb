// Every limit the provider enforces on an input is stated where users read about the property:
// its description in the package schema, which docs/reference is made from. The limits are read
// off the kinds' and the data functions' zod schemas (their JSON Schema: maxLength, maxItems,
// maximum, minimum); a property, or an item of a list, with one must name the number.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dataFunctions } from "../../provider/functions";
import schemaJson from "../../provider/native/schema.json";
import { kinds } from "../../provider/resources";

type Json = {
  type?: string;
  properties?: Record<string, Json>;
  items?: Json;
  additionalProperties?: Json | boolean;
  anyOf?: Json[];
  $ref?: string;
  description?: string;
  maxLength?: number;
  maxItems?: number;
  maximum?: number;
  minimum?: number;
  exclusiveMinimum?: number;
};
const pkg = schemaJson as unknown as {
  resources: Record<string, { inputProperties: Record<string, Json> }>;
  functions: Record<string, { inputs?: { properties?: Record<string, Json> } }>;
  types: Record<string, Json>;
};

/** The limits of one value (a list's items' included), as numbers. */
function limitsOf(s: Json): number[] {
  const own = [s.maxLength, s.maxItems, s.maximum, s.minimum && s.minimum > 1 ? s.minimum : undefined];
  const items = s.items ? limitsOf(s.items) : [];
  const alternatives = (s.anyOf ?? []).flatMap(limitsOf);
  return [...own, ...items, ...alternatives].filter(
    (n): n is number => typeof n === "number" && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER,
  );
}

const mentions = (text: string, n: number) =>
  [String(n), n.toLocaleString("en-US")].some((form) =>
    new RegExp(`(^|[^\\d,])${form}([^\\d,]|$)`).test(text),
  );

/** Properties whose limits their documented description does not name: `path: limit`. */
function undocumented(zodJson: Json, documented: Record<string, Json>, path: string): string[] {
  const missing: string[] = [];
  for (const [key, s] of Object.entries(zodJson.properties ?? {})) {
    const doc = documented[key];
    if (!doc) continue; // not in the schema as such (the SDK gives it another form)
    const text = doc.description ?? "";
    for (const n of limitsOf(s)) if (!mentions(text, n)) missing.push(`${path}.${key}: ${n}`);
    const nested = s.anyOf?.find((a) => a.properties) ?? s;
    const ref = doc.$ref ?? doc.items?.$ref;
    const type = ref ? pkg.types[ref.replace("#/types/", "")] : undefined;
    const inner = nested.properties ? nested : nested.items?.properties ? nested.items : undefined;
    if (inner && type?.properties) missing.push(...undocumented(inner, type.properties, `${path}.${key}`));
  }
  return missing;
}

const jsonOf = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Json;

describe("every limit the provider enforces is in the description of its property", () => {
  it("on every resource's inputs, nested types included", () => {
    const missing = Object.values(kinds).flatMap((kind) =>
      undocumented(
        jsonOf(kind.inputs),
        pkg.resources[`mediahost:index:${kind.name}`]?.inputProperties ?? {},
        kind.name,
      ),
    );
    expect(missing).toEqual([]);
  });

  it("on every data function's arguments", () => {
    const missing = Object.entries(dataFunctions).flatMap(([name, fn]) =>
      undocumented(jsonOf(fn.args), pkg.functions[`mediahost:index:${name}`]?.inputs?.properties ?? {}, name),
    );
    expect(missing).toEqual([]);
  });

  it("finds a limit left out", () => {
    const s = jsonOf(z.strictObject({ name: z.string().max(64) }));
    expect(undocumented(s, { name: { type: "string", description: "A name." } }, "X")).toEqual([
      "X.name: 64",
    ]);
    expect(undocumented(s, { name: { type: "string", description: "A name (at most 64)." } }, "X")).toEqual(
      [],
    );
  });
});
