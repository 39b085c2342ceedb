// The shape of a resource kind: what one module under provider/resources declares. A kind states
// only what is its own — its input schema (the one source of its shape: the SDK's types, the
// diffed properties and the README's table derive from it), its replace and equivalence rules,
// and its API calls. Everything kinds share (the account check, carrying `accountAlias`, read
// inputs, "not found" meaning gone, the stack journal, takeovers, error shaping) is the
// lifecycle's (provider/lifecycle.ts). A kind talks to it only through the contexts below.
import { type OperationName, parentOf } from "mediahost-contract";
import type { z } from "zod";
import type { AccountContext } from "../account/context";
import { LISTING_PAGE } from "../account/listings";
import type { MediahostClient } from "../client";
import type { Equivalence } from "../diff";
import { log } from "../log";
import type { ImportId, KindExample } from "./example";

/** Outputs every resource records besides its inputs and the kind's own outputs. */
export interface Recorded {
  /** The account name the resource uses (`account` input), if any. */
  account?: string;
  /** The alias of the account the credentials reached when the object was created. */
  accountAlias: string;
  /** Present when the resource took over an object that existed before: what to put back on delete. */
  __adopted?: { prior?: unknown };
  /** Present when the resource took over an object another resource of the stack held. */
  __claim?: string;
}

/** What a kind's API calls work with, for one account. */
export interface KindContext {
  readonly client: MediahostClient;
  /** The account's shared state in this provider process: cached account object, writer, per-run caches. */
  readonly account: AccountContext;
  /** The alias of the account this resource lives in. */
  readonly accountAlias: string;
  info(message: string): void;
  warn(message: string): void;
}

export interface CreateContext extends KindContext {
  /**
   * The account the create lands in is known ("landed"): kinds writing through the account writer
   * learn it on the writer's read, and call this before anything is written; it notes the create
   * in the stack's journal. The lifecycle calls it itself for every other kind.
   */
  landed(accountAlias: string): void;
  /**
   * The object exists already. Returns when this resource may take it over — `adopt: true`, an
   * interrupted earlier run of this stack created it, or it is this stack's own (left in place by
   * a refused delete, or held by a resource being replaced) — and otherwise throws the error that
   * says how to adopt it. `prior` is what the object held, put back when the resource is deleted
   * after an adoption.
   */
  found(what: string, prior?: unknown): void;
  /** Whether this create took over an object (after `found`). */
  readonly tookOver: boolean;
}

export interface DeleteContext extends KindContext {
  /**
   * Whether an object that contains this one (`Kind.contains`: a folder, for the paths at or under
   * it) is being replaced in this run: what it contains goes (or stays) with it.
   */
  readonly containerLeaving: boolean;
  /**
   * The resource leaves the state without touching the object, which stays this stack's ("kept"):
   * a later create of the same object by this stack takes it over without `adopt`
   * (docs/reliability.md).
   */
  keep(reason: string): void;
}

/** What the README's resource table says about a kind. */
export interface KindDocs {
  /** What the kind is, in a sentence or three (the schema's and the SDKs' description). */
  summary: string;
  /** The properties cell (every input must be named in it; a test checks). */
  properties: string;
  /** What happens on delete. */
  delete: string;
  /** What a refresh can see change. */
  drift: string;
  /** Its example in the registry's docs (scripts/registry-docs.ts): arguments the kind accepts. */
  example: KindExample;
}

/**
 * A kind: what every kind declares (`KindCore`) and the optional capabilities it has
 * (`Capabilities`), each a group with a default when absent. The registry
 * (provider/resources/index.ts) states at compile time which kind has which.
 */
export interface Kind<S extends z.ZodObject = z.ZodObject, X extends object = object>
  extends KindCore<S, X>,
    Capabilities<S> {}

/** What every kind declares. */
export interface KindCore<S extends z.ZodObject = z.ZodObject, X extends object = object> {
  readonly name: string;
  /** Inputs, `account` excluded (every kind has it): a strict object, refinements allowed. */
  readonly inputs: S;
  /** The output-only properties the kind reports, as a zod shape (for the SDK's output types). */
  readonly outputs: { [K in keyof X]: z.ZodType<X[K]> };
  /**
   * Outputs that record an observation (a version, a time) rather than configuration: a change
   * of configuration already shows in an input, so drift reports leave these out.
   */
  readonly observations?: readonly string[];
  /** Properties whose change replaces the object (`account` is the lifecycle's to judge). */
  readonly replaceOn: readonly (keyof z.output<S> & string)[];
  readonly equivalent?: Partial<Record<keyof z.output<S> & string, Equivalence>>;
  readonly deleteBeforeReplace?: boolean;
  /** The object's natural key in its account, which is the resource's id (the account's alias for a singleton). */
  id(inputs: z.output<S>, accountAlias?: string): string;
  /** One object per account (the account's own settings): its id is the account's alias, which only a read tells. */
  readonly singleton?: boolean;
  readonly docs: KindDocs;
  /**
   * The kind writes through the account writer, which checks the account on the read it makes
   * just before each write: the lifecycle does not read the account first.
   */
  readonly viaAccountWriter?: boolean;

