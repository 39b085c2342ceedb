// The resource classes of both faces, one pair per kind: made by `npm run docs` from the kinds
// (provider/resources), never by hand. A class's doc comment is its kind's `docs.summary`; its
// arguments and outputs are the kind's schema's types, or sdk/prepare.ts's for a kind the program
// prepares (`ArgsFor`, `OutputsFor`, `kindClasses`: sdk/resource.ts). The dynamic classes are
// exported at the top level, the native ones in the `native` namespace (sdk/native.ts).
import { type ArgsFor, type KindClasses, kindClasses, type OutputsFor } from "./resource";

export type AccountSettingsArgs = ArgsFor<"AccountSettings">;
const accountSettingsClasses: KindClasses<AccountSettingsArgs, OutputsFor<"AccountSettings">> = kindClasses(
  "AccountSettings",
  { cdnUrl: true },
);
/**
 * The account singleton's minify and remote-fetching options. Only the groups given are managed.
 * Secrets are write-only at the service, so their drift cannot be seen.
 */
export class AccountSettings extends accountSettingsClasses.dynamic {}

export type AliasArgs = ArgsFor<"Alias">;
const aliasClasses: KindClasses<AliasArgs, OutputsFor<"Alias">> = kindClasses("Alias", {
  customDomain: true,
});
/**
 * One address alias of the account. Only the fields given are managed. Writes of several aliases in
 * one run are gathered into one account update. The API cannot delete an alias: on delete the map
 * is written without it and read back; if the service kept it, a warning says so.
 */
export class Alias extends aliasClasses.dynamic {}

export type CustomDomainArgs = ArgsFor<"CustomDomain">;
const customDomainClasses: KindClasses<CustomDomainArgs, OutputsFor<"CustomDomain">> = kindClasses(
  "CustomDomain",
  { seenOnAccount: true },
);
/** A custom CDN domain of an alias, read back from the alias entry. */
export class CustomDomain extends customDomainClasses.dynamic {}

export type SubAccountArgs = ArgsFor<"SubAccount">;
const subAccountClasses: KindClasses<SubAccountArgs, OutputsFor<"SubAccount">> = kindClasses(
  "SubAccount",
  {},
);
/**
 * A sub-account (shares the parent's plan). The API cannot list or read sub-accounts, so drift is
 * invisible: refresh keeps the state, and one deleted elsewhere is noticed only on delete.
 */
export class SubAccount extends subAccountClasses.dynamic {}

export type FolderArgs = ArgsFor<"Folder">;
const folderClasses: KindClasses<FolderArgs, OutputsFor<"Folder">> = kindClasses("Folder", { cdnUrl: true });
/**
 * A folder of the account's file tree. Missing parents are created; only this folder is managed. A
 * path change moves it with everything in it.
 */
export class Folder extends folderClasses.dynamic {}

export type FolderOptionsArgs = ArgsFor<"FolderOptions">;
const folderOptionsClasses: KindClasses<FolderOptionsArgs, OutputsFor<"FolderOptions">> = kindClasses(
  "FolderOptions",
  {},
);
/**
 * The options of one folder. Only the options given are managed; deleting leaves them (they go with
 * the folder).
 */
export class FolderOptions extends folderOptionsClasses.dynamic {}

export type FolderMetaArgs = ArgsFor<"FolderMeta">;
const folderMetaClasses: KindClasses<FolderMetaArgs, OutputsFor<"FolderMeta">> = kindClasses("FolderMeta", {
  approvalDatetime: true,
});
/**
 * Title, description, tags, product and approval of a folder or file. Only the fields given are
 * managed; deleting clears them.
 */
export class FolderMeta extends folderMetaClasses.dynamic {}

export type FileArgs = ArgsFor<"File">;
const fileClasses: KindClasses<FileArgs, OutputsFor<"File">> = kindClasses("File", {
  sha256: true,
  size: true,
  mtime: true,
});
/**
 * A file of the account: from `content`, a `source` asset, or a `fetchUrl` the service fetches. The
 * state keeps its SHA-256, size and mtime; a refresh downloads only when size or mtime changed.
 * Delete removes it only while it holds this stack's content, unless `forceDestroy`.
 */
export class File extends fileClasses.dynamic {}

export type PointOfInterestArgs = ArgsFor<"PointOfInterest">;
const pointOfInterestClasses: KindClasses<PointOfInterestArgs, OutputsFor<"PointOfInterest">> = kindClasses(
  "PointOfInterest",
  {},
);
/**
 * One named rectangle on a file (a point of interest), in fractions 0..1 of the image. Deleting it
 * leaves the file's other points.
 */
export class PointOfInterest extends pointOfInterestClasses.dynamic {}

/**
 * The native face's classes (type tokens `mediahost:index:<Kind>`), served by the provider plugin
 * `pulumi-resource-mediahost`: the same arguments and outputs as the classes above, and `provider`
 * instances reach several accounts (sdk/native.ts).
 */
export namespace native {
  /**
   * The account singleton's minify and remote-fetching options. Only the groups given are managed.
   * Secrets are write-only at the service, so their drift cannot be seen.
   */
  export class AccountSettings extends accountSettingsClasses.native {}
  /**
   * One address alias of the account. Only the fields given are managed. Writes of several aliases
   * in one run are gathered into one account update. The API cannot delete an alias: on delete the
   * map is written without it and read back; if the service kept it, a warning says so.
   */
  export class Alias extends aliasClasses.native {}
  /** A custom CDN domain of an alias, read back from the alias entry. */
  export class CustomDomain extends customDomainClasses.native {}
  /**
   * A sub-account (shares the parent's plan). The API cannot list or read sub-accounts, so drift is
   * invisible: refresh keeps the state, and one deleted elsewhere is noticed only on delete.
   */
  export class SubAccount extends subAccountClasses.native {}
  /**
   * A folder of the account's file tree. Missing parents are created; only this folder is managed.
   * A path change moves it with everything in it.
   */
  export class Folder extends folderClasses.native {}
  /**
   * The options of one folder. Only the options given are managed; deleting leaves them (they go
   * with the folder).
   */
  export class FolderOptions extends folderOptionsClasses.native {}
  /**
   * Title, description, tags, product and approval of a folder or file. Only the fields given are
   * managed; deleting clears them.
   */
  export class FolderMeta extends folderMetaClasses.native {}
  /**
   * A file of the account: from `content`, a `source` asset, or a `fetchUrl` the service fetches.
   * The state keeps its SHA-256, size and mtime; a refresh downloads only when size or mtime
   * changed. Delete removes it only while it holds this stack's content, unless `forceDestroy`.
   */
  export class File extends fileClasses.native {}
  /**
   * One named rectangle on a file (a point of interest), in fractions 0..1 of the image. Deleting
   * it leaves the file's other points.
   */
  export class PointOfInterest extends pointOfInterestClasses.native {}
}
