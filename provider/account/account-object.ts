// The account object as the account writer (provider/account/writer.ts) reads and writes it: the
// changes it is asked for, the update body they make on a fresh read, and whether a later read
// shows them. Pure functions: no client, no clock.
import type { schemas } from "mediahost-contract";
import type { z } from "zod";
import type { AccountRead } from "../client";
import { canonical } from "../diff";
import { ProviderError } from "../errors";

/** The account object as the provider reads it (provider/client/reads.ts). */
export type Account = AccountRead;
export type AccountUpdate = z.input<typeof schemas.AccountUpdate>;
export type AliasUpdate = NonNullable<AccountUpdate["aliases"]>[string];
type Settings = Pick<AccountUpdate, "minify" | "fetching">;

/** One change of the account object. */
export interface AccountChange {
  /** Sets `minify` and/or `fetching`. */
  settings?: Settings;
  /**
   * Sets the managed fields of an alias entry (the others keep the service's values; with `exact`,
   * the entry becomes exactly `fields`), or removes the entry (`null`).
   */
  alias?: { name: string; fields: AliasUpdate | null; exact?: boolean };
  /** The account the change must land in; a read that shows another refuses it. */
  expectedAlias?: string;
  /** What the resource asking for the change is called in messages, e.g. `Alias web`. */
  resource: string;
  /**
   * Runs once, on the read just before the change is first written: may throw to refuse this
   * change alone (e.g. the alias exists and may not be taken over), or return "skip" when there is
   * nothing to write.
   */
  prepare?(account: Account): undefined | "skip";
}

/** What the writer learned about the change: the account as read after it took effect. */
export interface ChangeResult {
  account: Account;
  /** For an alias removal: whether the service kept the alias (it merges the map on update). */
  aliasKept?: boolean;
}

/** Whether the service honours an alias left out of the written map (it replaces the map) or keeps it (merges). */
export type RemovalRule = "unknown" | "honoured" | "ignored";

/** Whether the change removes an alias entry. */
export function isRemoval(change: AccountChange): boolean {
  return change.alias?.fields === null;
}

/** The fields of an alias entry that an update may carry: everything else is read-only. */
function writableAlias(entry: Record<string, unknown> | undefined): AliasUpdate {
  const out: AliasUpdate = {};
  if (typeof entry?.prefix === "string") out.prefix = entry.prefix;
  if (typeof entry?.cdn === "boolean") out.cdn = entry.cdn;
  if (typeof entry?.defaultProfile === "string") out.defaultProfile = entry.defaultProfile;
  return out;
}

/**
 * What a read back shows of a written `fetching`: the secrets are write-only. (What a kind
 * manages of a read's `fetching` is another matter: provider/resources/account-settings.ts.)
 */
function fetchingAsReadBack(fetching: NonNullable<Settings["fetching"]>): unknown {
  const auth = fetching.http?.auth;
  return {
    enabled: fetching.enabled,
    type: fetching.type,
    http: fetching.http && {
      url: fetching.http.url,
      auth: auth && { enabled: auth.enabled, username: auth.enabled ? auth.username : undefined },
    },
    s3: fetching.s3 && { ...fetching.s3, secretAccessKey: undefined },
  };
}

/** Whether `live` holds every value `written` names (keys `written` leaves out are not judged). */
function holds(live: unknown, written: unknown): boolean {
  if (written === undefined) return true;
  if (written === null || typeof written !== "object" || Array.isArray(written)) {
    return canonical(live) === canonical(written);
  }
  if (!live || typeof live !== "object") return false;
  return Object.entries(written).every(([k, v]) => holds((live as Record<string, unknown>)[k], v));
}

/**
 * What `account`, read after the write, says of a change: whether it took (`done`), for a removal
 * whether the service kept the alias, and the removal rule as this read teaches it.
 */
export function readBack(
  account: Account,
  change: AccountChange,
  rule: RemovalRule,
): { done: boolean; aliasKept?: boolean; rule: RemovalRule } {
  if (!change.alias || !isRemoval(change)) return { done: shows(account, change), rule };
  const kept = !!account.aliases?.[change.alias.name];
  const learned = rule !== "unknown" ? rule : kept ? "ignored" : "honoured";
  return { done: !(kept && learned === "honoured"), aliasKept: kept, rule: learned };
}

