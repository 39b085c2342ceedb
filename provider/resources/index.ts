// The registry of resource kinds: adding a kind is a module beside this one and one line here,
// then `npm run docs` (CONTRIBUTING.md walks through it). It is where kinds lose their own types:
// each is typed in its module against its schema, and held here as a `Kind` whose properties are
// records. The lifecycle hands a kind only inputs its schema accepted at check, and states the
// kind itself returned.
import { accountSettings } from "./account-settings";
import { alias } from "./alias";
import { customDomain } from "./custom-domain";
import { file } from "./file";
import { folder } from "./folder";
import { folderMeta } from "./folder-meta";
import { folderOptions } from "./folder-options";
import type { CapabilitiesOf, CapabilityName, Kind } from "./kind";
import { pointOfInterest } from "./point-of-interest";
import { subAccount } from "./sub-account";

/**
 * Every kind, with the capabilities it has (provider/resources/kind.ts, `Capabilities`) stated
 * beside it and checked by the compiler against its declaration: a kind that gains or loses one
 * fails to build until its line says so.
 */
export const kinds = {
  AccountSettings: stating(accountSettings, { secrets: true, importing: true }),
  Alias: stating(alias, { importing: true }),
  CustomDomain: stating(customDomain, { importing: true }),
  SubAccount: stating(subAccount, {}),
  Folder: stating(folder, { tree: true, importing: true }),
  FolderOptions: stating(folderOptions, { tree: true, importing: true }),
  FolderMeta: stating(folderMeta, { tree: true, importing: true }),
  File: stating(file, { tree: true, secrets: true, importing: true }),
  PointOfInterest: stating(pointOfInterest, { tree: true, importing: true }),
};

export type Kinds = typeof kinds;
export type KindName = keyof Kinds;

/** The capabilities kind `K` has, each `true`: a statement naming one more, or one fewer, does not compile. */
export type Stated<K> = {
  readonly [C in CapabilityName as CapabilitiesOf<K>[C] extends true ? C : never]: true;
} & {
  readonly [C in CapabilityName as CapabilitiesOf<K>[C] extends true ? never : C]?: never;
};

function stating<K extends Kind>(kind: K, _capabilities: Stated<K>): K {
  return kind;
}

const byName: ReadonlyMap<string, Kind> = new Map(Object.entries(kinds));

export function kindByName(name: string): Kind | undefined {
  return byName.get(name);
}
