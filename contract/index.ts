// mediahost-contract: the /v2 API as both the provider's client and the emulator know it.
export * from "./errors";
export * from "./operations";
export * from "./paths";
export * as schemas from "./schemas";
export * from "./secrets";