  /**
   * The calls a refresh's read of the object makes when nothing changed, for planning a check
   * against the hour's rate budget (mediahost-drift): tools/lib/budget.ts counts them.
   */
  refreshReads(olds: z.output<S> & X & Partial<Recorded>): readonly RefreshRead[];

  create(ctx: CreateContext, inputs: z.output<S>): Promise<X>;
  /**
   * The object's properties as they are now, or undefined when it is gone: the managed ones (the
   * lifecycle keeps the rest), or with scope "all" every one the service shows (an import).
   */
  read(
    ctx: KindContext,
    olds: State<S, X>,
    scope?: "managed" | "all",
  ): Promise<Partial<z.output<S> & X> | undefined>;
  update(ctx: KindContext, olds: State<S, X>, news: z.output<S>): Promise<X>;
  delete(ctx: DeleteContext, olds: State<S, X>): Promise<void>;
}

/**
 * The optional features of a kind, grouped: each is absent or whole. Absent, the lifecycle's
 * default holds: no place in the file tree, no secrets, no import.
 */
export interface Capabilities<S extends z.ZodObject = z.ZodObject> {
  /** Where the object sits in the account's file tree. */
  readonly tree?: TreeCapability<keyof z.output<S> & string>;
  /** Values the service takes but never shows, or that would give a secret away. */
  readonly secrets?: SecretsCapability<z.output<S>, keyof z.output<S> & string>;
  /**
   * Import (`pulumi import`, the native face): how the id names the object — the inputs that
   * identify it — or why the kind cannot be imported. Absent: it cannot ("declares no import").
   */
  readonly importing?: ImportCapability<z.output<S>> | { refused: string };
}

/** The names of the capabilities, for the registry's compile-time statement of who has which. */
export type CapabilityName = "tree" | "secrets" | "importing";

/**
 * Whether kind `K` has each capability, as types: `true` where its declaration gives it (an
 * `importing` that refuses counts as none).
 */
export type CapabilitiesOf<K> = {
  [C in CapabilityName]: C extends "importing"
    ? K extends { importing: { identity: unknown } }
      ? true
      : false
    : K extends { [P in C]: object }
      ? true
      : false;
};

/** A kind whose objects sit in the account's file tree (a folder, a file, what belongs to a path). */
export interface TreeCapability<K extends string = string> {
  /**
   * The property saying where the object sits (its path). When a folder holding it moves in the
   * same run, an object whose location changes just as the move carries it is not replaced: it
   * follows (the lifecycle updates it in place once the move is done), and its delete acts where
   * the move took it.
   */
  readonly location: K;
  /**
   * The property naming the folder or file the object belongs to, which must exist before it (its
   * options, meta, points): a "not found" on its create or update names that path as missing.
   */
  readonly belongsTo?: K;
  /**
   * The object contains others (a folder: every object at or under its path): once it is deleted,
   * or created anew, what the stack journal noted about them is no longer true, and while it is
   * being replaced, their deletes leave them to it (DeleteContext.containerLeaving).
   */
  contains?(ownId: string, otherKind: string, otherId: string): boolean;
  /**
   * A change of `location` moves the object, with everything it contains, instead of replacing
   * it: the kind's `update` is handed the old and new location and moves it (a rename). The
   * lifecycle refuses at check a move into the object itself. `rehome`: where an object this one
   * contains goes when this one moves from `from` to `to`. Absent: a new location replaces it.
   */
  readonly moves?: { rehome(otherId: string, from: string, to: string): string };
}

/** A kind with secret values: the native face marks them, the package schema declares them. */
export interface SecretsCapability<I = Record<string, unknown>, K extends string = string> {
  /** Inputs that are always secrets (write-only credentials). */
  readonly inputs?: readonly K[];
  /** Paths (from the top-level property) of values the service takes but never shows. */
  readonly writeOnly?: readonly (readonly string[])[];
  /** Outputs that are secrets for these inputs (the hash of inline content would give it away). */
  outputs?(inputs: I): string[];
  /**
   * Inputs as a program may give them, in the kind's own form (AccountSettings: the write-only
   * credentials out of `fetching` into `fetchingSecrets`). The dynamic SDK does it in the program;
   * the native face, whose programs may be YAML, at check.
   */
  normalize?(inputs: Record<string, unknown>): Record<string, unknown>;
  /**
   * The schema a property is judged by where its input schema takes it whole (AccountSettings'
   * `fetching`, judged with its credentials put back): what the package schema and the README
   * check describe it with.
   */
  readonly judgedBy?: Partial<Record<K, z.ZodType>>;
}

