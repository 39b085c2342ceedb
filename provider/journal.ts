// The journal of creates in flight: how a run that was killed after the service created an
// object, but before Pulumi saved it in the state, converges on the next run.
//
// Before a create writes anything, the provider notes "stack S is creating <kind> <id> in account
// A" in a small file on local disk. If the run dies, the note stays. On the next run the create
// finds the object there already; with a note from the same stack it takes the object over (it
// is the one this stack made) instead of failing with the `adopt: true` hint, which stays for
// objects that are really someone else's. The note goes away as soon as the object shows up in
// the stack's state (any later diff, read, update or delete of it) or once the create found the
// object to be someone else's.
//
// Where: `$MEDIAHOST_JOURNAL_DIR`, else `$PULUMI_HOME/mediahost/journal`, else
// `~/.pulumi/mediahost/journal`, one file per stack and account. The rerun must happen on the
// same machine (or with the same journal directory, e.g. cached in CI); elsewhere the create
// fails with the adopt hint, which then names the way out.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The hidden input the SDK adds to every resource: which stack declares it. */
export const OWNER_KEY = "__mediahostOwner";

interface Entry {
  startedAt: string;
}

function journalDir(): string {
  if (process.env.MEDIAHOST_JOURNAL_DIR) return process.env.MEDIAHOST_JOURNAL_DIR;
  const home = process.env.PULUMI_HOME || join(homedir(), ".pulumi");
  return join(home, "mediahost", "journal");
}

/** One stack's notes for one account, kept in memory and written through to disk. */
export class CreateJournal {
  private readonly file: string;
  private entries: Record<string, Entry> | undefined;

  constructor(
    readonly owner: string,
    baseUrl: string,
    accountAlias: string,
  ) {
    const key = createHash("sha256")
      .update(JSON.stringify([owner, baseUrl, accountAlias]))
      .digest("hex");
    this.file = join(journalDir(), `${key.slice(0, 32)}.json`);
  }

  private load(): Record<string, Entry> {
    if (!this.entries) {
      try {
        this.entries = JSON.parse(readFileSync(this.file, "utf8")) as Record<string, Entry>;
      } catch {
        this.entries = {};
      }
    }
    return this.entries;
  }

  private save(): void {
    const dir = journalDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.entries ?? {}), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  has(kind: string, id: string): boolean {
    return `${kind} ${id}` in this.load();
  }

  /** Notes a create before it writes anything; returns whether an earlier run had noted it already. */
  begin(kind: string, id: string): boolean {
    const entries = this.load();
    const key = `${kind} ${id}`;
    const earlier = key in entries;
    if (!earlier) {
      entries[key] = { startedAt: new Date().toISOString() };
      this.save();
    }
    return earlier;
  }

  /** Forgets a note: the object is in the state now, or it was never this stack's. */
  forget(kind: string, id: string): void {
    const entries = this.load();
    const key = `${kind} ${id}`;
    if (key in entries) {
      delete entries[key];
      this.save();
    }
  }
}

const journals = new Map<string, CreateJournal>();

/** The journal of `owner` for one account (shared within the process); undefined without an owner. */
export function journalFor(
  owner: string | undefined,
  baseUrl: string,
  accountAlias: string,
): CreateJournal | undefined {
  if (!owner) return undefined;
  const key = JSON.stringify([owner, baseUrl, accountAlias]);
  let journal = journals.get(key);
  if (!journal) {
    journal = new CreateJournal(owner, baseUrl, accountAlias);
    journals.set(key, journal);
  }
  return journal;
}

/** Drops the in-memory copies, as a new provider process starts without them (tests). */
export function resetJournals(): void {
  journals.clear();
}
