// What the package schema says beyond the code's own doc comments, in the shape the Pulumi
// registry builds its pages from (pulumi/registry tools/resourcedocsgen/pkg/docs/description.go):
// - descriptions of the object types and properties whose zod schemas carry none (the API
//   contract's response shapes, nested inputs), by type name and `Type.property`;
// - each kind's example (its `docs.example`, arguments checked against its own input schema by
//   test/unit/registry-docs.test.ts), rendered in TypeScript, YAML and Go inside the
//   `<!--Start PulumiCodeChooser -->` blocks the registry reads;
// - each kind's import id (its `importing`), for the `## Import` section the registry cuts the
//   description at.
// scripts/schema.ts puts them into the schema; scripts/reference.ts makes docs/reference/ from it.
import { kinds } from "../provider/resources";
import { type Declared, type KindExample, Ref, type Value } from "../provider/resources/example";
import { importOf } from "../provider/resources/kind";

export type KindName = keyof typeof kinds;

/** Descriptions by object type name, and by `<type name>.<property>`. */
export const TYPE_DOCS: Record<string, string> = {
  "GetSignedUrlResult.path": "The file's path.",
  "GetSignedUrlResult.url":
    "The signed URL (a secret); it changes on every run, so use it as a stack output.",
  "SearchFilesResult.total": "How many files match the query (the service's count, beyond the limit too).",
  "SearchFilesResult.files": "The files found, up to `limit`, in the order asked for.",
  SearchFilesResultFilesItem: "A file the search found, as the service indexes it.",
  "SearchFilesResultFilesItem.accountId": "The account the file belongs to.",
  "SearchFilesResultFilesItem.filename": "The file's full path.",
  "SearchFilesResultFilesItem.dirname": "The folder holding the file.",
  "SearchFilesResultFilesItem.basename": "The file's name in its folder.",
  "SearchFilesResultFilesItem.extension": "The file name's extension, with its dot.",
  "SearchFilesResultFilesItem.id": "The service's id of the file.",
  "SearchFilesResultFilesItem.ctime": "When the file was created.",
  "SearchFilesResultFilesItem.mtime": "When the file was last modified.",
  "SearchFilesResultFilesItem.size": "The file's size in bytes.",
  "SearchFilesResultFilesItem.contentType": "The file's content type.",
  "SearchFilesResultFilesItem.meta": "What the service read of the media: dimensions, format, duration.",
  "GetStorageStatsResult.days": "One entry per day of the range, oldest first.",
  GetStorageStatsResultDaysItem: "The account's storage on one day.",
  "GetStorageStatsResultDaysItem.day": "The day's start (UTC), as an ISO 8601 date-time.",
  "GetStorageStatsResultDaysItem.plan": "Storage the plan includes, in bytes.",
  "GetStorageStatsResultDaysItem.burstable": "Storage the plan allows beyond that for a while, in bytes.",
  "GetStorageStatsResultDaysItem.extra": "Storage bought on top of the plan, in bytes.",
  "GetStorageStatsResultDaysItem.used": "Storage in use, in bytes.",
  "GetStorageStatsResultDaysItem.files": "How many files the account held.",
  "GetStorageStatsResultDaysItem.quotaExceededDate": "When the account went over its quota, if it did.",
  "GetHttpStatsResult.days": "One entry per day of the range, oldest first.",
  GetHttpStatsResultDaysItem: "The account's HTTP deliveries on one day.",
  "GetHttpStatsResultDaysItem.day": "The day's start (UTC), as an ISO 8601 date-time.",
  "GetHttpStatsResultDaysItem.count": "How many requests the CDN answered.",
  "GetHttpStatsResultDaysItem.size": "How many bytes the CDN delivered.",
  "GetTrafficStatsResult.traffic":
    "The aggregated traffic of the range, as the service answers it (its shape is not documented).",
  FolderMetaProduct: "The catalogue product a file or folder shows.",
  "FolderMetaProduct.id": "The product's id in the catalogue (at most 256 characters).",
  "FolderMetaProduct.name": "The product's name (at most 256 characters).",
  "FolderMetaProduct.brand": "The product's brand (at most 256 characters).",
  "FolderMetaProduct.category1": "The product's first-level category (at most 256 characters).",
  "FolderMetaProduct.category2": "The product's second-level category (at most 256 characters).",
  FolderMetaApproval: "The review flag of the image review process.",
  "FolderMetaApproval.approved": "Whether the file or folder is approved.",
  "FolderMetaApproval.comment": "The reviewer's comment (at most 1024 characters).",

  AccountSettingsMinify: "Minification of the account's CSS and JavaScript files, served through the CDN.",
  "AccountSettingsMinify.enabled": "Whether the account minifies CSS and JavaScript files it serves.",
  AccountSettingsFetching:
    "Remote fetching: a file missing from the account is fetched from this origin on its first request and kept.",
  "AccountSettingsFetching.enabled": "Whether the account fetches missing files from the origin.",
  "AccountSettingsFetching.type": 'The origin\'s kind: `"http"` or `"s3"` (required when `enabled`).',
  "AccountSettingsFetching.http": "The HTTP origin, when `type` is `http`.",
  "AccountSettingsFetching.s3": "The S3 bucket origin, when `type` is `s3`.",
  AccountSettingsFetchingHttp: "An HTTP origin files are fetched from.",
  "AccountSettingsFetchingHttp.url": "The origin's base URL; a missing file's path is appended to it.",
  "AccountSettingsFetchingHttp.auth": "HTTP basic authentication towards the origin.",
  AccountSettingsFetchingHttpAuth: "HTTP basic authentication the account sends to the origin.",
  "AccountSettingsFetchingHttpAuth.enabled": "Whether the account authenticates to the origin.",
  "AccountSettingsFetchingHttpAuth.username": "The user name sent to the origin (required when `enabled`).",
  "AccountSettingsFetchingHttpAuth.password":
    "The password sent to the origin (required when `enabled`); a secret, write-only at the service.",
  AccountSettingsFetchingS3: "An S3 bucket files are fetched from.",
  "AccountSettingsFetchingS3.accessKeyId": "The access key the account reads the bucket with.",
  "AccountSettingsFetchingS3.secretAccessKey":
    "The secret of that access key; a secret, write-only at the service.",
  "AccountSettingsFetchingS3.bucket": "The bucket's name.",
  "AccountSettingsFetchingS3.endpoint": "The S3 endpoint, for a store other than AWS.",
  "AccountSettingsFetchingS3.prefix": "A key prefix inside the bucket.",
  "AccountSettingsFetchingS3.forcePathStyle": "Address the bucket in the path rather than the host name.",
  AccountSettingsFetchingSecrets:
    "The fetching credentials, kept as secrets apart from `fetching` so that the rest of it stays readable in diffs (the SDK fills it).",
  "AccountSettingsFetchingSecrets.httpPassword": "`fetching.http.auth.password`.",
  "AccountSettingsFetchingSecrets.s3SecretAccessKey": "`fetching.s3.secretAccessKey`.",
  FileFetchAuth: "HTTP basic authentication the service sends when it fetches `fetchUrl`.",
  "FileFetchAuth.username": "The user name sent with the fetch.",
  "FileFetchAuth.password": "The password sent with the fetch; a secret.",

  "GetAccountResult.dateCreated": "When the account was created.",
  "GetAccountResult.alias": "The account's alias, its unique name at the service.",
  "GetAccountResult.isPartner": "Whether the account is a partner account.",
  "GetAccountResult.fileSizeLimit": "The largest file the account may store, in bytes.",
  "GetAccountResult.customRedirectUrl": "Where requests for missing files are redirected, if anywhere.",
  "GetAccountResult.cdnURL": "The host name the account's files are served from through the CDN.",
  "GetAccountResult.cdnTempURL": "The host name of the CDN's temporary URLs.",
  "GetAccountResult.fetching": "Remote fetching as the account holds it (credentials read as empty).",
  "GetAccountResult.minify": "Minification as the account holds it.",
  "GetAccountResult.aliases": "The account's address aliases by name, with their custom domains.",
  "GetAccountResult.status": "The account's status, as the service reports it.",
  GetAccountResultFetching: "Remote fetching as the account holds it.",
  "GetAccountResultFetching.enabled": "Whether missing files are fetched from the origin.",
  "GetAccountResultFetching.type": 'The origin\'s kind: `"http"` or `"s3"`.',
  "GetAccountResultFetching.http": "The HTTP origin.",
  "GetAccountResultFetching.s3": "The S3 origin (its secret key reads as empty).",
  "GetAccountResultFetching.maxFilesize": "The largest file the account fetches, in bytes.",
  GetAccountResultFetchingS3: "The S3 bucket files are fetched from (its secret key is never shown).",
  "GetAccountResultFetchingS3.accessKeyId": "The access key the account reads the bucket with.",
  "GetAccountResultFetchingS3.bucket": "The bucket's name.",
  "GetAccountResultFetchingS3.endpoint": "The S3 endpoint, for a store other than AWS.",
  "GetAccountResultFetchingS3.prefix": "The key prefix files are fetched under.",
  "GetAccountResultFetchingS3.forcePathStyle": "Whether the bucket is addressed in path style.",
  GetAccountResultFetchingHttp: "The HTTP origin.",
  "GetAccountResultFetchingHttp.url": "The origin's base URL.",
  "GetAccountResultFetchingHttp.auth": "HTTP basic authentication towards the origin.",
  GetAccountResultFetchingHttpAuth:
    "HTTP basic authentication towards the origin (the password reads as empty).",
  "GetAccountResultFetchingHttpAuth.enabled": "Whether the account authenticates to the origin.",
  "GetAccountResultFetchingHttpAuth.username": "The user name sent to the origin.",
  "GetAccountResultFetchingHttpAuth.password": "Always empty: the service does not return it.",
  GetAccountResultMinify: "Minification of CSS and JavaScript files.",
  "GetAccountResultMinify.enabled": "Whether CSS and JavaScript files are minified.",
  GetAccountResultAliasesValue: "One address alias of the account.",
  "GetAccountResultAliasesValue.prefix": "The folder the alias serves.",
  "GetAccountResultAliasesValue.cdn": "Whether the alias is served through the CDN.",
  "GetAccountResultAliasesValue.defaultProfile": "The image profile applied when a request names none.",
  "GetAccountResultAliasesValue.customDomain": "The alias's custom domain, if it has one.",
  GetAccountResultStatus: "The account's status.",
  "GetAccountResultStatus.status": "The status's name.",
  "GetAccountResultStatus.details": "What the service says about the status.",

  "GetAccountStorageResult.plan": "The storage the plan includes, as the service reports it.",
  "GetAccountStorageResult.burstable": "The burstable storage above the plan.",
  "GetAccountStorageResult.extra": "Extra storage bought on top of the plan.",
  "GetAccountStorageResult.used": "The storage in use.",
  "GetAccountStorageResult.files": "How many files the account stores.",
  "GetAccountStorageResult.quotaExceededDate": "When the account went over its quota; empty while it is not.",

  "GetAccountLimitsResult.counters": "Every rate-limit counter of the past 60 minutes, by its name.",
  GetAccountLimitsResultCountersValue: "One rate-limit counter.",
  "GetAccountLimitsResultCountersValue.count": "Calls counted in the window.",
  "GetAccountLimitsResultCountersValue.limit": "Calls allowed in the window.",
  "GetAccountLimitsResultCountersValue.remaining": "Calls left before the counter refuses.",
  "GetAccountLimitsResultCountersValue.reset": "When the counter resets, in Unix seconds.",

  "GetBillingPlanResult.dateActive": "Since when the plan is active.",
  "GetBillingPlanResult.id": "The plan's identifier.",
  "GetBillingPlanResult.period": "The billing period.",
  "GetBillingPlanResult.name": "The plan's name.",
  "GetBillingPlanResult.description": "The plan's description.",
  "GetBillingPlanResult.price": "The plan's price per period.",
  "GetBillingPlanResult.storage": "The storage the plan includes.",
  "GetBillingPlanResult.burstableStorage": "The burstable storage the plan allows.",
  "GetBillingPlanResult.dataTransferLimit": "The data transfer the plan allows; absent when unlimited.",
  GetBillingPlanResultPrice: "The plan's price per billing period.",
  "GetBillingPlanResultPrice.month": "Per month.",
  "GetBillingPlanResultPrice.year": "Per year.",
  "GetBillingPlanResultPrice.quarter": "Per quarter.",

  "GetAccountUsersResult.users": "Every user of the account.",
  GetAccountUsersResultUsersItem: "A user of the account and their role.",
  "GetAccountUsersResultUsersItem.userId": "The user's id (what `getUser` takes).",
  "GetAccountUsersResultUsersItem.role": "The user's role in the account.",

  "GetUserArgs.userId": "The user's id, as `getAccountUsers` lists it.",
  "GetUserResult.userId": "The user's id.",
  "GetUserResult.email": "The user's email address.",
  "GetUserResult.firstName": "The user's first name.",
  "GetUserResult.lastName": "The user's last name.",
  "GetUserResult.dateCreated": "When the user was created.",
  "GetUserResult.s3Secret": "The user's secret for the account's S3 interface; a secret.",

  "ListFolderArgs.path": "The folder's path, beginning with `/`.",
  "ListFolderResult.path": "The folder's path.",
  "ListFolderResult.entries": "Every entry of the folder, across all pages of the listing.",
  ListFolderResultEntriesItem: "A file or folder in the listed folder.",
  "ListFolderResultEntriesItem.filename": "The entry's name in the folder.",
  "ListFolderResultEntriesItem.mtime": "When the entry was last modified.",
  "ListFolderResultEntriesItem.contentType": "The file's content type.",
  "ListFolderResultEntriesItem.size": "The file's size in bytes.",
  "ListFolderResultEntriesItem.isDirectory": "Whether the entry is a folder.",
  "ListFolderResultEntriesItem.meta": "What the service read of the media: dimensions, duration.",
  ListFolderResultEntriesItemMeta: "What the service read of an image or video.",
  "ListFolderResultEntriesItemMeta.width": "Width in pixels.",
  "ListFolderResultEntriesItemMeta.height": "Height in pixels.",
  "ListFolderResultEntriesItemMeta.duration": "A video's duration in seconds.",
  "ListFolderResultEntriesItemMeta.format": "The media's format, where the service tells it.",
  "ListFolderResultEntriesItem.systemFolder":
    "Set on the account's system folders (`/.Trash`, `/.processed`, `/.well-known`, `/Shared`, `/Profiles`): what the folder is for. They are the account's: the provider never creates, moves, deletes or writes into them (the files of `/Profiles` excepted).",
  SearchFilesResultFilesItemMeta: "What the service read of the media (absent where it has none).",
  "SearchFilesResultFilesItemMeta.width": "Width in pixels.",
  "SearchFilesResultFilesItemMeta.height": "Height in pixels.",
  "SearchFilesResultFilesItemMeta.duration": "A video's duration in seconds.",
  "SearchFilesResultFilesItemMeta.format": "The media's format (e.g. `jpeg`).",
};

