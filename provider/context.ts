// Per-account state shared by every resource in one provider process: the client (and so the
// token and rate-limit readings), the account object read once and kept current, and the
// writer that serializes and coalesces updates of the shared account object. The account-update
// counter allows 50 writes an hour, so N alias changes in one `pulumi up` must not cost N.
import type { z } from "zod";
import type { schemas } from "./api";
import { type ClientOptions, MediahostClient, MediahostError } from "./client";
import type { Credentials } from "./config";
import { type CreateJournal, journalFor } from "./journal";

type Account = z.infer<typeof schemas.Account>;
export type AccountUpdate = z.input<typeof schemas.AccountUpdate>;
type AliasUpdate = NonNullable<AccountUpdate["aliases"]>[string];

/** One change to the account object, applied to the batch's update body. */
export interface AccountChange {
  /** Sets `minify` and/or `fetching` of the update body. */
  settings?: Pick<AccountUpdate, "minify" | "fetching">;
  /** Adds or replaces an alias entry (`null` removes it from the written map). */
  alias?: { name: string; entry: AliasUpdate | null };
}

interface Pending {
  change: AccountChange;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface ContextOptions {
  /** The quiet spell (no new change) after which the writer sends what it gathered. */
  coalesceMs?: number;
  client?: Partial<ClientOptions>;
}

/** The fields of an alias entry that an update may carry (4.2): everything else is read-only. */
function writableAlias(entry: Record<string, unknown>): AliasUpdate {
  const out: AliasUpdate = {};
  if (typeof entry.prefix === "string") out.prefix = entry.prefix;
  if (typeof entry.cdn === "boolean") out.cdn = entry.cdn;
  if (typeof entry.defaultProfile === "string") out.defaultProfile = entry.defaultProfile;
  return out;
}

const ACCOUNT_UPDATE_COUNTER = "rest:post:account";
/** At or below this many account updates left, the writer gathers changes for longer... */
const SCARCE_REMAINING = 10;
/** ...until none has come for this long... */
const SCARCE_QUIET_MS = 400;
/** ...but never longer than this. */
const SCARCE_MAX_WAIT_MS = 4_000;
/** Otherwise a write waits for a quiet spell of `coalesceMs`, but never longer than this. */
const GATHER_MAX_WAIT_MS = 2_000;

export class AccountContext {
  readonly client: MediahostClient;
  private cached?: Promise<Account>;
  private rereading?: Promise<Account>;
  private queue: Pending[] = [];
  private flushing?: Promise<void>;
  private readonly coalesceMs: number;
  private lastChangeAt = 0;
  /**
   * Whether the service honours an alias left out of the written map (it replaces the map) or
   * keeps it (it merges): unknown until the first removal is read back, once per process.
   */
  private removalRule: "unknown" | "honoured" | "ignored" = "unknown";
  /** The stack this provider process works for (the SDK's hidden owner input), for the create journal. */
  owner?: string;

  constructor(
    readonly name: string,
    credentials: Credentials,
    options: ContextOptions = {},
  ) {
    this.client = new MediahostClient({ ...credentials, ...options.client });
    this.coalesceMs = options.coalesceMs ?? 150;
  }

  /** The account object: read once per process (single flight), then kept current by our writes. */
  account(): Promise<Account> {
    if (!this.cached) {
      this.cached = this.client.ops.getAccount();
      this.cached.catch(() => {
        this.cached = undefined;
      });
    }
    return this.cached;
  }

  /** Reads the account again, e.g. to verify a write the service may have ignored; callers at the same time share one read. */
  reread(): Promise<Account> {
    if (!this.rereading) {
      this.cached = undefined;
      this.rereading = this.account().finally(() => {
        this.rereading = undefined;
      });
    }
    return this.rereading;
  }

  /** Changes the cached copy after a write the provider knows the outcome of. */
  patch(mutate: (account: Account) => void): void {
    const current = this.cached;
    if (!current) return;
    this.cached = current.then((account) => {
      const copy = structuredClone(account);
      mutate(copy);
      return copy;
    });
  }

  /** Refuses to act when these credentials now reach another account than the one in state. */
  async assertAccount(recordedAlias: string | undefined, resource: string): Promise<string> {
    const { alias } = await this.account();
    if (recordedAlias && recordedAlias !== alias) {
      throw new Error(
        `${resource}: refusing to act: it belongs to account "${recordedAlias}" but the credentials ` +
          `for account name "${this.name}" now reach account "${alias}". Restore the credentials of ` +
          `"${recordedAlias}", or remove the resource from the state with \`pulumi state delete\`.`,
      );
    }
    return alias;
  }

  /** This stack's journal of creates in flight in account `accountAlias` (journal.ts); none without an owner. */
  journal(accountAlias: string): CreateJournal | undefined {
    return journalFor(this.owner, this.client.baseUrl, accountAlias);
  }

  /**
   * Whether the account-update counter (50 an hour) is nearly used up, by the last reading the
   * service sent. The engine starts the steps of one run over a second or more (more on a busy
   * machine), so the short window would split them into several writes the counter cannot pay.
   */
  private updatesScarce(): boolean {
    const counter = this.client.counters.get(ACCOUNT_UPDATE_COUNTER);
    return !!counter && counter.remaining <= SCARCE_REMAINING && Date.now() < counter.reset * 1000;
  }