/**
 * How an id names an object for `pulumi import`. An imported resource is read with scope "all"
 * and manages what that read found. `reimports` says whether importing the object gives back a
 * resource declared with `inputs` (a File from `source` is not: an import declares inline
 * `content`, and refuses a file that is not text); mediahost-recover takes in the others through
 * the stack journal. Absent: it always does. `accountOwned` says the object stays the account's
 * (an image profile in /Profiles): imported as adopted, it is left in place on delete.
 */
export interface ImportCapability<I> {
  identity(id: string): Partial<I>;
  reimports?(inputs: Record<string, unknown>): boolean;
  accountOwned?(inputs: Partial<I>): boolean;
  /** The id's form and an example, for the docs' `## Import` section. */
  id: ImportId;
}

/**
 * One call of a refresh's read: objects naming the same `key` share it, one call per `batch` of
 * them (default 1: each its own). A readdir page answers for 100 siblings; the account object,
 * read once a run, for every object of the account.
 */
export interface RefreshRead {
  readonly operation: OperationName;
  readonly key: string;
  readonly batch?: number;
}

/** The account object, read once a run for every kind kept in it (and for the account check). */
export const ACCOUNT_READ: RefreshRead = { operation: "getAccount", key: "account", batch: Infinity };

/** A readdir page of the parent's listing (provider/account/listings.ts): 100 siblings a page. */
export const listingRead = (path: string): RefreshRead => ({
  operation: "readdir",
  key: parentOf(path),
  batch: LISTING_PAGE,
});

/** A resource's recorded outputs: its inputs, its own outputs and what the lifecycle records. */
export type State<S extends z.ZodObject = z.ZodObject, X extends object = object> = z.output<S> &
  X &
  Recorded;

/**
 * A resource's outputs as the engine hands them back: what the lifecycle recorded, as far as they
 * hold it with its types (provider/face.ts `storedState`). A call opens it into a `State` once it
 * knows the account.
 */
export type Stored = Record<string, unknown> & Partial<Recorded>;

/**
 * Declares a kind with its types checked (no behaviour of its own). Its type keeps which
 * capabilities it was given (`C`), for the registry's compile-time statement.
 */
export function defineKind<S extends z.ZodObject, X extends object, C extends Capabilities<S> = object>(
  kind: KindCore<S, X> & Capabilities<S> & C & { observations?: readonly (keyof X & string)[] },
): Kind<S, X> & Given<S, C> {
  // what the compiler cannot follow through the mapped type: the capabilities C gives are Given's
  return kind as Kind<S, X> & Given<S, C>;
}

/** The capabilities `C` gives, as `Capabilities` types them (present, not optional). */
type Given<S extends z.ZodObject, C> = {
  [P in keyof C & CapabilityName]-?: P extends "importing"
    ? C[P] extends { refused: string }
      ? { refused: string }
      : ImportCapability<z.output<S>>
    : NonNullable<Capabilities<S>[P]>;
};

/** The kind's import, or why it cannot be imported (the default: it declares none). */
export function importOf(kind: Kind): ImportCapability<Record<string, unknown>> | { refused: string } {
  return kind.importing ?? { refused: "the kind declares no import" };
}

/**
 * The properties of `props` that are secrets by the kind's own rules: its secret inputs, and the
 * outputs these inputs make secret.
 */
export function ownSecrets(kind: Kind, props: Record<string, unknown>): string[] {
  return [...(kind.secrets?.inputs ?? []), ...(kind.secrets?.outputs?.(props) ?? [])];
}

/** The input properties of a kind: `account` and its schema's keys, in that order. */
export function propertiesOf(kind: Kind): string[] {
  return ["account", ...Object.keys(kind.inputs.shape)];
}

/** How messages name a resource's object, e.g. `Folder /a`. */
export function describe(kind: Kind, props: Record<string, unknown>): string {
  try {
    return `${kind.name} ${kind.id(props)}`;
  } catch {
    return kind.name;
  }
}

/** The context a kind's calls get, for one account. */
export function kindContext(ctx: AccountContext, accountAlias: string): KindContext {
  return {
    client: ctx.client,
    account: ctx,
    accountAlias,
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
  };
}
