// Request validation with the operation table's zod schemas, answered in the hapi style the
// service uses: 400 with a message "<field path>: <rule>" naming the first offending field.
import type { z } from "zod";
import { badRequest } from "./errors";

type Issue = z.core.$ZodIssue;

/** zod reports a missing field as a type error on `undefined`: say "is required" instead. */
const errorMap = (issue: z.core.$ZodRawIssue) =>
  issue.code === "invalid_type" && issue.input === undefined ? "is required" : undefined;

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`;
    return out === "" ? String(key) : `${out}.${String(key)}`;
  }, "");
}

function describeIssue(issue: Issue, where: string): string {
  if (issue.code === "unrecognized_keys") {
    return `${fieldPath([...issue.path, issue.keys[0] as string])}: is not allowed`;
  }
  // unions (a boolean or number, or its string form in a query) report the complaint of the
  // alternative that accepted the value's type, if one did
  if (issue.code === "invalid_union") {
    const firsts = issue.errors.map((e) => e[0]).filter((e): e is Issue => e !== undefined);
    const inner = firsts.find((e) => e.code !== "invalid_type" || e.path.length > 0) ?? firsts[0];
    if (inner) return describeIssue({ ...inner, path: [...issue.path, ...inner.path] } as Issue, where);
  }
  return `${fieldPath(issue.path) || where}: ${issue.message}`;
}

export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: "query" | "body",
): z.output<S> {
  const result = schema.safeParse(input, { error: errorMap });
  if (result.success) return result.data;
  throw badRequest(describeIssue(result.error.issues[0] as Issue, where));
}
