// What makes an SDK resource class out of a kind: its argument and output types come from the
// kind's zod schema (types only: no provider code loads with the SDK), and at run time it is a
// `pulumi.dynamic.Resource` whose provider is the shim every kind shares, told the kind by a
// hidden property.
import { dirname, sep } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { KIND_KEY } from "../provider/hidden";
import type { Kinds } from "../provider/resources";
import type { Kind } from "../provider/resources/kind";
import { PLUGIN_DOWNLOAD_URL, VERSION } from "../provider/version";
import { ownerInput } from "./owner";
import { type Preparation, type Prepared, preparations } from "./prepare";

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

/** The arguments of the kind `N`'s classes: as sdk/prepare.ts has them, or its schema's. */
export type ArgsFor<N extends keyof Kinds> = N extends keyof Prepared
  ? Prepared[N]["args"]
  : ArgsOf<Kinds[N]>;

/** The outputs of the kind `N`'s classes: as sdk/prepare.ts has them, or its schema's. */
export type OutputsFor<N extends keyof Kinds> = N extends keyof Prepared
  ? Prepared[N]["outputs"]
  : OutputsOf<Kinds[N]>;

export type ResourceClass<A, O, R = pulumi.dynamic.Resource> = new (
  name: string,
  args: A,
  opts?: pulumi.CustomResourceOptions,
) => R & O;

/** What `get` takes of an existing object's state: any of its properties, each an Input. */
export type StateOf<O> = { [P in keyof O]?: O[P] extends pulumi.Output<infer T> ? pulumi.Input<T> : never };

/** A native class: a constructor, and the static methods every registry SDK's classes carry. */
export type NativeClass<A, O> = ResourceClass<A, O, pulumi.CustomResource> & {
  /**
   * Reads an existing object of the account into the program by its id (the id `pulumi import`
   * takes), through the plugin's Read: its outputs are what the account holds. The object is not
   * managed: nothing is written, and `pulumi destroy` leaves it.
   */
  get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: StateOf<O>,
    opts?: pulumi.CustomResourceOptions,
  ): pulumi.CustomResource & O;
  /** Whether `obj` is a resource of this kind, also when it was made by another copy of the SDK. */
  isInstance(obj: unknown): obj is pulumi.CustomResource & O;
};

/** A kind's class in both faces. */
export interface KindClasses<A, O> {
  /**
   * A `pulumi.dynamic.Resource` whose provider is the shim every kind shares
   * (type `pulumi-nodejs:dynamic/mediahost:<Kind>`).
   */
  dynamic: ResourceClass<A, O>;
  /** A resource of the native provider plugin (type `mediahost:index:<Kind>`). */
  native: NativeClass<A, O>;
}

type Schema = { resources: Record<string, { properties: Record<string, unknown> }> };
let schema: Schema | undefined;

/** Every property of a native kind, as the package schema lists them (loaded on the first `get`). */
function propertiesOf(type: string): Record<string, undefined> {
  schema ??= require("../provider/native/schema.json") as Schema;
  return Object.fromEntries(Object.keys(schema.resources[type]?.properties ?? {}).map((k) => [k, undefined]));
}

/**
 * What the native face asks the engine for, as generated SDKs do: the plugin of this package's
 * version, downloaded from `pulumi.server` of its package.json when the CLI has none.
 */
export const PLUGIN_OPTIONS: { version: string; pluginDownloadURL?: string } = {
  version: VERSION,
  ...(PLUGIN_DOWNLOAD_URL ? { pluginDownloadURL: PLUGIN_DOWNLOAD_URL } : {}),
};

/** Where the SDK's own modules are: their frames are not where a program declared a resource. */
const SDK_DIR = `${__dirname}${sep}`;
/** Where the @pulumi/pulumi our classes extend is: its frames come before the program's and after it. */
const PULUMI_DIR = `${dirname(require.resolve("@pulumi/pulumi"))}${sep}`;
const TS_NODE = `${sep}node_modules${sep}ts-node${sep}`;

