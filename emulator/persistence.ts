// State on disk (--data DIR): an append-only journal of mutations, fsynced before the request
// that caused them is answered, and a snapshot written at start (replay, then compact).
//
//   DIR/snapshot.json   the state as of journal entry `seq`
//   DIR/journal.jsonl   one {"seq", "m"} line per mutation after that
//   DIR/blobs/<sha256>  file contents
//   DIR/signing.key     the key tokens are signed with, so tokens survive a restart
import { randomBytes } from "node:crypto";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { Account, type AliasEntry, type EventRecord, type Fetching } from "./accounts";
import { syncPath, writeSynced } from "./durable";
import type { Mutation, World } from "./state";
import type { BlobRefs, DirNode, TreeNode } from "./tree";

interface SavedAccount {
  alias: string;
  clientId: string;
  clientSecret: string;
  /** Further API clients (absent in data written before they existed). */
  clients?: [string, string][];
  dateCreated: string;
  minify: { enabled: boolean };
  fetching: Fetching;
  aliases: [string, AliasEntry][];
  subAccounts: [string, string][];
  events: EventRecord[];
  root: SavedNode;
}

type SavedNode =
  | (Omit<Extract<TreeNode, { kind: "file" }>, "kind"> & { kind: "file" })
  | (Omit<DirNode, "children"> & { children: [string, SavedNode][] });

interface Snapshot {
  version: 1;
  seq: number;
  accounts: SavedAccount[];
}

function saveNode(node: TreeNode): SavedNode {
  if (node.kind === "file") return node;
  return { ...node, children: [...node.children].map(([name, child]) => [name, saveNode(child)]) };
}

function loadNode(node: SavedNode): TreeNode {
  if (node.kind === "file") return node;
  return { ...node, children: new Map(node.children.map(([name, child]) => [name, loadNode(child)])) };
}

function saveAccount(a: Account): SavedAccount {
  return {
    alias: a.alias,
    clientId: a.clientId,
    clientSecret: a.clientSecret,
    clients: [...a.clients],
    dateCreated: a.dateCreated,
    minify: a.minify,
    fetching: a.fetching,
    aliases: [...a.aliases],
    subAccounts: [...a.subAccounts],
    events: a.events,
    root: saveNode(a.tree.root),
  };
}

function loadAccount(s: SavedAccount, refs: BlobRefs): Account {
  const a = new Account(s.alias, s, s.dateCreated, refs, loadNode(s.root) as DirNode);
  a.minify = s.minify;
  a.fetching = s.fetching;
  a.aliases = new Map(s.aliases);
  for (const [alias, date] of s.subAccounts) a.subAccounts.set(alias, date);
  for (const [id, secret] of s.clients ?? []) a.clients.set(id, secret);
  a.events = s.events;
  // data of an earlier version kept `fetching.contentLength` as a number or null
  for (const e of a.events) {
    const f = e.fetching as { contentLength: unknown } | undefined;
    if (f && typeof f.contentLength !== "string") f.contentLength = String(f.contentLength ?? 0);
  }
  return a;
}

async function writeDurably(path: string, data: string | Buffer): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeSynced(tmp, data);
  await fsp.rename(tmp, path);
}

/** The appender: entries queued while a write is under way go out together in one fsync. */
export class WriteAheadLog {
  private queue: { line: string; done: () => void; fail: (e: unknown) => void }[] = [];
  private writing = false;

  private constructor(
    private readonly dir: string,
    private fh: fsp.FileHandle,
    private seq: number,
  ) {}

  /**
   * Opens DIR: restores the snapshot into `world`, replays the journal, then compacts
   * (new snapshot, empty journal). Returns the journal ready for appends.
   */
  static async open(dir: string, world: World, log: (msg: string) => void): Promise<WriteAheadLog> {
    await fsp.mkdir(dir, { recursive: true });
    const snapshotPath = join(dir, "snapshot.json");
    const journalPath = join(dir, "journal.jsonl");
    let seq = 0;
    const snapshot = await fsp.readFile(snapshotPath, "utf8").catch(() => undefined);
    if (snapshot !== undefined) {
      const s = JSON.parse(snapshot) as Snapshot;
      seq = s.seq;
      for (const saved of s.accounts) world.accounts.set(saved.alias, loadAccount(saved, world.blobs));
    }
    const lines = (await fsp.readFile(journalPath, "utf8").catch(() => "")).split("\n");
    for (const line of lines) {
      if (line === "") continue;
      let entry: { seq: number; m: Mutation };
      try {
        entry = JSON.parse(line);
      } catch {
        // a line torn by a crash in the middle of a write: it was never acknowledged
        break;
      }
      if (entry.seq <= seq) continue;
      seq = entry.seq;
      try {
        world.apply(entry.m);
      } catch (e) {
        log(`journal entry ${entry.seq} (${entry.m.type}) not replayed: ${(e as Error).message}`);
      }
    }
    const journal = new WriteAheadLog(dir, await fsp.open(journalPath, "a"), seq);
    await journal.compact(world);
    return journal;
  }

  /** Writes the whole state as a snapshot and empties the journal. */
  async compact(world: World): Promise<void> {
    const snapshot: Snapshot = {
      version: 1,
      seq: this.seq,
      accounts: [...world.accounts.values()].map(saveAccount),
    };
    await writeDurably(join(this.dir, "snapshot.json"), JSON.stringify(snapshot));
    await syncPath(this.dir);
    await this.fh.truncate(0);
    await this.fh.sync();
  }

  /** Resolves once the mutation is on disk. */
  append(m: Mutation): Promise<void> {
    const line = `${JSON.stringify({ seq: ++this.seq, m })}\n`;
    return new Promise((done, fail) => {
      this.queue.push({ line, done, fail });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.fh.appendFile(batch.map((b) => b.line).join(""));
        await this.fh.datasync();
        for (const b of batch) b.done();
      } catch (e) {
        for (const b of batch) b.fail(e);
      }
    }
    this.writing = false;
  }

  async close(): Promise<void> {
    while (this.writing) await new Promise((r) => setTimeout(r, 5));
    await this.fh.close();
  }
}

/** The token signing key: kept in DIR so tokens issued before a restart stay valid. */
export async function signingKey(dir: string | undefined): Promise<Buffer> {
  if (!dir) return randomBytes(32);
  const path = join(dir, "signing.key");
  const existing = await fsp.readFile(path).catch(() => undefined);
  if (existing && existing.length === 32) return existing;
  const key = randomBytes(32);
  await fsp.mkdir(dir, { recursive: true });
  await writeDurably(path, key);
  await syncPath(dir);
  return key;
}
