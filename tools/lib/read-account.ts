// Reads what mediahost-generate declares from a live account: settings, aliases with their
// custom domains, the folder tree down to a depth, each folder's own options and meta, and (with
// `files`) the files of the declared folders up to a size, downloaded, and every listed file's
// meta and points of interest (those of files too large to declare too: meta and points name a
// path, not a File resource).
// Folder listings follow `continuation` (listFolder); listings and per-folder reads share one
// bound on concurrent requests.

import { Semaphore } from "async-mutex";
import { joinPath, schemas, systemFolderOf } from "mediahost-contract";
import type { z } from "zod";
import { listFolder, type MediahostClient, MediahostError, readableFetching } from "../../provider/for-tools";

type OptionKey = keyof z.infer<typeof schemas.FolderOptions>;
const OPTION_KEYS = Object.keys(schemas.FolderOptions.shape) as OptionKey[];

export interface FetchingSnapshot {
  enabled: boolean;
  type?: "http" | "s3";
  http?: { url: string; auth?: { enabled: boolean; username?: string } };
  s3?: { accessKeyId: string; bucket: string; endpoint?: string; prefix?: string; forcePathStyle?: boolean };
}

/** The meta a program declares: the fields set, without the approval time the service stamps. */
export interface MetaSnapshot {
  title?: string;
  description?: string;
  tags?: string[];
  product?: Record<string, string>;
  approval?: { approved: boolean; comment?: string };
}

export interface FolderSnapshot {
  /** Absolute path; "/" for the root (which only carries options and meta). */
  path: string;
  options?: z.infer<typeof schemas.FolderOptions>;
  meta?: MetaSnapshot;
}

export interface PointSnapshot {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A listed file's meta and points of interest (with `files`), whether or not the file is declared. */
export interface FileDetailsSnapshot {
  path: string;
  meta?: MetaSnapshot;
  /** By name. */
  points: PointSnapshot[];
}

export interface FileSnapshot {
  path: string;
  bytes: Uint8Array;
}

export interface AccountSnapshot {
  accountAlias: string;
  minify?: { enabled: boolean };
  fetching?: FetchingSnapshot;
  aliases: { name: string; prefix?: string; cdn?: boolean; defaultProfile?: string; customDomain?: string }[];
  /** The root first, then folders in path order (parents before children). */
  folders: FolderSnapshot[];
  /** Folders deeper than the depth asked for exist under these (not declared). */
  truncatedAt: string[];
  /**
   * The account's system folders found at the root (docs/api.md#files-and-folders): the account's,
   * never declared, nor what is in them, except the image profiles (`/Profiles/*.profile`), which
   * are declared as files.
   */
  systemFolders: string[];
  /** Files of the declared folders (with `files`), in path order. */
  files: FileSnapshot[];
  /** Files left out for their size (with `files`). */
  largeFiles: { path: string; size: number }[];
  /** The meta and points of every listed file that has any (with `files`), in path order. */
  fileDetails: FileDetailsSnapshot[];
}

export interface ReadProgress {
  folders: number;
  listings: number;
  /** Folders whose options and meta were read. */
  details: number;
  /** Files whose meta and points were read (with `files`). */
  fileDetails: number;
}

export interface ReadOptions {
  /** Folder levels to declare: 1 = the root's folders only. */
  depth: number;
  /** Requests in flight at most. */
  concurrency: number;
  /** Read the files of the declared folders up to this size, in bytes. */
  files?: { maxSize: number };
  onProgress?: (p: ReadProgress) => void;
  /**
   * Runs the reads the listing found to do (each folder's and file's details, each download),
   * once the listing is done: by default all at once within `concurrency`; generate paces them to
   * the account's rate budget (tools/lib/pacer.ts).
   */
  runReads?: (reads: Read[]) => Promise<void>;
}

/** One read the listing found to do, and the calls it makes. */
export interface Read {
  calls: number;
  run(): Promise<void>;
}

const isProfile = (name: string) => name.endsWith(".profile");

/** generate's one line on the system folders it found and left out. */
export function systemFoldersLine(found: string[]): string | undefined {
  if (found.length === 0) return undefined;
  const profiles = found.includes("/Profiles")
    ? "; the image profiles in /Profiles are declared as files (with --files)"
    : "";
  return (
    `Left out the account's system folders (${found.join(", ")}) and what is in them: they are the ` +
    `account's, never the stack's${profiles}.`
  );
}

async function orUndefinedIfMissing<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof MediahostError && err.isNotFound) return undefined; // deleted meanwhile
    throw err;
  }
}