/** A frame of what runs the program, below the program's own: Node.js's internals, ts-node, Pulumi's runner. */
function isRunnerFrame(file: string | undefined | null): boolean {
  return !file || file.startsWith("node:") || file.startsWith(PULUMI_DIR) || file.includes(TS_NODE);
}

/**
 * Formats the stacks read while a resource registers, and returns what undoes that:
 * - @pulumi/pulumi's "debuggable" promises are left unformatted: the SDK reads a stack for each
 *   only to print it should the promise leak, and mapping its frames costs a program much of its
 *   CPU (docs/benchmark-history.md, "The program's stack traces").
 * - The SDK's own frames but the first `keep` are left out, so the resource's source position is
 *   the program's line that declared it: Pulumi takes it a fixed count of frames down, past one
 *   class of the provider's (`pulumi.dynamic.Resource` for the dynamic face: keep none of ours;
 *   ours for the native face: keep one).
 * - Below the program's first frame, the frames of what runs the program (Node.js's internals,
 *   ts-node, Pulumi's runner) are left out too: the same for every resource and never where one
 *   was declared, they only grow the state the engine rewrites at every step
 *   (docs/benchmark-history.md, "The runner's frames").
 * Stacks read later (an error the program reports) get the runtime's own formatter back.
 */
function registrationStacks(keep: 0 | 1): () => void {
  const format = Error.prepareStackTrace;
  // Node.js's own formatter is a function in every version the package supports; should a
  // program have removed it, nothing is changed rather than formatting stacks another way
  if (!format) return () => {};
  const program = (frames: NodeJS.CallSite[]) => {
    let ours = 0;
    const kept = frames.filter((frame) => !frame.getFileName()?.startsWith(SDK_DIR) || ours++ < keep);
    // Pulumi's frames above the program's (and ours kept) count for its fixed skip: they stay
    const first = kept.findIndex((frame) => {
      const file = frame.getFileName();
      return !file?.startsWith(PULUMI_DIR) && !file?.startsWith(SDK_DIR);
    });
    if (first < 0) return kept;
    return [
      ...kept.slice(0, first + 1),
      ...kept.slice(first + 1).filter((frame) => !isRunnerFrame(frame.getFileName())),
    ];
  };
  Error.prepareStackTrace = (err, frames) =>
    frames[0]?.getFunctionName() === "debuggablePromise" ? String(err) : format(err, program(frames));
  return () => {
    Error.prepareStackTrace = format;
  };
}

/**
 * The kinds whose changes the provider gathers into one account update per wave of the engine's
 * steps (their kinds' `viaAccountWriter`, provider/account/writer.ts), written here by
 * `npm run docs` so that the SDK loads no kind.
 */
// writers:start (made by `npm run docs` from provider/resources)
export const ACCOUNT_WRITER_KINDS: ReadonlySet<string> = new Set(["AccountSettings", "Alias"]);
// writers:end

let accountChangesRegistered: Promise<void> | undefined;

/**
 * Resolves a turn of the event loop later, when the account changes a program declared in this
 * turn have gone to the engine: the other kinds' registrations wait for it (an entry of
 * `dependsOn` that adds no dependency). Pulumi serializes properties one `await` each, so a
 * `Folder` would otherwise reach the engine before an `Alias` declared above it; declared first,
 * the account changes fill the engine's first slots together, and the provider writes them in
 * fewer, fuller waves (docs/benchmark-history.md, "Since: account changes first").
 */
function afterAccountChanges(): Promise<void> {
  accountChangesRegistered ??= new Promise((resolve) =>
    setImmediate(() => {
      accountChangesRegistered = undefined;
      resolve();
    }),
  );
  return accountChangesRegistered;
}