/** The example of the kind `kind` (its `docs.example`), as the registry's pages show it. */
function exampleOf(kind: KindName): KindExample {
  return kinds[kind].docs.example;
}

/** The example's arguments with each reference replaced by the value it names (for checks). */
export function literalArgs(example: KindExample): Record<string, unknown> {
  const resolve = (v: Value): unknown => {
    if (v instanceof Ref) return example.before?.find((d) => d.name === v.resource)?.args[v.output];
    if (Array.isArray(v)) return v.map(resolve);
    if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    return v;
  };
  return resolve(example.args) as Record<string, unknown>;
}

type PropSpec = { type?: string; $ref?: string; items?: PropSpec; additionalProperties?: PropSpec };
type TypeSpecs = Record<string, { properties?: Record<string, PropSpec> }>;

const goName = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const goString = (s: string) => JSON.stringify(s);

function tsValue(v: Value, indent: string): string {
  if (v instanceof Ref) return `${camel(v.resource)}.${v.output}`;
  if (Array.isArray(v)) return `[${v.map((x) => tsValue(x, indent)).join(", ")}]`;
  if (typeof v === "object") {
    const inner = `${indent}  `;
    const entries = Object.entries(v).map(([k, x]) => `${inner}${k}: ${tsValue(x, inner)},`);
    return `{\n${entries.join("\n")}\n${indent}}`;
  }
  return JSON.stringify(v);
}

