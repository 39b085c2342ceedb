// The fields an answer holds that the contract does not list, found by walking the JSON against
// the zod schema's shapes (maps keyed by data, `z.record`, have no fields of their own).
import type { z } from "zod";

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object shapes `schema` allows at this level (the options of a union, wrappers removed). */
function shapesOf(schema: z.ZodType): Def[] {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return def.innerType ? shapesOf(def.innerType) : [];
    case "pipe":
      return def.in ? shapesOf(def.in) : [];
    case "union":
      return (def.options ?? []).flatMap(shapesOf);
    default:
      return [def];
  }
}

/**
 * Dotted paths of every key of `value` that `schema` does not name (`[]` an array element, `*`
 * a map's entry). `documented` adds the shapes docs/api.md spells out where the contract lets any
 * object through (e.g. `fetching.s3`).
 */
export function undocumentedKeys(
  value: unknown,
  schema: z.ZodType,
  documented: Record<string, z.ZodType> = {},
  path: string[] = [],
): string[] {
  const here = documented[path.join(".")] ?? schema;
  const defs = shapesOf(here);
  const out: string[] = [];
  if (Array.isArray(value)) {
    const element = defs.find((d) => d.type === "array")?.element;
    if (!element) return out;
    const seen = new Set<string>();
    for (const v of value)
      for (const k of undocumentedKeys(v, element, documented, [...path, "[]"])) seen.add(k);
    return [...seen];
  }
  if (value === null || typeof value !== "object") return out;
  const record = defs.find((d) => d.type === "record")?.valueType;
  if (record) {
    const seen = new Set<string>();
    for (const v of Object.values(value))
      for (const k of undocumentedKeys(v, record, documented, [...path, "*"])) seen.add(k);
    return [...seen];
  }
  const shapes = defs.filter((d) => d.type === "object").map((d) => d.shape ?? {});
  if (shapes.length === 0) return out; // z.unknown(): anything goes
  for (const [k, v] of Object.entries(value)) {
    const field = shapes.find((s) => Object.hasOwn(s, k))?.[k];
    if (!field) out.push([...path, k].join("."));
    else out.push(...undocumentedKeys(v, field, documented, [...path, k]));
  }
  return out;
}