/** Whether `account`, read after the write, shows a change that sets values (not a removal). */
function shows(account: Account, change: AccountChange): boolean {
  const alias = change.alias;
  return (
    (!alias || holds(account.aliases?.[alias.name], alias.fields)) &&
    holds(account.minify, change.settings?.minify) &&
    (!change.settings?.fetching || holds(account.fetching, fetchingAsReadBack(change.settings.fetching)))
  );
}

/**
 * The update body: settings as given; the alias map whole (the fresh read with the changes
 * applied) — right whether the service merges or replaces the map — or, once it is known to
 * merge, only the entries that change, so other writers' entries are never written back.
 */
export function updateBody(
  account: Account,
  changes: AccountChange[],
  merges: boolean,
): AccountUpdate | undefined {
  const body: AccountUpdate = {};
  const aliasChanges = changes.flatMap((c) => (c.alias ? [c.alias] : []));
  for (const c of changes) {
    if (c.settings?.minify) body.minify = c.settings.minify;
    if (c.settings?.fetching) body.fetching = c.settings.fetching;
  }
  if (aliasChanges.length > 0) {
    const live = account.aliases ?? {};
    const map: Record<string, AliasUpdate> = merges
      ? {}
      : Object.fromEntries(Object.entries(live).map(([name, entry]) => [name, writableAlias(entry)]));
    for (const { name, fields, exact } of aliasChanges) {
      if (fields === null) delete map[name];
      else map[name] = exact ? { ...fields } : { ...writableAlias(live[name]), ...map[name], ...fields };
    }
    if (!merges || Object.keys(map).length > 0) body.aliases = map;
  }
  return Object.keys(body).length > 0 ? body : undefined;
}

/** The written leaves `live` leaves out altogether (where another value would be another writer's). */
function missingIn(live: unknown, written: unknown, at: string): string[] {
  if (written === undefined) return [];
  if (live === undefined || live === null) return [at];
  if (written === null || typeof written !== "object" || Array.isArray(written)) return [];
  if (typeof live !== "object") return [];
  return Object.entries(written).flatMap(([k, v]) =>
    missingIn((live as Record<string, unknown>)[k], v, at ? `${at}.${k}` : k),
  );
}

/**
 * What a change wrote that `account`, read after it, does not show at all: a service that leaves a
 * field out of its answers cannot confirm it, and no other writer is to blame.
 */
export function unshown(account: Account, change: AccountChange): string[] {
  const alias = change.alias;
  const missing = [
    ...(alias?.fields ? missingIn(account.aliases?.[alias.name], alias.fields, `aliases.${alias.name}`) : []),
    ...missingIn(account.minify, change.settings?.minify, "minify"),
  ];
  if (change.settings?.fetching)
    missing.push(...missingIn(account.fetching, fetchingAsReadBack(change.settings.fetching), "fetching"));
  return missing;
}

/** The error for a change the service's answers never show, however often it is written. */
export function notShown(
  resource: string,
  accountAlias: string,
  rounds: number,
  fields: string[],
): ProviderError {
  return new ProviderError(
    `${resource}: account "${accountAlias}" does not show ${fields.map((f) => `\`${f}\``).join(", ")} in its ` +
      `answers (written ${rounds} times, each read back without it), so the provider cannot confirm the change ` +
      "took; check it in the service's console",
  );
}

/** The error for a change another writer kept undoing. */
export function overwritten(resource: string, accountAlias: string, rounds: number): ProviderError {
  return new ProviderError(
    `${resource}: another writer of account "${accountAlias}" kept overwriting this change ` +
      `(written ${rounds} times, each time undone by a write made from an older read); run \`pulumi up\` again`,
  );
}

/** The error for a change whose credentials now reach another account than the one in the state. */
export function refusal(
  resource: string,
  recorded: string,
  reached: string,
  accountName?: string,
): ProviderError {
  return new ProviderError(
    `${resource}: refusing to act: it belongs to account "${recorded}" but the credentials` +
      `${accountName ? ` for account name "${accountName}"` : ""} now reach account "${reached}". ` +
      `Restore the credentials of "${recorded}", or remove the resource from the state with \`pulumi state delete\`.`,
  );
}
