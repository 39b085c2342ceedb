// What an operation's handler receives and may return. Handlers are typed from the operation
// table, so a handler sees exactly the parsed query and body its schemas produce.
import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import type { OperationName, Operations } from "mediahost-contract";
import type { z } from "zod";
import type { Account } from "../accounts";
import type { Context } from "../context";
import { badRequest } from "../errors";

/** Per-request state of a /v2 call, for the request log. */
export interface RequestContext {
  operation: string | null;
  account: string | null;
  /** Set once the request is in the log (a dropped connection is logged where it is dropped). */
  logged: boolean;
  /** A hand change of the console (emulator/console.ts). */
  via?: "console";
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set for /v2 requests only. */
    emu: RequestContext | null;
  }
}

type Part<N extends OperationName, K extends string> =
  Operations[N] extends Record<K, infer S extends z.ZodType> ? z.output<S> : undefined;

export interface Call<N extends OperationName> {
  ctx: Context;
  account: N extends "token" ? undefined : Account;
  query: Part<N, "query">;
  body: Part<N, "body">;
  now: number;
  request: FastifyRequest;
}

/** A non-JSON answer: file content. */
export class Raw {
  constructor(
    readonly body: Buffer | Readable,
    readonly contentType: string,
    readonly length: number,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** JSON to send, `undefined` for a 200 with an empty body, or Raw content. */
export type Handler<N extends OperationName> = (call: Call<N>) => unknown;

export type Handlers = { [N in OperationName]: Handler<N> };

/**
 * A path parameter as the tree uses it: no trailing slash, no empty, "." or ".." segment
 * (the table's schema has already checked the leading "/" and the length).
 */
export function cleanPath(raw: string, field: string): string {
  const path = raw.replace(/\/+$/, "") || "/";
  if (
    path !== "/" &&
    path
      .split("/")
      .slice(1)
      .some((s) => s === "" || s === "." || s === "..")
  ) {
    throw badRequest(`${field}: must not contain empty, "." or ".." segments`);
  }
  return path;
}

export const seconds = (ms: number) => Math.floor(ms / 1000);
