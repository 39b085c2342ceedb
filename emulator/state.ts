// Every change of persisted state is a Mutation applied by one reducer, both when a request is
// served and when the journal is replayed at start, so the two cannot disagree. A mutation
// carries its own timestamps and generated ids; applying it either throws before changing
// anything or succeeds.
import { parentOf, type schemas } from "mediahost-contract";
import { Account, type AliasesUpdate, type Credentials, type EventRecord } from "./accounts";
import type { BlobStore } from "./blobs";
import { badRequest, notFound } from "./errors";
import { seedSystemFolders } from "./system";
import type { DirNode, FileContent, FolderOptions, Meta, PointOfInterest, TreeNode } from "./tree";

export type MetaUpdate = Omit<Meta, "approval"> & { approval?: { approved: boolean; comment?: string } };

type On<T> = T & { account: string };
/**
 * `system`: a new account holds the system folders (emulator/system.ts); absent in a journal of an
 * earlier version, whose accounts began empty and replay so.
 */
export type Mutation =
  | { type: "addAccount"; creds: Credentials; time: number; system?: boolean }
  | { type: "addClient"; creds: Credentials }
  | { type: "rotateClient"; clientId: string; clientSecret: string }
  | { type: "reset"; accounts: Credentials[]; time: number; system?: boolean }
  | On<{ type: "updateAccount"; update: schemas.AccountUpdate; aliases: AliasesUpdate }>
  | On<{ type: "addCustomDomain" | "removeCustomDomain"; alias: string; domain: string }>
  | On<{ type: "createSubAccount"; alias: string; time: number }>
  | On<{ type: "deleteSubAccount"; alias: string }>
  | On<{ type: "event"; event: EventRecord }>
  | On<{ type: "eventsSeen"; ids: string[] }>
  | On<{ type: "mkdir"; path: string; time: number }>
  | On<{ type: "writeFile"; path: string; content: FileContent; time: number }>
  /** `trash`: files move to /.Trash (made at `time`); absent, as in an earlier version's journal: final. */
  | On<{ type: "delete"; path: string; recursive: boolean; trash?: boolean; time?: number }>
  | On<{ type: "copy"; from: string; to: string; time: number }>
  | On<{ type: "rename"; from: string; to: string }>
  | On<{ type: "setMeta"; path: string; meta: MetaUpdate; time: number }>
  | On<{ type: "addTags" | "removeTags"; path: string; tags: string[]; time: number }>
  | On<{ type: "setOptions"; path: string; options: FolderOptions }>
  | On<{ type: "setPoi"; path: string; name: string; point: PointOfInterest }>
  | On<{ type: "deletePoi"; path: string; name: string }>
  | On<{ type: "protect"; path: string; key: string }>;

const MAX_TAGS = 50;

export class World {
  readonly accounts = new Map<string, Account>();

  constructor(readonly blobs: BlobStore) {}

  account(alias: string): Account | undefined {
    return this.accounts.get(alias);
  }

  byClientId(clientId: string): Account | undefined {
    for (const a of this.accounts.values()) if (a.secretOf(clientId) !== undefined) return a;
    return undefined;
  }

  /** True when `alias` names a top-level account or any sub-account. */
  aliasTaken(alias: string): boolean {
    if (this.accounts.has(alias)) return true;
    for (const a of this.accounts.values()) if (a.subAccounts.has(alias)) return true;
    return false;
  }