/** What a program declares of a path's meta; undefined when nothing is set. */
function metaOf(meta: z.infer<typeof schemas.AllMeta> | undefined): MetaSnapshot | undefined {
  const m: MetaSnapshot = {};
  if (meta?.title) m.title = meta.title;
  if (meta?.description) m.description = meta.description;
  if (meta?.tags?.length) m.tags = [...meta.tags];
  const product = Object.entries(meta?.product ?? {}).filter(([, v]) => typeof v === "string" && v !== "");
  if (product.length) m.product = Object.fromEntries(product) as Record<string, string>;
  // an approval the service stamped was set by someone: its time stays the service's
  if (meta?.approval?.datetime) {
    const { approved, comment } = meta.approval;
    m.approval = comment ? { approved, comment } : { approved };
  }
  return Object.keys(m).length ? m : undefined;
}

export async function readAccount(client: MediahostClient, options: ReadOptions): Promise<AccountSnapshot> {
  // one bound on requests in flight, shared by listings and per-folder reads
  const slots = new Semaphore(options.concurrency);
  const account = await slots.runExclusive(() => client.ops.getAccount());
  return new AccountReader(client, options, slots, snapshotOf(account)).read();
}

type Account = Awaited<ReturnType<MediahostClient["ops"]["getAccount"]>>;

