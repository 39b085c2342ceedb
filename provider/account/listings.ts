// Existence of folders (and files) from their parent's listing: one `readdir` page answers for up
// to 100 siblings, where `stat` answers for one. Resources of one parent read in the same run
// share the pages (single flight), fetched only as far as someone asks for an entry not seen yet,
// and never more pages than there are siblings asking (beyond that, `stat` is cheaper). A lone
// child, or a parent that cannot be listed, is read with `stat` (the caller's fallback). Files
// just written ask the same way for what the service made of them (`afterWrite`): one listing made
// after every write of those asking together.
//
// What this relies on (docs/api.md#files-and-folders): a listing names every entry of the folder
// across its pages, each with `filename` (the base name), `isDirectory`, `size` and `mtime`. It
// does not rely on any order of the entries.

import type { schemas } from "mediahost-contract";
import { baseName, parentOf } from "mediahost-contract";
import type { z } from "zod";
import { type MediahostClient, MediahostError } from "../client";

type DirEntry = z.infer<typeof schemas.DirEntry>;

/** The entry, `undefined` when the listing shows there is none, or "stat" when the listing cannot tell. */
export type Lookup = DirEntry | undefined | "stat";

/** How long a lookup waits for siblings to ask too before it decides between a listing and `stat`. */
const GATHER_MS = 5;
/** How long a listing after writes waits for the other writes under way in the same folder. */
const WRITES_WAIT_MS = 2_000;

class ParentListing {
  readonly entries = new Map<string, DirEntry>();
  /** Names asked for so far. */
  readonly asked = new Set<string>();
  pages = 0;
  /** The continuation of the next page; `null` once the last page is in. */
  next: string | undefined | null = undefined;
  unlistable = false;
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

/**
 * One listing of a parent made after every write its askers did: those who ask while it has not
 * started share it; who asks once it has started waits for the next one.
 */
class FreshRound {
  readonly names = new Set<string>();
  started = false;
  readonly result: Promise<Map<string, DirEntry> | "stat">;

  constructor(client: MediahostClient, path: string, after: Promise<unknown>, writing: () => number) {
    this.result = (async () => {
      await after.catch(() => {});
      // files still being written beside these will ask too: wait for them (bounded)
      const until = Date.now() + WRITES_WAIT_MS;
      do await new Promise((r) => setTimeout(r, GATHER_MS));
      while (writing() > 0 && Date.now() < until);
      this.started = true;
      // a lone file is one stat, a listing costs as much and may be many pages
      if (this.names.size < 2) return "stat";
      const found = new Map<string, DirEntry>();
      let continuation: string | undefined;
      try {
        do {
          const page = await client.ops.readdir({ query: { dirname: path, continuation } });
          for (const entry of page.contents)
            if (this.names.has(entry.filename)) found.set(entry.filename, entry);
          continuation = page.continuation ?? undefined;
        } while (continuation && found.size < this.names.size);
      } catch (err) {
        if (!(err instanceof MediahostError && err.kind === "http")) throw err;
        return "stat";
      }
      return found;
    })();
  }
}

export class Listings {
  private readonly parents = new Map<string, ParentListing>();
  private readonly rounds = new Map<string, FreshRound>();
  /** Writes under way, by parent folder. */
  private readonly writes = new Map<string, number>();

  constructor(private readonly client: MediahostClient) {}

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
    if (parent.pages === 0) await new Promise((r) => setTimeout(r, GATHER_MS));
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

  /** Runs the write of the file at `path`, known while under way to those asking `afterWrite` beside it. */
  async writing<T>(path: string, write: () => Promise<T>): Promise<T> {
    const parentPath = parentOf(path);
    this.writes.set(parentPath, (this.writes.get(parentPath) ?? 0) + 1);
    try {
      return await write();
    } finally {
      this.writes.set(parentPath, (this.writes.get(parentPath) ?? 1) - 1);
    }
  }

  /**
   * The entry at `path` as a listing made after the caller's write shows it (its mtime, for one):
   * files written together in one folder share one listing, fetched as far as they need, where
   * each would otherwise be a `stat`. "stat" when the listing cannot tell (a lone file, a folder
   * that cannot be listed); undefined when the listing does not show it.
   */
  async afterWrite(path: string): Promise<Lookup> {
    const parentPath = parentOf(path);
    let round = this.rounds.get(parentPath);
    if (!round || round.started) {
      round = new FreshRound(
        this.client,
        parentPath,
        round?.result ?? Promise.resolve(),
        () => this.writes.get(parentPath) ?? 0,
      );
      this.rounds.set(parentPath, round);
    }
    round.names.add(baseName(path));
    const result = await round.result;
    if (result === "stat") return "stat";
    // a listing made before this write started would not do: the round started after the call
    return result.get(baseName(path));
  }
}
