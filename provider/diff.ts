// Comparing values the way users read them: object key order does not matter, `undefined` keys
// count as absent, some properties have their own equivalence (tags are a set). Shared by the
// provider's `diff` and the drift tool (tools/lib/diff.ts), so both call the same things equal.

/** The value Pulumi puts in place of anything not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Key-order-insensitive JSON: equal strings mean equal values (arrays compare in order). */
export function canonical(value: unknown, isLeaf: (v: object) => boolean = () => false): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) && !isLeaf(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

export type Equivalence = (a: unknown, b: unknown) => boolean;

export const sameSet: Equivalence = (a, b) => {
  const as = new Set((a as unknown[] | undefined) ?? []);
  const bs = new Set((b as unknown[] | undefined) ?? []);
  return as.size === bs.size && [...as].every((x) => bs.has(x));
};

/** Whether Pulumi's unknown sentinel appears anywhere in `value`. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
