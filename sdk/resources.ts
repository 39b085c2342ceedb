// The resource classes programs use, in both faces: made from the kinds (provider/resources) by
// `npm run docs` (sdk/kinds.ts), with what the program does for the kinds whose arguments differ
// from their schema's (sdk/prepare.ts). A property exists in one place only: the kind's schema.
export * from "./kinds";
export type { FetchingArgs } from "./prepare";
