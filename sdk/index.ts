// pulumi-mediahost: resources and data functions for a media hosting and CDN account.
export { AccountSettings, type AccountSettingsArgs, type FetchingArgs } from "./account-settings";
export { Alias, type AliasArgs } from "./alias";
export { CustomDomain, type CustomDomainArgs } from "./custom-domain";
export { Folder, type FolderArgs } from "./folder";
export { FolderMeta, type FolderMetaArgs } from "./folder-meta";
export { FolderOptions, type FolderOptionsArgs } from "./folder-options";
export * from "./functions";
export { SubAccount, type SubAccountArgs } from "./sub-account";
