// What the SDK does in the program for the kinds whose program arguments differ from the
// provider's inputs: their argument and output types, and what turns the arguments into inputs.
// Keyed by kind name: the generated classes (sdk/kinds.ts) pick an entry up through `kindClasses`
// (sdk/resource.ts) and `ArgsFor`/`OutputsFor`; a kind absent here passes its arguments on as the
// kind's schema types them, and needs nothing in sdk/.
import * as pulumi from "@pulumi/pulumi";
import type { schemas } from "mediahost-contract";
import type { z } from "zod";
import type { accountSettings } from "../provider/resources/account-settings";
import type { file } from "../provider/resources/file";
import type { ArgsOf, DeepInput, OutputsOf } from "./resource";

/** Remote fetching as the API takes it, credentials included (they are stored as secrets). */
export type FetchingArgs = DeepInput<z.input<typeof schemas.FetchingUpdate>>;
type Fetching = z.output<typeof schemas.FetchingUpdate>;

type AccountSettingsArgs = Omit<ArgsOf<typeof accountSettings>, "fetching" | "fetchingSecrets"> & {
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

type FileKindArgs = ArgsOf<typeof file>;
type FileArgs = Omit<FileKindArgs, "sourcePath" | "contentSha256"> & {
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

/** The program's argument and output types of the kinds prepared here. */
export interface Prepared {
  AccountSettings: { args: AccountSettingsArgs; outputs: AccountSettingsOutputs };
  File: { args: FileArgs; outputs: FileOutputs };
}

/**
 * What the program does for a kind: `prepare` turns the arguments into the inputs the provider
 * takes; `secretOutputs` names outputs that are secrets for these arguments (the engine keeps an
 * output secret by itself only when an input of the same name is).
 */
export interface Preparation<A, O> {
  prepare?(args: A): object;
  secretOutputs?(args: A): (keyof O & string)[];
}

export const preparations: {
  [N in keyof Prepared]: Preparation<Prepared[N]["args"], Prepared[N]["outputs"]>;
} = {
  AccountSettings: { prepare: splitSecrets },
  File: {
    prepare: prepareFile,
    // the hash and size of inline content would give a short secret away: kept secret always
    secretOutputs: (args) => (args.content !== undefined ? ["sha256", "size"] : []),
  },
};
