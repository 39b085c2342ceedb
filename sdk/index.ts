// pulumi-mediahost: resources and data functions for a media hosting and CDN account.
export * from "./functions";
export {
  AccountSettings,
  type AccountSettingsArgs,
  Alias,
  type AliasArgs,
  CustomDomain,
  type CustomDomainArgs,
  type FetchingArgs,
  Folder,
  type FolderArgs,
  FolderMeta,
  type FolderMetaArgs,
  FolderOptions,
  type FolderOptionsArgs,
  SubAccount,
  type SubAccountArgs,
} from "./resources";
