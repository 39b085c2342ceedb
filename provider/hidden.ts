// Keys the SDK adds to every resource's inputs and the provider carries into its outputs. They are
// part of no diff and no secret. A module of its own, without dependencies, because the SDK
// imports it when a program loads.

/** Which stack declares the resource (the provider process is not told): keys the stack journal. */
export const OWNER_KEY = "__mediahostOwner";

/** The resource's kind, for resources whose serialized provider is the shim every kind shares. */
export const KIND_KEY = "__mediahostKind";

/** The serialized provider the dynamic-provider machinery adds. */
export const PROVIDER_KEY = "__provider";

/** Every key the dynamic face keeps beside a resource's own properties. */
export const HIDDEN_KEYS: readonly string[] = [PROVIDER_KEY, OWNER_KEY, KIND_KEY];
