// The stack journal: what this stack knows about objects its state cannot tell, kept in a small
// file on local disk per stack and account.
//
// - `creating`: noted before a create writes anything. If the run dies after the service created
//   the object but before Pulumi saved it, the next run of the same stack finds the note and takes
//   the object over instead of asking for `adopt`. Dropped as soon as the object shows up in the
//   stack's state (any later diff, read, update or delete of it), or when the create finds the
//   object to be someone else's.
// - `kept`: the stack left the object in place while its resource left the state or failed to
//   delete it (a folder that was not empty, the meta and options of a folder being moved away).
//   It is still this stack's: a later create of it takes it over without `adopt`, which is how
//   undoing a failed move converges.
// - `claimed`: a resource took over an object another resource of this stack held (an undone
//   move, an `account` rename that reaches the same account). The other resource's delete then
//   leaves the object alone, in this run or a later one.
//
// Where: the configuration's journal directory (`$MEDIAHOST_JOURNAL_DIR`, else
// `$PULUMI_HOME/mediahost/journal`: provider/config.ts); files 0600 in a 0700 directory. Runs on
// another machine (or with another journal directory) do not see the notes: there, `adopt: true`
// is the way, and the in-process record of the run still keeps a resource from deleting what
// another one took over.
//
// How: a log, one line appended per change (`[key, note]`, or `[key, null]` when a note goes), so
// a change costs one small write whatever the stack's size: a stack of 1,500 resources notes and
// drops 1,500 creates in a run, and rewriting a whole file each time cost seconds (O(N²) bytes).
// The log is rewritten with only the live notes when it has grown well past them. A line torn by
// a crash is skipped. Drops are written together at the end of the event loop's turn (a preview
// drops a note per resource, each its own write otherwise): one lost to a crash leaves a note
// naming an object that is in the stack's state anyway, dropped again on its next diff.
// Releases up to 0.2.0 kept the notes as one JSON object (`<key>.json`); it is read and moved
// into the log on first use.
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type Note =
  | { state: "creating"; at: string }
  | { state: "kept"; at: string; reason: string }
  | { state: "claimed"; at: string; token: string };

/** The log is rewritten once it holds this many lines more than twice the live notes. */
const COMPACT_SLACK = 256;

/** One stack's notes for one account, kept in memory and written through to disk. */
export class StackJournal {
  private readonly log: string;
  /** The whole-object file of releases up to 0.2.0. */
  private readonly legacy: string;
  private notes: Record<string, Note> | undefined;
  /** Lines in the log file (as far as this process knows), and live notes. */
  private lines = 0;
  private live = 0;
  /** Drops not written yet: written together once the current turn of the event loop is over. */
  private drops: string[] = [];

  constructor(
    private readonly dir: string,
    owner: string,
    baseUrl: string,
    accountAlias: string,
  ) {
    const key = createHash("sha256")
      .update(JSON.stringify([owner, baseUrl, accountAlias]))
      .digest("hex")
      .slice(0, 32);
    this.log = join(dir, `${key}.jsonl`);
    this.legacy = join(dir, `${key}.json`);
  }

  private load(): Record<string, Note> {
    if (this.notes) return this.notes;
    const notes: Record<string, Note> = {};
    const legacy = readIfThere(this.legacy);
    if (legacy !== undefined) {
      try {
        const raw = JSON.parse(legacy) as Record<string, Note | { startedAt: string }>;
        // notes of 0.1.0 were `{startedAt}`: creates in flight
        for (const [k, n] of Object.entries(raw))
          notes[k] = "state" in n ? n : { state: "creating", at: n.startedAt };
      } catch {
        // unreadable: as if there were no notes
      }
    }
    for (const line of (readIfThere(this.log) ?? "").split("\n")) {
      if (!line) continue;
      this.lines++;
      try {
        const [key, note] = JSON.parse(line) as [string, Note | null];
        if (note) notes[key] = note;
        else delete notes[key];
      } catch {
        // a line torn by a crash
      }
    }
    this.notes = notes;
    this.live = Object.keys(notes).length;
    if (legacy !== undefined || this.tooLong()) this.compact();
    return notes;
  }

  private tooLong(): boolean {
    return this.lines > 2 * this.live + COMPACT_SLACK;
  }

