// The resource classes programs use, in both faces. Each is made from its kind
// (provider/resources/*): the arguments and outputs are the kind's zod schema's types, so a
// property exists in one place only. Each kind is declared here once (`kindClasses`); its dynamic
// class is exported at the top level, its native class in the `native` namespace below (what
// `pulumi-mediahost/native` exports, sdk/native.ts).
import * as pulumi from "@pulumi/pulumi";
import type { schemas } from "mediahost-contract";
import type { z } from "zod";
import type { accountSettings } from "../provider/resources/account-settings";
import type { alias } from "../provider/resources/alias";
import type { customDomain } from "../provider/resources/custom-domain";
import type { file } from "../provider/resources/file";
import type { folder } from "../provider/resources/folder";
import type { folderMeta } from "../provider/resources/folder-meta";
import type { folderOptions } from "../provider/resources/folder-options";
import type { pointOfInterest } from "../provider/resources/point-of-interest";
import type { subAccount } from "../provider/resources/sub-account";
import { type ArgsOf, type DeepInput, kindClasses, type OutputsOf } from "./resource";

export type FolderArgs = ArgsOf<typeof folder>;
/** A folder of the account's file tree. Missing parents are created; only this folder is managed. */
const folderClasses = kindClasses<typeof folder>("Folder", { cdnUrl: true });
export class Folder extends folderClasses.dynamic {}

export type FolderOptionsArgs = ArgsOf<typeof folderOptions>;
/** The options of one folder. Only the options given are managed; deleting leaves them (they go with the folder). */
const folderOptionsClasses = kindClasses<typeof folderOptions>("FolderOptions", {});
export class FolderOptions extends folderOptionsClasses.dynamic {}

export type FolderMetaArgs = ArgsOf<typeof folderMeta>;
/**
 * Title, description, tags, product and approval of a folder or file. Only the fields given are
 * managed; deleting clears them.
 */
const folderMetaClasses = kindClasses<typeof folderMeta>("FolderMeta", { approvalDatetime: true });
export class FolderMeta extends folderMetaClasses.dynamic {}

export type AliasArgs = ArgsOf<typeof alias>;
/**
 * One address alias of the account. Only the fields given are managed. Writes of several aliases
 * in one run are gathered into one account update. The API cannot delete an alias: on delete the
 * map is written without it and read back; if the service kept it, a warning says so.
 */
const aliasClasses = kindClasses<typeof alias>("Alias", { customDomain: true });
export class Alias extends aliasClasses.dynamic {}

export type CustomDomainArgs = ArgsOf<typeof customDomain>;
/** A custom CDN domain of an alias, read back from the alias entry. */
const customDomainClasses = kindClasses<typeof customDomain>("CustomDomain", { seenOnAccount: true });
export class CustomDomain extends customDomainClasses.dynamic {}

export type SubAccountArgs = ArgsOf<typeof subAccount>;
/**
 * A sub-account (shares the parent's plan). The API cannot list or read sub-accounts, so drift is
 * invisible: refresh keeps the state, and one deleted elsewhere is noticed only on delete.
 */
const subAccountClasses = kindClasses<typeof subAccount>("SubAccount", {});
export class SubAccount extends subAccountClasses.dynamic {}

/** Remote fetching as the API takes it, credentials included (they are stored as secrets). */
export type FetchingArgs = DeepInput<z.input<typeof schemas.FetchingUpdate>>;
type Fetching = z.output<typeof schemas.FetchingUpdate>;

export type AccountSettingsArgs = Omit<ArgsOf<typeof accountSettings>, "fetching" | "fetchingSecrets"> & {
  /** Remote fetching of files missing from the account. Its password and S3 secret key are stored as secrets. */
  fetching?: FetchingArgs;
};
type AccountSettingsOutputs = Omit<OutputsOf<typeof accountSettings>, "fetching" | "fetchingSecrets"> & {
  /** The fetching options, without the write-only credentials. */
  readonly fetching: pulumi.Output<Fetching | undefined>;
};

