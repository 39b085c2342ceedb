// What a data function is, for both faces and the package schema: provider/functions.ts and
// provider/media-functions.ts declare them with `define`.
import type { z } from "zod";
import type { MediahostClient } from "./client";

export interface DataFunction<A extends z.ZodObject = z.ZodObject, R = unknown, S extends string = string> {
  readonly description: string;
  readonly args: A;
  /** What it returns (for the schema, and the SDK's result types: sdk/functions.ts). */
  readonly result: z.ZodType<R>;
  /** Top-level results that are secrets (the SDK types them as Outputs). */
  readonly secrets?: readonly S[];
  /** Top-level arguments that are secrets (a key): the package schema marks them so. */
  readonly secretArgs?: readonly string[];
  run(client: MediahostClient, args: z.output<A>): Promise<Record<string, unknown>>;
}

/** Declares a data function, its arguments' types checked against its `run`, its types kept for the SDK. */
export function define<A extends z.ZodObject, R, S extends string = never>(
  fn: DataFunction<A, R, S>,
): DataFunction<A, R, S> {
  return fn;
}
