export * from "./operations";
export * as schemas from "./schemas";