/** Where the write-only credentials sit in `fetching`. */
const CREDENTIALS = [
  ["http", "auth", "password"],
  ["s3", "secretAccessKey"],
];

/**
 * `value` without the values at `paths`. Plain objects are walked; a value the program computed
 * (an Output or a promise) is stripped inside it, and keeps its own secrecy: whatever the program
 * marked secret stays secret, at any depth.
 */
function without(value: unknown, paths: string[][]): unknown {
  if (paths.length === 0) return value;
  if (pulumi.Output.isInstance(value) || value instanceof Promise) {
    return pulumi.output(value).apply((v) => without(v, paths));
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const here = paths.filter((p) => p[0] === key);
    if (here.some((p) => p.length === 1)) continue;
    out[key] =
      here.length > 0
        ? without(
            v,
            here.map((p) => p.slice(1)),
          )
        : v;
  }
  return out;
}

/**
 * `fetching` without its write-only credentials, and the credentials alone, always secret. They
 * travel as two properties because Pulumi keeps dynamic-provider secrecy per top-level property:
 * inside `fetching` they would hide every fetching field (and its drift) behind "[secret]".
 */
function splitSecrets(args: AccountSettingsArgs): object {
  if (args.fetching === undefined) return args;
  const whole = pulumi.output(args.fetching as pulumi.Input<Fetching>);
  const fetchingSecrets = pulumi.secret(
    whole.apply((f) => ({ httpPassword: f.http?.auth?.password, s3SecretAccessKey: f.s3?.secretAccessKey })),
  );
  return { ...args, fetching: without(args.fetching, CREDENTIALS), fetchingSecrets };
}

/**
 * The account singleton's minify and remote-fetching options. Only the groups given are managed.
 * Secrets are write-only at the service, so their drift cannot be seen.
 */
const accountSettingsClasses = kindClasses<
  typeof accountSettings,
  AccountSettingsArgs,
  AccountSettingsOutputs
>("AccountSettings", { cdnUrl: true }, splitSecrets);
export class AccountSettings extends accountSettingsClasses.dynamic {}

type FileKindArgs = ArgsOf<typeof file>;
export type FileArgs = Omit<FileKindArgs, "sourcePath" | "contentSha256"> & {
  /**
   * The file's content from a Pulumi asset: a `FileAsset` (a local file, uploaded from where it
   * is; the state keeps its hash, not its bytes), a `StringAsset`, or a `RemoteAsset` (an
   * http(s) URI the service fetches, as `fetchUrl`; a `file://` URI is a local file).
   */
  source?: pulumi.Input<pulumi.asset.Asset>;
};

