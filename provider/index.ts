// What the serialized provider shim requires at run time (`pulumi-mediahost/provider`), and
// the client for tools and tests.

export { operations } from "./api";
export * from "./client";
export { check, configure, create, diff, kinds, read, remove, update } from "./dynamic";
