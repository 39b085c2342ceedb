// What makes an SDK resource class out of a kind: its argument and output types come from the
// kind's zod schema (types only: no provider code loads with the SDK), and at run time it is a
// `pulumi.dynamic.Resource` whose provider is the shim every kind shares, told the kind by a
// hidden property.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { KIND_KEY } from "../provider/hidden";
import type { Kind } from "../provider/resources/kind";
import { ownerInput } from "./owner";

import provider = require("./providers/any-kind");

/** A value a program may pass as it is, or as an Input, at any depth. */
export type DeepInput<T> = T extends (infer E)[]
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** The arguments of a kind's class: its schema's inputs, and the account name every resource takes. */
export type ArgsOf<K extends Kind> = {
  [P in keyof z.input<K["inputs"]>]: DeepInput<z.input<K["inputs"]>[P]>;
} & {
  /** A name under `mediahost:accounts`; the top-level `mediahost:*` credentials when absent. */
  account?: pulumi.Input<string>;
};

type OwnOutputs<K> = K extends Kind<z.ZodObject, infer X> ? X : never;

/** The outputs of a kind's class: its inputs echoed, its own outputs, and the account it lives in. */
export type OutputsOf<K extends Kind> = {
  readonly [P in keyof (z.output<K["inputs"]> & OwnOutputs<K>)]-?: pulumi.Output<
    (z.output<K["inputs"]> & OwnOutputs<K>)[P]
  >;
} & {
  readonly account: pulumi.Output<string | undefined>;
  /** The alias of the account the resource was created in. */
  readonly accountAlias: pulumi.Output<string>;
};

export type ResourceClass<A, O> = new (
  name: string,
  args: A,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & O;

/**
 * The class of the kind `name`. `outputs` lists the kind's own output properties (checked against
 * its schema by the compiler: every one, and no other); `prepare` turns the arguments into the
 * inputs the provider takes, where they differ; `secretOutputs` names outputs that are secrets
 * for these arguments (the engine keeps an output secret by itself only when an input of the
 * same name is).
 */
export function resourceClass<K extends Kind, A = ArgsOf<K>, O = OutputsOf<K>>(
  name: K["name"],
  outputs: { [P in keyof OwnOutputs<K>]-?: true },
  prepare: (args: A) => object = (args) => args as object,
  secretOutputs: (args: A) => (keyof OwnOutputs<K> & string)[] = () => [],
): ResourceClass<A, O> {
  const outputProps = Object.fromEntries(Object.keys(outputs).map((k) => [k, undefined]));
  return class extends pulumi.dynamic.Resource {
    constructor(resourceName: string, args: A, opts?: pulumi.CustomResourceOptions) {
      const secrets = secretOutputs(args);
      super(
        provider,
        resourceName,
        { ...prepare(args), [KIND_KEY]: name, ...ownerInput(), accountAlias: undefined, ...outputProps },
        secrets.length > 0
          ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] }
          : opts,
        "mediahost",
        name,
      );
    }
  } as unknown as ResourceClass<A, O>;
}
