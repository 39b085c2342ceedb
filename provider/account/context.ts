// One account's shared state in a provider process: the client (and so the token and the
// rate-limit readings), the account object as last read, the writer of the account object, the
// locks that serialize whole-object writes per object, and what kinds learn during one run
// (`shared`). Every resource of the account in one `pulumi` command shares it.
import { Mutex } from "async-mutex";
import { type AccountRead, type ClientOptions, MediahostClient } from "../client";
import type { Credentials } from "../config";
import { refusal } from "./account-object";
import { Listings } from "./listings";
import { AccountWriter, type WriterOptions } from "./writer";

type Account = AccountRead;

export interface ContextOptions {
  client?: Partial<ClientOptions>;
  writer?: WriterOptions;
}

export class AccountContext {
  readonly client: MediahostClient;
  readonly writer: AccountWriter;
  /** Folder listings of this run, which answer for the existence of many entries at once. */
  readonly listings: Listings;
  private latest?: Promise<Account>;
  private readonly locks = new Map<string, Mutex>();
  private readonly facts = new Map<string, unknown>();

  constructor(
    /** The account name in the stack's config ("default" for the top-level keys). */
    readonly name: string,
    credentials: Credentials,
    options: ContextOptions = {},
  ) {
    this.client = new MediahostClient({ ...credentials, ...options.client });
    this.writer = new AccountWriter(name, this.client, (account) => this.remember(account), options.writer);
    this.listings = new Listings(this.client);
  }

  /**
   * The account object as last read in this process: read once (single flight) if never yet — or,
   * while the account writer is about to read it anyway, that read.
   */
  account(): Promise<Account> {
    if (!this.latest) {
      const reading = this.writer.nextRead() ?? this.client.ops.getAccount();
      this.latest = reading;
      reading.catch(() => {
        if (this.latest === reading) this.latest = undefined;
      });
    }
    return this.latest;
  }

  /** Keeps a newer read (the writer reads before and after every write). */
  remember(account: Account): void {
    this.latest = Promise.resolve(account);
  }

  /** Changes the cached copy after a write the provider knows the outcome of. */
  patch(mutate: (account: Account) => void): void {
    const current = this.latest;
    if (!current) return;
    this.latest = current.then((account) => {
      const copy = structuredClone(account);
      mutate(copy);
      return copy;
    });
  }

  /** The alias these credentials reach; refuses when a resource's recorded account is another. */
  async alias(recorded: string | undefined, resource: string): Promise<string> {
    const { alias } = await this.account();
    if (recorded && recorded !== alias) throw refusal(resource, recorded, alias, this.name);
    return alias;
  }

  /**
   * Runs `task` after every earlier task queued under the same key has finished: whole-object
   * writes of one object (a folder's options) never interleave within the process.
   */
  serial<T>(key: string, task: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(key);
    if (!lock) {
      lock = new Mutex();
      this.locks.set(key, lock);
    }
    return lock.runExclusive(task);
  }

  /**
   * What a kind learns about this account during one run, kept here under `key` (made by `make`
   * on first use): e.g. which folders this run made (provider/resources/tree.ts).
   */
  shared<T>(key: string, make: () => T): T {
    if (!this.facts.has(key)) this.facts.set(key, make());
    return this.facts.get(key) as T;
  }
}