function yamlValue(v: Value, indent: string): string {
  if (v instanceof Ref) return `\${${v.resource}.${v.output}}`;
  if (Array.isArray(v)) return `[${v.map((x) => yamlValue(x, indent)).join(", ")}]`;
  if (typeof v === "object") {
    return Object.entries(v)
      .map(([k, x]) =>
        typeof x === "object" && !Array.isArray(x) && !(x instanceof Ref)
          ? `\n${indent}${k}:${yamlValue(x, `${indent}  `)}`
          : `\n${indent}${k}: ${yamlValue(x, indent)}`,
      )
      .join("");
  }
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

function goValue(v: Value, spec: PropSpec, types: TypeSpecs, indent: string): string {
  if (v instanceof Ref) return `${camel(v.resource)}.${goName(v.output)}`;
  if (spec.$ref) {
    const name = spec.$ref.replace("#/types/mediahost:index:", "");
    const props = types[`mediahost:index:${name}`]?.properties ?? {};
    return `&mediahost.${name}Args${goFields(v as Record<string, Value>, props, types, indent)}`;
  }
  switch (spec.type) {
    case "array":
      return `pulumi.StringArray{${(v as Value[]).map((x) => `pulumi.String(${goString(String(x))})`).join(", ")}}`;
    case "boolean":
      return `pulumi.Bool(${v})`;
    case "integer":
      return `pulumi.Int(${v})`;
    case "number":
      return `pulumi.Float64(${v})`;
    default:
      if (typeof v === "boolean") return `pulumi.Bool(${v})`;
      return `pulumi.String(${goString(String(v))})`;
  }
}

function goFields(
  args: Record<string, Value>,
  props: Record<string, PropSpec>,
  types: TypeSpecs,
  indent: string,
): string {
  const inner = `${indent}\t`;
  const lines = Object.entries(args).map(
    ([k, v]) => `${inner}${goName(k)}: ${goValue(v, props[k] ?? {}, types, inner)},`,
  );
  return `{\n${lines.join("\n")}\n${indent}}`;
}

const GO_IMPORT = "github.com/pulumi-mediahost/pulumi-mediahost/sdk/go/mediahost";
const camel = (s: string) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** The example of a kind in TypeScript, YAML and Go, in the blocks the registry's generator reads. */
export function exampleBlock(kind: KindName, inputs: Record<string, PropSpec>, types: TypeSpecs): string {
  const { title, name, args, before = [] } = exampleOf(kind);
  const all = [...before, { kind, name, args }];
  const ts = [
    'import * as mediahost from "pulumi-mediahost/native";',
    "",
    ...all.map(
      (r) =>
        `const ${camel(r.name)} = new mediahost.${r.kind}(${JSON.stringify(r.name)}, ${tsValue(r.args, "")});`,
    ),
  ].join("\n");
  const yaml = [
    "resources:",
    ...all.flatMap((r) => [
      `  ${r.name}:`,
      `    type: mediahost:${r.kind}`,
      `    properties:${yamlValue(r.args, "      ")}`,
    ]),
  ].join("\n");
  // the declared resources' properties are typed by their values (strings, booleans)
  const goArgs = (r: Declared) =>
    `&mediahost.${r.kind}Args${goFields(r.args, r.kind === kind ? inputs : {}, types, "\t\t")}`;
  const go = [
    "package main",
    "",
    "import (",
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    `\t"${GO_IMPORT}"`,
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...before.flatMap((r) => [
      `\t\t${camel(r.name)}, err := mediahost.New${r.kind}(ctx, ${goString(r.name)}, ${goArgs(r)})`,
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
    ]),
    `\t\t_, err ${before.length ? "=" : ":="} mediahost.New${kind}(ctx, ${goString(name)}, ${goArgs({ kind, name, args })})`,
    "\t\treturn err",
    "\t})",
    "}",
  ].join("\n");
  return [
    "{{% examples %}}",
    "## Example Usage",
    "{{% example %}}",
    `### ${title}`,
    "",
    "<!--Start PulumiCodeChooser -->",
    "```typescript",
    ts,
    "```",
    "```yaml",
    yaml,
    "```",
    "```go",
    go,
    "```",
    "<!--End PulumiCodeChooser -->",
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}

/** The `## Import` section of a kind. */
export function importSection(kind: KindName): string {
  const importing = importOf(kinds[kind]);
  // why not, as the error an import gets says it, as a sentence
  if ("refused" in importing) {
    const { refused } = importing;
    return `## Import\n\n${refused.charAt(0).toUpperCase()}${refused.slice(1)}.`;
  }
  const id = importing.id;
  return [
    "## Import",
    "",
    `\`${kind}\` is imported by ${id.form}:`,
    "",
    "```sh",
    `$ pulumi import mediahost:index:${kind} ${exampleOf(kind).name} ${id.example}`,
    "```",
  ].join("\n");
}
