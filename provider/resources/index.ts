// The registry of resource kinds: adding a kind is a module beside this one and one line here,
// then `npm run docs` (CONTRIBUTING.md walks through it).
import { accountSettings } from "./account-settings";
import { alias } from "./alias";
import { customDomain } from "./custom-domain";
import { file } from "./file";
import { folder } from "./folder";
import { folderMeta } from "./folder-meta";
import { folderOptions } from "./folder-options";
import type { Kind } from "./kind";
import { pointOfInterest } from "./point-of-interest";
import { subAccount } from "./sub-account";

export const kinds = {
  AccountSettings: accountSettings,
  Alias: alias,
  CustomDomain: customDomain,
  SubAccount: subAccount,
  Folder: folder,
  FolderOptions: folderOptions,
  FolderMeta: folderMeta,
  File: file,
  PointOfInterest: pointOfInterest,
};

export type Kinds = typeof kinds;
export type KindName = keyof Kinds;

export function kindByName(name: string): Kind | undefined {
  return Object.hasOwn(kinds, name) ? (kinds[name as KindName] as unknown as Kind) : undefined;
}