  apply(m: Mutation): void {
    switch (m.type) {
      case "addAccount": {
        const existing = this.accounts.get(m.creds.alias);
        if (existing) {
          existing.clientId = m.creds.clientId;
          existing.clientSecret = m.creds.clientSecret;
        } else {
          const account = new Account(m.creds.alias, m.creds, new Date(m.time).toISOString(), this.blobs);
          if (m.system) seedSystemFolders(account.tree, m.time);
          this.accounts.set(m.creds.alias, account);
        }
        return;
      }
      case "addClient":
        this.accounts.get(m.creds.alias)?.clients.set(m.creds.clientId, m.creds.clientSecret);
        return;
      case "rotateClient": {
        const account = this.byClientId(m.clientId);
        if (account?.clientId === m.clientId) account.clientSecret = m.clientSecret;
        else account?.clients.set(m.clientId, m.clientSecret);
        return;
      }
      case "reset":
        this.accounts.clear();
        this.blobs.clearRefs();
        for (const creds of m.accounts)
          this.apply({ type: "addAccount", creds, time: m.time, ...(m.system ? { system: true } : {}) });
        return;
    }
    const account = this.accounts.get(m.account);
    // a journal entry for an account that no longer exists: nothing to do
    if (!account) return;
    const tree = account.tree;
    switch (m.type) {
      case "updateAccount":
        account.update(m.update, m.aliases);
        return;
      case "addCustomDomain":
        account.addCustomDomain(m.alias, m.domain);
        return;
      case "removeCustomDomain":
        account.removeCustomDomain(m.alias, m.domain);
        return;
      case "createSubAccount":
        account.createSubAccount(m.alias, m.time, (a) => this.aliasTaken(a));
        return;
      case "deleteSubAccount":
        account.deleteSubAccount(m.alias);
        return;
      case "event":
        account.recordEvent(m.event);
        return;
      case "eventsSeen":
        account.markSeen(m.ids);
        return;
      case "mkdir":
        tree.mkdir(m.path, m.time);
        return;
      case "writeFile": {
        const existing = tree.get(m.path);
        account.checkQuota(m.content.size - (existing?.kind === "file" ? existing.size : 0), m.path);
        tree.writeFile(m.path, m.content, m.time);
        return;
      }
      case "delete":
        if (m.trash) tree.trash(m.path, m.recursive, m.time ?? 0);
        else if (m.recursive) tree.removeRecursive(m.path);
        else tree.remove(m.path);
        return;
      case "copy":
        account.checkQuota(bytesUnder(tree.require(m.from)), m.to);
        tree.copy(m.from, m.to, m.time);
        return;
      case "rename":
        tree.rename(m.from, m.to);
        return;
      case "setMeta":
        setMeta(tree.require(m.path), m.meta, m.time);
        return;
      case "addTags":
      case "removeTags":
        changeTags(tree.require(m.path), m.type, m.tags, m.path);
        return;
      case "setOptions":
        tree.requireDir(m.path).options = { ...m.options };
        return;
      case "setPoi":
        tree.requireFile(m.path).poi[m.name] = { ...m.point };
        return;
      case "deletePoi": {
        const file = tree.requireFile(m.path);
        if (!Object.hasOwn(file.poi, m.name)) throw notFound(`Point of interest not found: ${m.name}`);
        delete file.poi[m.name];
        return;
      }
      case "protect":
        protectedFolder(tree.require(m.path), m.path, (p) => tree.requireDir(p)).jwtKey = m.key;
        return;
    }
  }
}

function bytesUnder(node: TreeNode): number {
  if (node.kind === "file") return node.size;
  let n = 0;
  for (const child of node.children.values()) n += bytesUnder(child);
  return n;
}

function setMeta(node: TreeNode, update: MetaUpdate, time: number): void {
  const { approval, ...rest } = update;
  Object.assign(node.meta, structuredClone(rest));
  if (update.tags) node.meta.tags = [...new Set(update.tags)];
  if (approval) node.meta.approval = { ...approval, datetime: new Date(time).toISOString() };
}

function changeTags(node: TreeNode, how: "addTags" | "removeTags", tags: string[], path: string): void {
  const current = node.meta.tags ?? [];
  const next =
    how === "addTags" ? [...new Set([...current, ...tags])] : current.filter((t) => !tags.includes(t));
  if (next.length > MAX_TAGS) throw badRequest(`tags: ${path} would have more than ${MAX_TAGS} tags`);
  if (next.length > 0) node.meta.tags = next;
  else delete node.meta.tags;
}

/** A JWT request names a folder, or a file whose folder is then the protected one. */
function protectedFolder(node: TreeNode, path: string, dirOf: (path: string) => DirNode): DirNode {
  if (node.kind === "dir") return node;
  return dirOf(parentOf(path));
}

/** Applies mutations and, with --data, makes each durable before the caller answers. */
export class Store {
  constructor(
    readonly world: World,
    private readonly journal?: { append(m: Mutation): Promise<void> },
  ) {}

  async commit(m: Mutation): Promise<void> {
    this.world.apply(m);
    if (this.journal) await this.journal.append(m);
    await this.world.blobs.sweep();
    if ("account" in m) this.world.account(m.account)?.stats.sampleStorage(Date.now());
  }
}
