// A top-level account: credentials, settings, sub-accounts, file tree and events (all
// persisted), plus what lives only while the process runs (counters, jobs, statistics).
import { createHash } from "node:crypto";
import type { schemas } from "mediahost-contract";
import { conflict, FsError, notFound } from "./errors";
import { Limiter } from "./limits";
import { TrafficStats } from "./stats";
import { type BlobRefs, type DirNode, newDir, Tree } from "./tree";

export type AliasesUpdate = "merge" | "replace";

export interface Credentials {
  alias: string;
  clientId: string;
  clientSecret: string;
}

export interface AliasEntry {
  prefix?: string;
  cdn?: boolean;
  defaultProfile?: string;
  customDomain?: string;
}

/** `fetching` as last written, secrets included (GET masks them). */
export type Fetching = NonNullable<schemas.AccountUpdate["fetching"]>;

/** Who made a request, as events and fetch attempts report it (docs/api.md#users-and-events). */
export interface Initiator {
  type: "api";
  remoteAddr: string;
  date: string;
}

/** An account event in the documented shape; `fetching` on fetch events. */
export interface EventRecord {
  _id: string;
  _accountId: string;
  _submitted: string;
  _seen: boolean;
  module: string;
  type: string;
  level: "error" | "warn" | "info";
  filename?: string;
  initiator: Initiator;
  notify: boolean;
  fetching?: {
    url: string;
    statusCode: number | null;
    maxFilesize: number;
    /** A string, as documented. */
    contentLength: string;
    error: string;
  };
}

/** Newest events kept per account. */
const MAX_EVENTS = 1000;
const GIB = 1024 ** 3;
export const FILE_SIZE_LIMIT = 2 * GIB;
export const FETCH_MAX_FILESIZE = 2 * GIB;
const PLAN_STORAGE = 100 * GIB;
const PLAN_BURSTABLE = 200 * GIB;

const cdnHost = (alias: string) => `${alias}.cdn.mediahost.test`;

export class Account {
  clientId: string;
  clientSecret: string;
  readonly dateCreated: string;
  minify = { enabled: false };
  fetching: Fetching = { enabled: false };
  aliases = new Map<string, AliasEntry>();
  /** Sub-account alias → creation date. */
  readonly subAccounts = new Map<string, string>();
  events: EventRecord[] = [];
  /** Further API clients of the account (id → secret), besides the one of the command line. */
  readonly clients = new Map<string, string>();
  readonly tree: Tree;

  // not persisted
  readonly limiter = new Limiter();
  readonly stats: TrafficStats;

  constructor(
    readonly alias: string,
    creds: { clientId: string; clientSecret: string },
    dateCreated: string,
    refs: BlobRefs,
    root?: DirNode,
  ) {
    this.clientId = creds.clientId;
    this.clientSecret = creds.clientSecret;
    this.dateCreated = dateCreated;
    this.aliases.set(alias, { prefix: "/", cdn: true });
    this.tree = new Tree(refs, root ?? newDir(Date.parse(dateCreated)));
    this.stats = new TrafficStats(() => ({ used: this.tree.bytes, files: this.tree.files }));
  }

  /** The secret of one of the account's API clients, if `clientId` is one. */
  secretOf(clientId: string): string | undefined {
    return clientId === this.clientId ? this.clientSecret : this.clients.get(clientId);
  }

  /** GET /v2/account: write-only secrets masked (docs/api.md). */
  view(): Record<string, unknown> {
    return {
      dateCreated: this.dateCreated,
      alias: this.alias,
      isPartner: false,
      fileSizeLimit: FILE_SIZE_LIMIT,
      customRedirectUrl: "",
      cdnURL: cdnHost(this.alias),
      cdnTempURL: `${this.alias}.tmp.mediahost.test`,
      fetching: { ...fetchingView(this.fetching), maxFilesize: FETCH_MAX_FILESIZE },
      minify: { ...this.minify },
      aliases: Object.fromEntries([...this.aliases].map(([name, entry]) => [name, { ...entry }])),
      status: { status: "active", details: {} },
    };
  }

  /** The account as stored, secrets included (control surface only). */
  secretView(): Record<string, unknown> {
    return {
      ...this.view(),
      fetching: { ...structuredClone(this.fetching), maxFilesize: FETCH_MAX_FILESIZE },
    };
  }

  /** POST /v2/account: minify and fetching replaced as given; aliases merged or replaced. */
  update(update: schemas.AccountUpdate, mode: AliasesUpdate): void {
    if (update.minify) this.minify = { ...update.minify };
    if (update.fetching) this.fetching = structuredClone(update.fetching);
    if (update.aliases) {
      const next = mode === "replace" ? new Map<string, AliasEntry>() : this.aliases;
      const given = Object.entries(update.aliases);
      const customDomains = new Map([...this.aliases].map(([name, e]) => [name, e.customDomain]));
      for (const [name, entry] of given) {
        // customDomain is set by its own operations, never by this body: it stays
        const domain = customDomains.get(name);
        next.set(name, domain === undefined ? { ...entry } : { ...entry, customDomain: domain });
      }
      this.aliases = next;
    }
  }

