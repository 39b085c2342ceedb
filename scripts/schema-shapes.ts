// The package schema's shapes (scripts/schema.ts writes it) as the pages of docs/reference
// (scripts/reference.ts) and the declarations for older TypeScript (scripts/legacy-types.ts) read it.

/** A property, or an object type with its properties. */
export type SchemaProp = {
  type?: string;
  $ref?: string;
  items?: SchemaProp;
  additionalProperties?: SchemaProp;
  description?: string;
  secret?: boolean;
  properties?: Record<string, SchemaProp>;
  required?: string[];
};

export type SchemaResource = {
  description: string;
  properties: Record<string, SchemaProp>;
  required?: string[];
  inputProperties: Record<string, SchemaProp>;
  requiredInputs?: string[];
};

export type SchemaFunction = { description: string; inputs?: SchemaProp; outputs: SchemaProp };

export type SchemaShape = {
  provider: { inputProperties: Record<string, SchemaProp> };
  resources: Record<string, SchemaResource>;
  functions: Record<string, SchemaFunction>;
  types: Record<string, SchemaProp>;
};
