// The example a kind gives of itself (its `docs.example`): what the package schema renders in
// TypeScript, YAML and Go for the registry (scripts/registry-docs.ts), and what an end-to-end test
// runs as written. Plain values and references to the resources it declares first; no provider
// code, so a kind module imports it freely.

/** An output of another resource of the example, e.g. the `path` of the folder it declares first. */
export class Ref {
  constructor(
    readonly resource: string,
    readonly output: string,
  ) {}
}

export type Value = string | number | boolean | Ref | Value[] | { [key: string]: Value };

/** A resource an example declares because its own needs it to exist (a folder, an alias). */
export interface Declared {
  /** The kind's name, as the registry names it (provider/resources/index.ts). */
  kind: string;
  name: string;
  args: Record<string, Value>;
}

/** A kind's example: the resource it declares, and what that needs. */
export interface KindExample {
  /** What the example does, its heading. */
  title: string;
  /** The resource's name in the program. */
  name: string;
  args: Record<string, Value>;
  /** What it needs, declared before it: an example runs as written, in an empty account. */
  before?: Declared[];
}

/** How `pulumi import` names an object of the kind: the id's form in words, and an example id. */
export interface ImportId {
  form: string;
  example: string;
}