/** The account's settings and aliases, before anything of its files is read. */
function snapshotOf(account: Account): AccountSnapshot {
  return {
    accountAlias: account.alias,
    minify: typeof account.minify?.enabled === "boolean" ? { enabled: account.minify.enabled } : undefined,
    fetching: readableFetching(account.fetching) as FetchingSnapshot | undefined,
    aliases: Object.entries(account.aliases ?? {})
      .map(([name, e]) => ({
        name,
        prefix: e.prefix,
        cdn: e.cdn,
        defaultProfile: e.defaultProfile,
        customDomain: e.customDomain,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    folders: [],
    truncatedAt: [],
    systemFolders: [],
    files: [],
    largeFiles: [],
    fileDetails: [],
  };
}

/** One read of an account's files: the listing walked first, the reads it found run after. */
class AccountReader {
  private readonly progress: ReadProgress = { folders: 0, listings: 0, details: 0, fileDetails: 0 };
  private readonly folders: FolderSnapshot[] = [];
  /** Found while listing, run once the listing is done (so that they can be planned). */
  private readonly reads: Read[] = [];
  /** The first read that failed: the read fails with it once the reads under way are done. */
  private failure: unknown;

  constructor(
    private readonly client: MediahostClient,
    private readonly options: ReadOptions,
    private readonly slots: Semaphore,
    private readonly snapshot: AccountSnapshot,
  ) {}

  async read(): Promise<AccountSnapshot> {
    const { snapshot, options } = this;
    const root: FolderSnapshot = { path: "/" };
    this.readDetails(root);
    if (options.depth > 0) await this.walk("/", 0);
    if (this.failure) throw this.failure;
    await (options.runReads ?? ((all) => Promise.all(all.map((r) => r.run())).then(() => {})))(this.reads);
    if (this.failure) throw this.failure;
    this.report();

    const folders = this.folders.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    snapshot.folders = [root, ...folders];
    snapshot.truncatedAt.sort();
    snapshot.systemFolders.sort();
    snapshot.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    snapshot.largeFiles.sort((a, b) => (a.path < b.path ? -1 : 1));
    snapshot.fileDetails.sort((a, b) => (a.path < b.path ? -1 : 1));
    return snapshot;
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    return this.slots.runExclusive(task);
  }

  private report(): void {
    this.options.onProgress?.({ ...this.progress });
  }

  /** A read for later; its failure is kept, not thrown. */
  private later(calls: number, run: () => Promise<void>): void {
    this.reads.push({
      calls,
      run: () =>
        run().catch((err: unknown) => {
          this.failure ??= err;
        }),
    });
  }

  private readDetails(folder: FolderSnapshot): void {
    const { client } = this;
    this.later(2, async () => {
      const [meta, opts] = await Promise.all([
        this.run(() => orUndefinedIfMissing(client.ops.getMeta({ query: { filename: folder.path } }))),
        this.run(() =>
          orUndefinedIfMissing(client.ops.getFolderOptions({ query: { filename: folder.path } })),
        ),
      ]);
      const m = metaOf(meta);
      if (m) folder.meta = m;
      const o: NonNullable<FolderSnapshot["options"]> = {};
      for (const k of OPTION_KEYS) if (typeof opts?.[k] === "boolean") o[k] = opts[k] as boolean;
      if (Object.keys(o).length) folder.options = o;
      this.progress.details++;
      this.report();
    });
  }

  private readFileDetails(path: string): void {
    const { client } = this;
    this.later(2, async () => {
      const [meta, points] = await Promise.all([
        this.run(() => orUndefinedIfMissing(client.ops.getMeta({ query: { filename: path } }))),
        this.run(() => orUndefinedIfMissing(client.ops.getPoi({ query: { filename: path } }))),
      ]);
      const m = metaOf(meta);
      const p = Object.entries(points ?? {})
        .map(([name, r]) => ({ name, x: r.x, y: r.y, width: r.width, height: r.height }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (m || p.length) this.snapshot.fileDetails.push({ path, ...(m ? { meta: m } : {}), points: p });
      this.progress.fileDetails++;
      this.report();
    });
  }

  private readFile(path: string, size: number, maxSize: number): void {
    this.readFileDetails(path);
    if (size > maxSize) {
      this.snapshot.largeFiles.push({ path, size });
      return;
    }
    this.later(1, async () => {
      const bytes = await this.run(() => this.client.ops.download({ query: { filename: path } }));
      this.snapshot.files.push({ path, bytes });
    });
  }

  /** A folder's listing, one slot a page; subfolders are walked as they are found. */
  private async walk(dir: string, depth: number): Promise<void> {
    const { snapshot, options } = this;
    const children: Promise<void>[] = [];
    const pages = listFolder(this.client, dir);
    for (;;) {
      const next = await this.run(() => pages.next());
      if (next.done) break;
      const entry = next.value;
      const system = systemFolderOf(joinPath(dir, entry.filename));
      if (system) {
        // the account's own: left out, but for the image profiles, which are files to manage
        snapshot.systemFolders.push(system);
        if (system === "/Profiles" && options.files) children.push(this.walkProfiles(options.files.maxSize));
        continue;
      }
      if (!entry.isDirectory) {
        if (options.files) this.readFile(joinPath(dir, entry.filename), entry.size, options.files.maxSize);
        continue;
      }
      const path = joinPath(dir, entry.filename);
      if (depth + 1 > options.depth) {
        if (!snapshot.truncatedAt.includes(dir)) snapshot.truncatedAt.push(dir);
        continue;
      }
      const folder: FolderSnapshot = { path };
      this.folders.push(folder);
      this.progress.folders++;
      this.readDetails(folder);
      children.push(this.walk(path, depth + 1));
    }
    this.progress.listings++;
    this.report();
    await Promise.all(children);
  }

  /** The image profiles: the files of /Profiles alone (the folder itself is the account's). */
  private async walkProfiles(maxSize: number): Promise<void> {
    const pages = listFolder(this.client, "/Profiles");
    for (;;) {
      const next = await this.run(() => pages.next());
      if (next.done) break;
      const entry = next.value;
      if (!entry.isDirectory && isProfile(entry.filename))
        this.readFile(joinPath("/Profiles", entry.filename), entry.size, maxSize);
    }
    this.progress.listings++;
  }
}
