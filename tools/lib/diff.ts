// Property-level drift from the engine events of a refresh preview (`pulumi refresh
// --preview-only`). For every resource the refresh would change, the engine event carries the
// state before (`metadata.old`) and what the provider read from the account (`metadata.new`),
// but no property detail for dynamic providers (`detailedDiff` is null): this module computes
// it, leaf by leaf, as dotted paths. Secrets never leave the engine in clear: the events carry
// them as secret markers with the value redacted, and they are shown as "[secret]".
import { canonical, kindByName } from "../../provider/for-tools";

/** Pulumi's signature key of a secret value in state and in engine events. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_TEXT = "[secret]";

/** Top-level keys of the machinery (`__provider`, and any other `__` key a provider keeps for itself), never drift. */
const isInternalKey = (key: string) => key.startsWith("__");

export interface PropertyDrift {
  /** Dotted path, e.g. `minify.enabled`, `fetching.http.url`, `tags`. */
  property: string;
  /** The value in the stack's state (undefined when absent there). */
  state: unknown;
  /** The value read from the account (undefined when absent there). */
  account: unknown;
}

export interface ResourceDrift {
  urn: string;
  /** The resource's name in the program. */
  name: string;
  /** The type token, e.g. `pulumi-nodejs:dynamic/mediahost:FolderMeta`. */
  type: string;
  /** `changed`: properties differ; `gone`: the account no longer has the object. */
  kind: "changed" | "gone";
  properties: PropertyDrift[];
}

export function isSecret(value: unknown): boolean {
  return !!value && typeof value === "object" && SECRET_SIG in (value as Record<string, unknown>);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value) && !isSecret(value);
}

/** Key-order-insensitive JSON, for comparing leaves (arrays compare in order; secrets are leaves). */
export function canonicalJson(value: unknown): string {
  return canonical(value, isSecret);
}

/**
 * Every leaf where `state` and `account` differ, as dotted paths. Objects are walked key by key;
 * arrays (tags, lists) and scalars are leaves. A secret on both sides cannot be compared (the
 * events redact it) and is skipped; a secret on one side only is reported, shown as "[secret]".
 */
export function propertyDiffs(state: unknown, account: unknown, prefix = ""): PropertyDrift[] {
  if (isPlainObject(state) && isPlainObject(account)) {
    const keys = [...new Set([...Object.keys(state), ...Object.keys(account)])]
      .filter((k) => !(prefix === "" && isInternalKey(k)))
      .sort();
    return keys.flatMap((k) => propertyDiffs(state[k], account[k], prefix ? `${prefix}.${k}` : k));
  }
  if (isSecret(state) && isSecret(account)) return [];
  if (canonicalJson(state) === canonicalJson(account)) return [];
  return [{ property: prefix || "(value)", state: redact(state), account: redact(account) }];
}

/** The value with every secret replaced by "[secret]". */
export function redact(value: unknown): unknown {
  if (isSecret(value)) return SECRET_TEXT;
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
  }
  return value;
}

/** The parts of an engine event that matter here (a `resOutputsEvent`'s metadata). */
export interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
  new?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
}

export function nameOfUrn(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** What the resource's kind records as seen rather than configured (a file's mtime): not drift. */
export function observationsOf(urn: string): readonly string[] {
  return kindByName(kindOfUrn(urn))?.observations ?? [];
}

/** The kind of a resource of this provider from its URN (`...:mediahost:Folder::name` → `Folder`). */
export function kindOfUrn(urn: string): string {
  const type = urn.slice(0, urn.lastIndexOf("::"));
  return type.slice(type.lastIndexOf(":") + 1);
}

/**
 * The drift one refresh step shows, or undefined when there is none. Outputs are compared (the
 * provider echoes every input into them, and adds what it reads, like an alias's custom
 * domain); inputs are compared too, for providers that keep inputs apart. A kind's observations
 * (a file's mtime, size and hash) are left out: a change of content shows as its input
 * (`contentSha256`), once.
 */
export function driftOfStep(step: StepMetadata): ResourceDrift | undefined {
  if (step.type === "pulumi:pulumi:Stack" || step.type.startsWith("pulumi:providers:")) return undefined;
  const base = { urn: step.urn, name: nameOfUrn(step.urn), type: step.type };
  if (step.op === "same") return undefined;
  if (step.op === "delete" || (step.old && !step.new)) {
    return { ...base, kind: "gone", properties: [] };
  }
  if (!step.old || !step.new) return undefined;
  const found = new Map<string, PropertyDrift>();
  for (const d of propertyDiffs(step.old.outputs ?? {}, step.new.outputs ?? {})) found.set(d.property, d);
  for (const d of propertyDiffs(step.old.inputs ?? {}, step.new.inputs ?? {}))
    if (!found.has(d.property)) found.set(d.property, d);
  for (const observed of observationsOf(step.urn)) found.delete(observed);
  if (found.size === 0) return undefined;
  const properties = [...found.values()].sort((a, b) => a.property.localeCompare(b.property));
  return { ...base, kind: "changed", properties };
}

/** `Kind name` for display: the last part of the type token and the resource's name. */
export function displayName(drift: Pick<ResourceDrift, "type" | "name">): string {
  const kind = drift.type.slice(drift.type.lastIndexOf(":") + 1);
  return `${kind} ${drift.name}`;
}

/** A value for a table cell: strings bare, "(absent)" for undefined, JSON otherwise. */
export function cell(value: unknown): string {
  if (value === undefined) return "(absent)";
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value);
}

export interface Row {
  resource: string;
  property: string;
  state: string;
  account: string;
}

export function rowsOf(drifts: ResourceDrift[]): Row[] {
  return drifts.flatMap((d) =>
    d.kind === "gone"
      ? [{ resource: displayName(d), property: "(resource)", state: "exists", account: "gone" }]
      : d.properties.map((p) => ({
          resource: displayName(d),
          property: p.property,
          state: cell(p.state),
          account: cell(p.account),
        })),
  );
}

/** A plain-text table with a header row, columns padded to their widest cell. */
export function renderTable(rows: Row[]): string {
  const header: Row = {
    resource: "RESOURCE",
    property: "PROPERTY",
    state: "IN STATE",
    account: "IN ACCOUNT",
  };
  const all = [header, ...rows];
  const cols = ["resource", "property", "state", "account"] as const;
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(...all.map((r) => r[c].length))])) as Record<
    (typeof cols)[number],
    number
  >;
  return all
    .map((r) =>
      cols
        .map((c, i) => (i === cols.length - 1 ? r[c] : r[c].padEnd(width[c])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
