// Existence of folders (and files) from their parent's listing: one `readdir` page answers for up
// to 100 siblings, where `stat` answers for one. Resources of one parent read in the same run
// share the pages (single flight), fetched only as far as someone asks for an entry not seen yet,
// and never more pages than there are siblings asking (beyond that, `stat` is cheaper). A lone
// child, or a parent that cannot be listed, is read with `stat` (the caller's fallback).
//
// What this relies on (docs/api.md#files-and-folders): a listing names every entry of the folder
// across its pages, each with `filename` (the base name), `isDirectory` and `size`, and mostly `mtime`
// ([live]: some entries leave it out). It
// does not rely on any order of the entries.

import { baseName, parentOf } from "mediahost-contract";
import { type FolderEntry as DirEntry, type MediahostClient, MediahostError } from "../client";

/** Entries a readdir page holds at most (docs/api.md#files-and-folders). */
export const LISTING_PAGE = 100;

/** The entry, `undefined` when the listing shows there is none, or "stat" when the listing cannot tell. */
export type Lookup = DirEntry | undefined | "stat";

/**
 * How long the first lookup of a parent waits for siblings to ask too before it decides between a
 * listing and `stat`: half a round trip of the service (a `stat` costs a whole one, so a lone
 * child loses at most half a call's time, once per parent and run), within these bounds. The
 * floor is the engine's pace, not the service's: it sends its steps a few ms apart, and a shorter
 * wait decided on a `stat` for a first child whose siblings were then listed anyway
 * (docs/benchmark-history.md, "Since: the listing's wait"). It counts from when a call can go out
 * (the run's token in hand): a refresh's first read starts with the run, before the token.
 */
const MIN_GATHER_MS = 15;
const MAX_GATHER_MS = 25;

class ParentListing {
  readonly entries = new Map<string, DirEntry>();
  /** Names asked for so far. */
  readonly asked = new Set<string>();
  pages = 0;
  /** The continuation of the next page; `null` once the last page is in. */
  next: string | undefined | null = undefined;
  unlistable = false;
  /** The wait of the first lookup for its siblings; every later one goes on when it ends. */
  gathered?: Promise<void>;
  private fetching?: Promise<void>;

  constructor(
    private readonly client: MediahostClient,
    readonly path: string,
  ) {}

  get complete(): boolean {
    return this.next === null;
  }

  /** Fetches the next page, once however many ask at the same time. */
  fetchNext(): Promise<void> {
    this.fetching ??= (async () => {
      try {
        const continuation = this.next ?? undefined;
        const page = await this.client.ops.readdir({ query: { dirname: this.path, continuation } });
        this.pages++;
        for (const entry of page.contents) this.entries.set(entry.filename, entry);
        this.next = page.continuation ?? null;
      } catch (err) {
        // gone, not a folder, or not ours to list: every child falls back to its own stat
        if (!(err instanceof MediahostError && err.kind === "http")) throw err;
        this.unlistable = true;
      } finally {
        this.fetching = undefined;
      }
    })();
    return this.fetching;
  }
}

export class Listings {
  private readonly parents = new Map<string, ParentListing>();

  constructor(private readonly client: MediahostClient) {}

  private gatherMs(): number {
    return Math.min(MAX_GATHER_MS, Math.max(MIN_GATHER_MS, (this.client.roundTripMs ?? 0) / 2));
  }

  /** The entry at `path` as its parent's listing shows it (see the module comment). */
  async lookup(path: string): Promise<Lookup> {
    const parentPath = parentOf(path);
    const name = baseName(path);
    let parent = this.parents.get(parentPath);
    if (!parent) {
      parent = new ParentListing(this.client, parentPath);
      this.parents.set(parentPath, parent);
    }
    parent.asked.add(name);
    // no call goes out before the token is in hand: waiting for siblings meanwhile costs nothing
    parent.gathered ??= this.client.ready().then(() => new Promise((r) => setTimeout(r, this.gatherMs())));
    await parent.gathered;
    for (;;) {
      const entry = parent.entries.get(name);
      if (entry) return entry;
      if (parent.complete) return undefined;
      if (parent.unlistable) return "stat";
      // a listing pays off only for siblings: a lone child, or more pages than children asking, is a stat
      if (parent.asked.size < 2 || parent.pages >= parent.asked.size) return "stat";
      await parent.fetchNext();
    }
  }
}