  /** Rewrites the log with only the live notes (and retires the legacy file). */
  private compact(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const entries = Object.entries(this.notes ?? {});
    const tmp = `${this.log}.${process.pid}.tmp`;
    writeFileSync(tmp, entries.map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: 0o600 });
    renameSync(tmp, this.log);
    rmSync(this.legacy, { force: true });
    this.lines = entries.length;
    // the rewrite holds the notes as they are: the drops pending are in it
    this.drops = [];
  }

  private set(kind: string, id: string, note: Note | undefined): void {
    const notes = this.load();
    const key = `${kind} ${id}`;
    if (note) {
      if (!(key in notes)) this.live++;
      notes[key] = note;
    } else if (key in notes) {
      delete notes[key];
      this.live--;
    } else return;
    if (note) this.append([[key, note]]);
    else this.drop([key]);
  }

  /** Notes are written before the caller goes on (a create must be noted before it writes). */
  private append(changes: [string, Note | null][]): void {
    const pending = this.drops.map((key): [string, null] => [key, null]);
    this.drops = [];
    const lines = [...pending, ...changes];
    if (this.lines === 0) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    appendFileSync(this.log, lines.map((c) => `${JSON.stringify(c)}\n`).join(""), { mode: 0o600 });
    this.lines += lines.length;
    if (this.tooLong()) this.compact();
  }

  /** Drops are written with the next note, or together once this turn of the event loop is over. */
  private drop(keys: string[]): void {
    if (this.drops.length === 0) setImmediate(() => this.flush());
    this.drops.push(...keys);
  }

  /** Writes the drops not written yet. */
  flush(): void {
    if (this.drops.length > 0) this.append([]);
  }

  note(kind: string, id: string): Note | undefined {
    return this.load()[`${kind} ${id}`];
  }

  /**
   * Notes a create before it writes anything; returns whether an earlier run had noted it already.
   * A note that the object is kept (or claimed) stays: it says more than "creating" would.
   */
  beginCreate(kind: string, id: string): boolean {
    const note = this.note(kind, id);
    if (!note) this.set(kind, id, { state: "creating", at: new Date().toISOString() });
    return note?.state === "creating";
  }

  /** The object is in the state now (or was someone else's): its create is no longer in flight. */
  created(kind: string, id: string): void {
    if (this.note(kind, id)?.state === "creating") this.set(kind, id, undefined);
  }

  keep(kind: string, id: string, reason: string): void {
    this.set(kind, id, { state: "kept", at: new Date().toISOString(), reason });
  }

  claim(kind: string, id: string, token: string): void {
    this.set(kind, id, { state: "claimed", at: new Date().toISOString(), token });
  }

  /** The object is gone, or no longer this stack's concern. */
  forget(kind: string, id: string): void {
    this.set(kind, id, undefined);
  }

  /**
   * An object that holds others (a folder) is gone, or was just made anew: nothing noted about
   * the objects it holds (`holds(kind, id)`) is true any more, so a later create of one must not
   * take over what someone else put there. `except` keeps one note (the container's own
   * "creating", until the state has it).
   */
  forgetHeld(holds: (kind: string, id: string) => boolean, except?: { kind: string; id: string }): void {
    const notes = this.load();
    const kept = except ? `${except.kind} ${except.id}` : undefined;
    const held = Object.keys(notes).filter((key) => {
      const cut = key.indexOf(" ");
      return key !== kept && holds(key.slice(0, cut), key.slice(cut + 1));
    });
    for (const key of held) delete notes[key];
    this.live -= held.length;
    if (held.length > 0) this.drop(held);
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

const journals = new Map<string, StackJournal>();

/** The journal of `owner` for one account (shared within the process); undefined without an owner. */
export function journalFor(
  dir: string,
  owner: string | undefined,
  baseUrl: string,
  accountAlias: string,
): StackJournal | undefined {
  if (!owner) return undefined;
  const key = JSON.stringify([dir, owner, baseUrl, accountAlias]);
  let journal = journals.get(key);
  if (!journal) {
    journal = new StackJournal(dir, owner, baseUrl, accountAlias);
    journals.set(key, journal);
  }
  return journal;
}

/** Drops the in-memory copies, as a new provider process starts without them (tests). */
export function resetJournals(): void {
  journals.clear();
}