/** The SHA-256 of a local file, read as a stream (in the program: the state compares hashes). */
async function fileSha256(path: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  const { createReadStream } = await import("node:fs");
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const textSha256 = async (text: string) =>
  (await import("node:crypto")).createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");

/** What an asset becomes among the provider's inputs. */
async function fromAsset(asset: pulumi.asset.Asset): Promise<Record<string, string>> {
  const { isAbsolute, relative, resolve } = await import("node:path");
  // relative to the project directory (where the provider reads it too) when inside it: a moved
  // or re-cloned project then changes nothing
  const portable = (p: string) => {
    const rel = relative(process.cwd(), resolve(p));
    return rel.startsWith("..") || isAbsolute(rel) ? resolve(p) : rel;
  };
  const { fileURLToPath } = await import("node:url");
  const a = asset as { path?: Promise<string>; text?: Promise<string>; uri?: Promise<string> };
  if (a.path !== undefined) {
    const sourcePath = portable(await a.path);
    return { sourcePath, contentSha256: await fileSha256(resolve(sourcePath)) };
  }
  if (a.text !== undefined) {
    const content = await a.text;
    return { content, contentSha256: await textSha256(content) };
  }
  const uri = (await a.uri) ?? "";
  if (uri.startsWith("file:")) {
    const sourcePath = portable(fileURLToPath(uri));
    return { sourcePath, contentSha256: await fileSha256(sourcePath) };
  }
  return { fetchUrl: uri };
}

/**
 * `source` turned into the provider's inputs, and the content's hash beside `content` (computed
 * from the Output, so it stays secret when the content is).
 */
function prepareFile(args: FileArgs): object {
  const { source, ...rest } = args;
  const out: Record<string, unknown> = { ...rest };
  if (args.content !== undefined) {
    out.contentSha256 = pulumi
      .output(args.content)
      .apply((c) => (c === undefined ? undefined : textSha256(c)));
  }
  if (args.fetchAuth !== undefined) out.fetchAuth = pulumi.secret(args.fetchAuth);
  if (source !== undefined) {
    const resolved = pulumi.output(source).apply((asset) => fromAsset(asset as pulumi.asset.Asset));
    if (args.content !== undefined || args.fetchUrl !== undefined) {
      // two sources: passed on as they are, so that check refuses them at preview, naming the rule
      out.sourcePath = resolved.apply((r) => r.sourcePath ?? "(the source asset)");
      return out;
    }
    for (const key of ["content", "sourcePath", "fetchUrl", "contentSha256"] as const) {
      out[key] = resolved.apply((r) => r[key]);
    }
  }
  return out;
}

type FileOutputs = Omit<OutputsOf<typeof file>, "sourcePath">;

/**
 * A file of the account: from `content`, a `source` asset, or a `fetchUrl` the service fetches.
 * The state keeps its SHA-256, size and mtime (secrets for inline `content`; `fetchAuth` is always
 * a secret); a refresh downloads only when size or mtime
 * changed. Delete removes it only while it holds this stack's content, unless `forceDestroy`.
 */
const fileClasses = kindClasses<typeof file, FileArgs, FileOutputs>(
  "File",
  { sha256: true, size: true, mtime: true },
  prepareFile,
  // the hash and size of inline content would give a short secret away: kept secret always
  (args) => (args.content !== undefined ? ["sha256", "size"] : []),
);
export class File extends fileClasses.dynamic {}

export type PointOfInterestArgs = ArgsOf<typeof pointOfInterest>;
/**
 * One named rectangle on a file (a point of interest), in fractions 0..1 of the image. Deleting it
 * leaves the file's other points.
 */
const pointOfInterestClasses = kindClasses<typeof pointOfInterest>("PointOfInterest", {});
export class PointOfInterest extends pointOfInterestClasses.dynamic {}

/**
 * The native face's classes (type tokens `mediahost:index:<Kind>`), served by the provider plugin
 * `pulumi-resource-mediahost`: the same arguments and outputs as the classes above, and `provider`
 * instances reach several accounts (sdk/native.ts).
 */
export namespace native {
  /** A folder of the account's file tree. Missing parents are created; only this folder is managed. */
  export class Folder extends folderClasses.native {}
  /** The options of one folder. Only the options given are managed. */
  export class FolderOptions extends folderOptionsClasses.native {}
  /** Title, description, tags, product and approval of a folder or file. Only the fields given are managed. */
  export class FolderMeta extends folderMetaClasses.native {}
  /** One address alias of the account. Only the fields given are managed. */
  export class Alias extends aliasClasses.native {}
  /** A custom CDN domain of an alias. */
  export class CustomDomain extends customDomainClasses.native {}
  /** A sub-account (shares the parent's plan); the API cannot read it, so it cannot be imported. */
  export class SubAccount extends subAccountClasses.native {}
  /** The account singleton's minify and remote-fetching options. */
  export class AccountSettings extends accountSettingsClasses.native {}
  /** A file of the account: from `content`, a `source` asset, or a `fetchUrl`. */
  export class File extends fileClasses.native {}
  /** One named rectangle on a file (a point of interest), in fractions 0..1 of the image. */
  export class PointOfInterest extends pointOfInterestClasses.native {}
}
