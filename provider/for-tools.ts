// What the tools (tools/) may use of the provider, and the only module of it they import, so
// that what they lean on is said in one place and the rest of provider/ can change behind it
// (test/unit/floors.test.ts holds them to it). Each tool acts as the provider would: it reads an
// account, describes a state and names accounts the way the provider does. Re-exports only.

// the client: typed calls, raw HTTP through the same transport, an answer read as the provider reads it
export { listFolder, MediahostClient, MediahostError, type ReadOperation, readAnswer } from "./client";
export { send } from "./client/http";
// the configuration: the accounts a stack names and their credentials
export { type Credentials, credentialsFor, DEFAULT_ACCOUNT, resolveAccounts } from "./config";
// a state: values compared as the provider compares them, the stack's accounts and journal as the
// provider keys them (mediahost-recover notes creates through a Face), hidden keys, URNs
export { canonical } from "./diff";
export { Face } from "./face";
export { KIND_KEY, OWNER_KEY } from "./hidden";
export { parseUrn } from "./native/wire";
// the kinds: each by name, how it describes an object, what a refresh of it reads
export { type KindName, kindByName, kinds } from "./resources";
export { readableFetching } from "./resources/account-settings";
export { ACCOUNT_READ, describe, type RefreshRead } from "./resources/kind";
// the version: the package's own, and the Pulumi SDK range a generated program depends on
export { PULUMI_RANGE, VERSION } from "./version";