  /**
   * Waits until no change has come for a quiet spell (bounded), so that one write carries every
   * change the engine has in flight. The engine starts the operations of one run over a second or
   * more; each one holding a change waits here while the others keep arriving. Quieter and
   * longer when the account-update counter is nearly used up.
   */
  private async gather(): Promise<void> {
    const scarce = this.updatesScarce();
    const quietMs = scarce ? SCARCE_QUIET_MS : this.coalesceMs;
    const maxMs = scarce ? SCARCE_MAX_WAIT_MS : GATHER_MAX_WAIT_MS;
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      const quietFor = now - this.lastChangeAt;
      const left = maxMs - (now - started);
      if (quietFor >= quietMs || left <= 0) return;
      await new Promise((r) => setTimeout(r, Math.min(quietMs - quietFor, left)));
    }
  }

  /** Queues a change of the account object; resolves once a write that includes it succeeded. */
  change(change: AccountChange): Promise<void> {
    this.lastChangeAt = Date.now();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ change, resolve, reject });
      if (!this.flushing) this.flushing = this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // let the changes of concurrently running resource operations gather into one write
        await this.gather();
        const batch = this.queue;
        this.queue = [];
        await this.writeBatch(batch);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    try {
      await this.write(batch.map((p) => p.change));
      for (const p of batch) p.resolve();
    } catch (err) {
      // one bad change must not fail the others: write them one by one to find it
      if (batch.length > 1 && err instanceof MediahostError && err.kind === "http" && err.status === 400) {
        for (const p of batch) await this.writeBatch([p]);
        return;
      }
      for (const p of batch) p.reject(err);
    }
  }

  /**
   * One account update carrying every change. Alias changes write the whole map,
   * read-modify-write: whether the service merges or replaces the map is unknown
   * (observed.md), and the whole map is right under either rule without dropping aliases
   * the program does not manage.
   */
  /**
   * After a write that left `removed` out of the alias map: the first time, read the account back
   * to learn the service's rule (and refresh the cache); afterwards the rule is known.
   */
  private async learnRemovals(removed: string[]): Promise<void> {
    if (this.removalRule !== "unknown") return;
    const after = await this.reread();
    this.removalRule = removed.some((name) => after.aliases?.[name]) ? "ignored" : "honoured";
  }

  private async write(changes: AccountChange[]): Promise<void> {
    const body: AccountUpdate = {};
    let aliases: Record<string, AliasUpdate> | undefined;
    const removed: string[] = [];
    let upserted = false;
    const current = changes.some((c) => c.alias) ? await this.account() : undefined;
    for (const change of changes) {
      if (change.settings?.minify) body.minify = change.settings.minify;
      if (change.settings?.fetching) body.fetching = change.settings.fetching;
      if (change.alias) {
        aliases ??= Object.fromEntries(
          Object.entries(current?.aliases ?? {}).map(([name, entry]) => [name, writableAlias(entry)]),
        );
        if (change.alias.entry === null) {
          delete aliases[change.alias.name];
          removed.push(change.alias.name);
        } else {
          aliases[change.alias.name] = change.alias.entry;
          upserted = true;
        }
      }
    }
    // once the service is known to ignore removals, a write that only removes aliases is moot
    const aliasesMoot = !upserted && this.removalRule === "ignored";
    if (aliases && !aliasesMoot) body.aliases = aliases;
    if (Object.keys(body).length > 0) {
      await this.client.ops.updateAccount({ body });
    }
    if (removed.length > 0) await this.learnRemovals(removed);
    this.patch((account) => {
      if (body.minify) account.minify = { ...account.minify, ...body.minify };
      if (body.fetching) account.fetching = readableFetching(body.fetching, account.fetching);
      if (body.aliases) {
        const next: Record<string, Record<string, unknown>> = {};
        for (const [name, entry] of Object.entries(body.aliases)) {
          // keep what only the service sets (customDomain) on entries we wrote back
          next[name] = { ...(account.aliases?.[name] ?? {}), ...entry };
        }
        // removals the service is known to ignore stay, as a read would show them
        if (this.removalRule === "ignored") {
          for (const name of removed) if (account.aliases?.[name]) next[name] = account.aliases[name];
        }
        account.aliases = next as Account["aliases"];
      }
    });
  }
}

/** What a GET shows after writing `fetching`: secrets are write-only (observed.md). */
function readableFetching(
  written: NonNullable<AccountUpdate["fetching"]>,
  before: Account["fetching"],
): Account["fetching"] {
  const http = written.http
    ? {
        url: written.http.url,
        auth: {
          enabled: written.http.auth?.enabled ?? false,
          username: written.http.auth?.enabled ? (written.http.auth.username ?? "") : "",
          password: "",
        },
      }
    : undefined;
  const s3 = written.s3 ? { ...written.s3, secretAccessKey: undefined } : undefined;
  return { ...before, enabled: written.enabled, type: written.type, http, s3 };
}

/** Contexts by account name, created once per provider process from the stack's credentials. */
export class ContextRegistry {
  private readonly contexts = new Map<string, AccountContext>();

  constructor(
    private readonly credentials: (name: string | undefined) => Credentials,
    private readonly options: ContextOptions = {},
  ) {}

  get(accountName: string | undefined): AccountContext {
    const key = accountName ?? "default";
    let ctx = this.contexts.get(key);
    if (!ctx) {
      ctx = new AccountContext(key, this.credentials(accountName), this.options);
      this.contexts.set(key, ctx);
    }
    return ctx;
  }

  all(): AccountContext[] {
    return [...this.contexts.values()];
  }
}
