// What the serialized provider shims require at run time (`pulumi-mediahost/provider`, a contract
// with every stack ever created: docs/upgrading.md), and the client for tools and tests.

export { operations } from "mediahost-contract";
export { check, configure, create, diff, read, remove, update } from "./adapter";
export * from "./client";
export { kinds } from "./resources";
