// What the tools (tools/) may use of the provider: the only module of it they import
// (test/unit/floors.test.ts), so that what they lean on is said in one place and the rest can
// change behind it. The client, the configuration, the kinds, a state's keys and URNs, a Face (for
// the stack journal), the version. Re-exports only: its compiled form ships in the package.
export { listFolder, MediahostClient, MediahostError, type ReadOperation, readAnswer } from "./client";
export { send } from "./client/http";
export { type Credentials, credentialsFor, DEFAULT_ACCOUNT, resolveAccounts } from "./config";
export { canonical } from "./diff";
export { Face, storedState } from "./face";
export { KIND_KEY, OWNER_KEY } from "./hidden";
export { parseUrn } from "./native/wire";
export { type KindName, kindByName, kinds } from "./resources";
export { readableFetching } from "./resources/account-settings";
export { ACCOUNT_READ, describe, importOf, type RefreshRead } from "./resources/kind";
export { PULUMI_RANGE, VERSION } from "./version";