  addCustomDomain(alias: string, domain: string): void {
    const entry = this.aliases.get(alias);
    if (!entry) throw notFound(`Alias not found: ${alias}`);
    if (entry.customDomain === domain) throw conflict(`Custom domain already set: ${domain}`);
    entry.customDomain = domain;
  }

  removeCustomDomain(alias: string, domain: string): void {
    const entry = this.aliases.get(alias);
    if (!entry) throw notFound(`Alias not found: ${alias}`);
    if (entry.customDomain !== domain) throw notFound(`Custom domain not found: ${domain}`);
    delete entry.customDomain;
  }

  createSubAccount(alias: string, time: number, taken: (alias: string) => boolean): void {
    if (this.subAccounts.has(alias)) throw conflict(`Sub-account already exists: ${alias}`);
    // another account's name: not this account's sub-account, so a repeat must not count it as done
    if (taken(alias)) throw conflict(`Alias already in use by another account: ${alias}`);
    this.subAccounts.set(alias, new Date(time).toISOString());
  }

  deleteSubAccount(alias: string): void {
    if (!this.subAccounts.delete(alias)) throw notFound(`Sub-account not found: ${alias}`);
  }

  /** Marks the events of these ids seen; unknown ids are ignored. */
  markSeen(ids: readonly string[]): void {
    const seen = new Set(ids);
    for (const event of this.events) if (seen.has(event._id)) event._seen = true;
  }

  recordEvent(event: EventRecord): void {
    // a journal of an earlier version kept `fetching.contentLength` as a number or null
    const f = event.fetching as { contentLength: unknown } | undefined;
    if (f && typeof f.contentLength !== "string") f.contentLength = String(f.contentLength ?? 0);
    this.events.push(event);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
  }

  /** Fails with "Quota exceeded" when `extra` more bytes would not fit the plan. */
  checkQuota(extra: number, path: string): void {
    if (this.tree.bytes + extra > PLAN_STORAGE + PLAN_BURSTABLE) throw new FsError("quota", path);
  }

  storage(): Record<string, unknown> {
    return {
      plan: PLAN_STORAGE,
      burstable: PLAN_BURSTABLE,
      extra: 0,
      used: this.tree.bytes,
      files: this.tree.files,
      quotaExceededDate: this.tree.bytes > PLAN_STORAGE ? this.dateCreated : null,
    };
  }

  users(): { userId: string; role: string }[] {
    return [
      { userId: this.userId("owner"), role: "primaryOwner" },
      { userId: this.userId("editor"), role: "contributor" },
    ];
  }

  user(userId: string): Record<string, unknown> {
    const who = ["owner", "editor"].find((w) => this.userId(w) === userId);
    if (!who) throw notFound(`User not found: ${userId}`);
    return {
      email: `${who}@${this.alias}.example`,
      firstName: who === "owner" ? "Olivia" : "Eddie",
      lastName: this.alias,
      dateCreated: this.dateCreated,
      s3Secret: this.derived(`s3:${who}`),
    };
  }

  /** The plan as the live service answers it, without `description`; `documented`: with it. */
  billingPlan(documented = false): Record<string, unknown> {
    return {
      dateActive: this.dateCreated,
      id: "business-100",
      period: "month",
      name: "Business",
      ...(documented ? { description: "100 GB storage, 200 GB burstable, emulated plan" } : {}),
      price: { month: 99, quarter: 279, year: 990 },
      storage: PLAN_STORAGE,
      burstableStorage: PLAN_BURSTABLE,
    };
  }

  private userId(who: string): string {
    return this.derived(`user:${who}`).slice(0, 24);
  }

  /** Stable per-account values (user ids, secrets) so that reads agree across restarts. */
  private derived(what: string): string {
    return createHash("sha256").update(`${this.alias}\0${this.dateCreated}\0${what}`).digest("hex");
  }
}

function fetchingView(f: Fetching): Record<string, unknown> {
  const out: Record<string, unknown> = { enabled: f.enabled };
  if (f.type !== undefined) out.type = f.type;
  if (f.http) {
    const auth = f.http.auth;
    out.http = {
      url: f.http.url,
      auth: {
        enabled: auth?.enabled ?? false,
        username: auth?.enabled ? (auth.username ?? "") : "",
        password: "",
      },
    };
  }
  if (f.s3) {
    const { secretAccessKey: _secret, ...rest } = f.s3;
    out.s3 = rest;
  }
  return out;
}
