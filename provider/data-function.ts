// What a data function is, for both faces and the package schema: provider/functions.ts and
// provider/media-functions.ts declare them with `define`.
import type { z } from "zod";
import type { MediahostClient } from "./client";

export interface DataFunction<A extends z.ZodObject = z.ZodObject> {
  readonly description: string;
  readonly args: A;
  /** What it returns (for the schema). */
  readonly result: z.ZodType;
  /** Top-level results that are secrets. */
  readonly secrets?: readonly string[];
  /** Top-level arguments that are secrets (a key): the package schema marks them so. */
  readonly secretArgs?: readonly string[];
  run(client: MediahostClient, args: z.output<A>): Promise<Record<string, unknown>>;
}

/** Declares a data function, its arguments' types checked against its `run`. */
export function define<A extends z.ZodObject>(fn: DataFunction<A>): DataFunction<A> {
  return fn;
}
