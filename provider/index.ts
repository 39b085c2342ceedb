// What the serialized provider shims require at run time (`pulumi-mediahost/provider`, a contract
// with every stack ever created: docs/upgrading.md), and the client for tools and tests.

export { operations } from "mediahost-contract";
export * from "./client";
export { check, configure, create, diff, read, remove, update } from "./dynamic";
export { kinds } from "./resources";