/**
 * The classes of the kind `name`, one per face. `outputs` lists the kind's own output properties
 * (checked against its schema by the compiler: every one, and no other); what the program does
 * with the arguments first, if anything, is the kind's entry in sdk/prepare.ts. Both faces send
 * the same inputs, so a stack moves from one to the other without a change: the native class
 * carries an alias to the dynamic type.
 */
export function kindClasses<N extends keyof Kinds, A = ArgsFor<N>, O = OutputsFor<N>>(
  name: N,
  outputs: { [P in keyof OwnOutputs<Kinds[N]>]-?: true },
): KindClasses<A, O> {
  const own: Preparation<A, O> = Object.hasOwn(preparations, name)
    ? (preparations[name as keyof Prepared] as Preparation<A, O>)
    : {};
  const prepare = (args: A): object => own.prepare?.(args) ?? (args as object);
  const secretOutputs = (args: A): string[] => own.secretOutputs?.(args) ?? [];
  const outputProps = Object.fromEntries(Object.keys(outputs).map((k) => [k, undefined]));
  const options = (
    args: A,
    opts?: pulumi.CustomResourceOptions,
  ): pulumi.CustomResourceOptions | undefined => {
    const secrets = secretOutputs(args);
    const own =
      secrets.length > 0
        ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] }
        : opts;
    if (ACCOUNT_WRITER_KINDS.has(name)) return own;
    // Pulumi awaits a promise given as `dependsOn` and takes the dependencies from what it resolves to
    const dependsOn = afterAccountChanges().then(() => own?.dependsOn ?? []);
    return { ...own, dependsOn: dependsOn as pulumi.Input<pulumi.Resource[]> };
  };
  const type = `mediahost:index:${name}`;
  const dynamicType = `pulumi-nodejs:dynamic/mediahost:${name}`;
  return {
    dynamic: class extends pulumi.dynamic.Resource {
      constructor(resourceName: string, args: A, opts?: pulumi.CustomResourceOptions) {
        const restore = registrationStacks(0);
        try {
          super(
            provider,
            resourceName,
            { ...prepare(args), [KIND_KEY]: name, ...ownerInput(), accountAlias: undefined, ...outputProps },
            options(args, opts),
            "mediahost",
            name,
          );
        } finally {
          restore();
        }
      }
    } as unknown as ResourceClass<A, O>,
    native: class Native extends pulumi.CustomResource {
      /** What `@pulumi/policy`'s `isTypeOf` matches resources with. */
      static readonly __pulumiType = type;

      static get(
        this: new (
          n: string,
          a: A,
          o?: pulumi.CustomResourceOptions,
        ) => Native,
        resourceName: string,
        id: pulumi.Input<pulumi.ID>,
        state?: StateOf<O>,
        opts?: pulumi.CustomResourceOptions,
      ): Native {
        return new this(resourceName, state as A, { ...opts, id });
      }

      static override isInstance(obj: unknown): obj is Native {
        return (obj as { __pulumiType?: unknown } | null | undefined)?.__pulumiType === type;
      }

      constructor(resourceName: string, args: A, opts?: pulumi.CustomResourceOptions) {
        if (opts?.id !== undefined) {
          // a read of an existing object: the state given, every other property read from the account
          super(
            type,
            resourceName,
            { ...propertiesOf(type), ...(args ?? {}) },
            { ...PLUGIN_OPTIONS, ...opts },
          );
          return;
        }
        const own = options(args, opts) ?? {};
        const restore = registrationStacks(1);
        try {
          super(
            type,
            resourceName,
            { ...prepare(args), accountAlias: undefined, ...outputProps },
            // a stack of the dynamic face moves to this one without a replace (docs/upgrading.md)
            { ...PLUGIN_OPTIONS, ...own, aliases: [...(own.aliases ?? []), { type: dynamicType }] },
          );
        } finally {
          restore();
        }
      }
    } as unknown as NativeClass<A, O>,
  };
}
