// What every resource kind shares: input validation with field-level failures (tolerant of
// preview's unknown values), a normalized property-by-property diff, and the shape of a kind
// module. Each kind (one module beside this one) supplies its schema and its operations.
import { z } from "zod";
import { FilePath } from "../api/schemas";
import type { AccountContext } from "../context";
import { OWNER_KEY } from "../journal";
import { log } from "../log";

/** The value Pulumi puts in place of anything not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Keys the dynamic-provider machinery adds to inputs and outputs. */
export const PROVIDER_KEY = "__provider";

export interface CheckFailure {
  property: string;
  reason: string;
}

/** Inputs every resource accepts. */
export const CommonInputs = {
  /** A name under `mediahost:accounts`; the top-level `mediahost:*` keys when absent. */
  account: z.string().min(1, { message: "must not be empty" }).optional(),
};

/** A folder or file path the provider manages: api-v2.md 2.8, plus rules that keep diffs exact. */
export const ManagedPath = FilePath.refine((p) => !p.split("/").some((seg) => seg === "." || seg === ".."), {
  message: 'must not contain "." or ".." segments',
})
  .refine((p) => !p.includes("//"), { message: 'must not contain empty segments ("//")' })
  .refine((p) => ![...p].some((c) => c.charCodeAt(0) < 0x20), {
    message: "must not contain control characters",
  })
  .transform((p) => (p.length > 1 ? p.replace(/\/+$/, "") : p));

/** The folder paths a resource may manage: not the root, which always exists. */
export const FolderPath = ManagedPath.refine((p) => p !== "/", { message: 'must not be the root "/"' });

/** Alias names: the spec gives no rule; the provider keeps them to URL-safe words. */
export const AliasName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, {
  message: "must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit",
});

function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === UNKNOWN) return UNKNOWN;
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function isUnderUnknown(root: unknown, path: PropertyKey[]): boolean {
  for (let i = 0; i <= path.length; i++) {
    if (valueAt(root, path.slice(0, i)) === UNKNOWN) return true;
  }
  return containsUnknown(valueAt(root, path));
}

/**
 * Validates `news` against the kind's schema. Failures name the property path and the rule.
 * Values unknown during preview are not judged (they are checked again once known). Returns
 * the normalized inputs when everything is known.
 */
export function checkInputs(schema: z.ZodType, news: Record<string, unknown>) {
  const { [PROVIDER_KEY]: provider, [OWNER_KEY]: owner, ...inputs } = news;
  const result = schema.safeParse(inputs);
  if (result.success) {
    return {
      inputs: {
        ...(result.data as object),
        [PROVIDER_KEY]: provider,
        ...(owner === undefined ? {} : { [OWNER_KEY]: owner }),
      },
      failures: [] as CheckFailure[],
    };
  }
  const failures = result.error.issues
    .filter((issue) => !isUnderUnknown(inputs, issue.path))
    .map((issue) => ({
      property: issue.path.map(String).join(".") || "(inputs)",
      reason: issue.message,
    }));
  return { inputs: news, failures };
}

/** Stable comparison: object key order does not matter, `undefined` keys count as absent. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

export type Equivalence = (a: unknown, b: unknown) => boolean;

export const sameSet: Equivalence = (a, b) => {
  const as = new Set((a as unknown[] | undefined) ?? []);
  const bs = new Set((b as unknown[] | undefined) ?? []);
  return as.size === bs.size && [...as].every((x) => bs.has(x));
};

export interface DiffSpec {
  /** Input properties, in the order they are reported. */
  properties: readonly string[];
  /** Properties whose change replaces the object instead of updating it. */
  replaceOn: readonly string[];
  /** Per-property comparison where plain equality is wrong (e.g. tags are a set). */
  equivalent?: Record<string, Equivalence>;
  deleteBeforeReplace?: boolean;
}

/**
 * Compares old outputs (which echo the inputs) with new inputs, property by property. An
 * unknown new value counts as a change; an input that was and stays absent is no change.
 */
export function diffInputs(spec: DiffSpec, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const changes: string[] = [];
  for (const key of spec.properties) {
    const a = olds[key];
    const b = news[key];
    if (containsUnknown(b)) {
      changes.push(key);
      continue;
    }
    const same = spec.equivalent?.[key] ? spec.equivalent[key](a, b) : canonical(a) === canonical(b);
    if (!same) changes.push(key);
  }
  const replaces = changes.filter((k) => spec.replaceOn.includes(k));
  return {
    changes: changes.length > 0,
    diffs: changes,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && spec.deleteBeforeReplace === true,
  };
}

/** Outputs every resource records besides its inputs. */
export interface CommonOutputs {
  account?: string;
  /** The account alias the credentials reached when the object was created. */
  accountAlias: string;
}

export interface ReadResult<O> {
  id: string;
  outs: O;
  inputs: Record<string, unknown>;
}

/** One resource kind: its schema and diff rules, and its operations over an account context. */
export interface ResourceKind<I extends { account?: string }, O extends CommonOutputs> {
  readonly name: string;
  readonly schema: z.ZodType<I>;
  readonly diff: DiffSpec;
  create(ctx: AccountContext, inputs: I): Promise<{ id: string; outs: O }>;
  /** `undefined` when the object is gone. */
  read(ctx: AccountContext, id: string, olds: O): Promise<ReadResult<O> | undefined>;
  update(ctx: AccountContext, id: string, olds: O, news: I): Promise<O>;
  delete(ctx: AccountContext, id: string, olds: O): Promise<void>;
}

/** The message of a create that found the object there already. */
export function adoptHint(kind: string, what: string, account: string): string {
  return (
    `${kind}: ${what} already exists in account "${account}". To manage the existing one, ` +
    `set \`adopt: true\` on this resource (it then takes over the object as it is and applies ` +
    "the declared properties); to keep it unmanaged, choose another name. (An interrupted run of " +
    "this same stack is recognised on the machine that ran it; elsewhere `adopt: true` is the way.)"
  );
}

/**
 * Notes a create in this stack's journal before it writes (journal.ts). The returned `found`
 * decides what an object that exists already means: fine with `adopt: true` or when an
 * interrupted earlier run of this stack created it (then taken over, with a note in the log),
 * else the adopt hint (and the note is dropped: the object is someone else's).
 */
export function beginCreate(ctx: AccountContext, kind: string, id: string, accountAlias: string) {
  const journal = ctx.journal(accountAlias);
  const earlier = journal?.begin(kind, id) ?? false;
  return {
    found(adopt: boolean | undefined, what: string): void {
      if (adopt) return;
      if (earlier) {
        log.info(
          `${kind}: ${what} exists already; an interrupted earlier run of this stack created it ` +
            "(it was never saved in the state): taking it over",
        );
        return;
      }
      journal?.forget(kind, id);
      throw new Error(adoptHint(kind, what, accountAlias));
    },
  };
}

/** Picks the input properties of a kind out of outputs (outputs echo inputs). */
export function inputsOf(properties: readonly string[], outs: object): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  const values = outs as Record<string, unknown>;
  for (const key of properties) if (values[key] !== undefined) picked[key] = values[key];
  return picked;
}
