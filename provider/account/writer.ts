// The account writer: every change of the shared account object (settings, alias entries) goes
// through it, one write at a time per account in this process. The provider is never the
// account's only writer (other stacks, CI jobs, people in the console), so whatever is written
// whole is built on a read made just before the write, and checked on the read made after it:
//
//   gather → read → write → settle → read: check → gather → (read) → write → settle → read: check ...
//
// The account-update counter allows 50 writes an hour, so the writer gathers the changes that
// arrive together and writes them at once: one write per wave of the engine's account steps
// (when a gather ends: provider/account/pacing.ts). The check's read is the base of the next
// write when gathering took less than a round trip. A change the check finds lost (another writer
// wrote over it from an older read) is written again on a fresh read after a jittered pause, at
// most MAX_ROUNDS times; the read that checks waits a round trip after the write ("settle",
// provider/account/read-back.ts). What can still be lost without a version check in the API is in
// docs/reliability.md.
import type { MediahostClient } from "../client";
import { MediahostError } from "../client";
import {
  type Account,
  type AccountChange,
  type ChangeResult,
  isRemoval,
  notShown,
  overwritten,
  type RemovalRule,
  readBack,
  refusal,
  unshown,
  updateBody,
} from "./account-object";
import { freshMs, Pacer, type PacingOptions } from "./pacing";
import { readBackPause, rewritePause } from "./read-back";

interface Pending {
  change: AccountChange;
  resolve: (result: ChangeResult) => void;
  reject: (err: unknown) => void;
  rounds: number;
  prepared: boolean;
}

export interface WriterOptions extends PacingOptions {
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Times a change is written before the writer gives up on a competing writer. */
const MAX_ROUNDS = 5;

/** A change of settings alone, with nothing to decide on a read: its write does not depend on one. */
function settingsAlone(p: Pending): boolean {
  return !p.change.alias && (p.prepared || !p.change.prepare);
}

export class AccountWriter {
  private queue: Pending[] = [];
  /** Those waiting for the next read of a burst under way (the account check of other resources). */
  private readWaiters: { resolve: (a: Account) => void; reject: (err: unknown) => void }[] = [];
  /** Written and not yet checked on a read. */
  private unchecked: Pending[] = [];
  private running?: Promise<void>;
  /** Whether the burst is gathering changes (no read is due before it ends). */
  private gathering = false;
  /** Learned on the first removal read back, once per process. */
  private removalRule: RemovalRule = "unknown";
  /** The account as the writer last read it. */
  private lastRead?: Account;
  /** When the last write returned, and how long it took (the pause before reading it back). */
  private lastWrite = { at: 0, tookMs: 0 };
  private readonly options: Required<WriterOptions>;
  private readonly pacer: Pacer;

  constructor(
    /** The account name in the stack's config, for messages. */
    private readonly accountName: string,
    private readonly client: MediahostClient,
    /** Called with every account read, so the account's cached copy stays current. */
    private readonly onRead: (account: Account) => void,
    options: WriterOptions = {},
  ) {
    this.options = {
      coalesceMs: options.coalesceMs ?? 150,
      operationsUnderWay: options.operationsUnderWay ?? (() => 0),
      waitingOnWriters: options.waitingOnWriters ?? (() => this.waiting),
      lastOperationEnd: options.lastOperationEnd ?? (() => 0),
      onlyDeletes: options.onlyDeletes ?? (() => false),
      random: options.random ?? Math.random,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    };
    this.pacer = new Pacer(client, this.options);
  }

  /** Operations waiting for this writer: changes queued or written and not yet checked, and readers. */
  get waiting(): number {
    return this.queue.length + this.unchecked.length + this.readWaiters.length;
  }

  /**
   * While a burst of writes is under way and about to read (reading, writing or settling before
   * the check), the account as its next read shows it: resources that only need to know the
   * account (their account check) wait for that read instead of making one. Not while it gathers:
   * that may last until the engine's other steps end (up to 2 s), and those steps may be the very
   * ones asking, so waiting would hold every slot of the engine.
   */
  nextRead(): Promise<Account> | undefined {
    if (!this.running || this.gathering) return undefined;
    return new Promise((resolve, reject) => this.readWaiters.push({ resolve, reject }));
  }

  /** Queues a change; resolves once a read after the write shows it took effect. */
  submit(change: AccountChange): Promise<ChangeResult> {
    // removing an alias from a map the service is known to merge is a no-op: no write, no read
    if (isRemoval(change) && this.removalRule === "ignored" && this.lastRead) {
      return Promise.resolve({ account: this.lastRead, aliasKept: true });
    }
    this.pacer.arrived(Date.now());
    return new Promise((resolve, reject) => {
      this.queue.push({ change, resolve, reject, rounds: 0, prepared: false });
      this.running ??= this.run().finally(() => {
        this.running = undefined;
        // asked for between the burst's last read and its end: they get a read of their own
        if (this.readWaiters.length > 0) this.read().catch(() => {});
      });
    });
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0 || this.unchecked.length > 0) {
      let lost: Pending[] = [];
      let base: { account: Account; at: number } | undefined;
      if (this.unchecked.length > 0) {
        // the read that checks the last write: its changes are done (their resources return, and
        // the engine sends its next steps in their place) or lost to another writer
        await this.settle();
        try {
          base = { account: await this.read(), at: Date.now() };
        } catch (err) {
          this.failAll(err);
          continue;
        }
        lost = this.check(base.account);
        // removals that came while the write that taught the rule was under way: nothing to send
        if (this.removalRule === "ignored") await this.write(base.account, this.takeRemovals());
        if (lost.length > 0) {
          // another writer is at work: step aside a little, then write again on a fresh read
          await this.options.sleep(rewritePause(this.options.random));
          base = undefined;
        }
      }
      // the read after the gather needs the run's token: minted meanwhile, not after it
      void this.client.ready();
      this.gathering = true;
      try {
        await this.pacer.gather(() => ({
          queued: this.queue.length,
          wroteBefore: this.lastWrite.at !== 0,
          removalRule: this.removalRule,
          learnsRemovalRule: this.removalRule === "unknown" && this.queue.some((p) => isRemoval(p.change)),
        }));
      } finally {
        this.gathering = false;
      }
      const batch = [...lost, ...this.queue];
      this.queue = [];
      if (batch.length === 0) continue;
      // the write is built on a read made just before it: the check's read, unless gathering
      // took longer than a round trip since. Settings alone are written as given: a read only
      // tells which account the credentials reach, which the last read already did
      let account =
        base && Date.now() - base.at <= freshMs(this.client.roundTripMs)
          ? base.account
          : batch.every(settingsAlone)
            ? this.lastRead
            : undefined;
      if (!account) {
        try {
          account = await this.read();
        } catch (err) {
          for (const p of batch) p.reject(err);
          this.failAll(err);
          continue;
        }
      }
      await this.write(account, batch);
    }
  }

  /** Takes the queued removals of alias entries out of the queue. */
  private takeRemovals(): Pending[] {
    const removals = this.queue.filter((p) => isRemoval(p.change));
    this.queue = this.queue.filter((p) => !isRemoval(p.change));
    return removals;
  }

  /** Reads the account for the writer, and for everyone waiting for that read. */
  private async read(): Promise<Account> {
    try {
      const account = await this.client.ops.getAccount();
      this.lastRead = account;
      this.onRead(account);
      for (const w of this.readWaiters.splice(0)) w.resolve(account);
      return account;
    } catch (err) {
      for (const w of this.readWaiters.splice(0)) w.reject(err);
      throw err;
    }
  }

  /** Every change in flight fails with `err` (e.g. the account cannot be read). */
  private failAll(err: unknown): void {
    for (const p of [...this.unchecked, ...this.queue]) p.reject(err);
    this.unchecked = [];
    this.queue = [];
  }

  /**
   * Waits until a write's round trip has passed since the last write returned, so that a write
   * another writer based on a read older than ours has landed before we read ours back.
   */
  private async settle(): Promise<void> {
    const left = this.lastWrite.at + readBackPause(this.lastWrite.tookMs) - Date.now();
    if (left > 0) await this.options.sleep(left);
  }

  /** Resolves the written changes that `account` shows; returns the ones another writer undid. */
  private check(account: Account): Pending[] {
    const lost: Pending[] = [];
    for (const p of this.unchecked) {
      const seen = readBack(account, p.change, this.removalRule);
      this.removalRule = seen.rule;
      if (!seen.done) lost.push(p);
      else p.resolve(seen.aliasKept === undefined ? { account } : { account, aliasKept: seen.aliasKept });
    }
    this.unchecked = [];
    this.pacer.resolved(Date.now());
    for (const p of lost.filter((p) => p.rounds >= MAX_ROUNDS)) {
      const missing = unshown(account, p.change);
      p.reject(
        missing.length > 0
          ? notShown(p.change.resource, account.alias, p.rounds, missing)
          : overwritten(p.change.resource, account.alias, p.rounds),
      );
    }
    return lost.filter((p) => p.rounds < MAX_ROUNDS);
  }

  /** One account update carrying every change of the batch, built on `account` (just read). */
  private async write(account: Account, batch: Pending[]): Promise<void> {
    const ready: Pending[] = [];
    for (const p of batch) {
      if (p.change.expectedAlias && p.change.expectedAlias !== account.alias) {
        p.reject(refusal(p.change.resource, p.change.expectedAlias, account.alias, this.accountName));
        continue;
      }
      if (!p.prepared) {
        p.prepared = true;
        try {
          if (p.change.prepare?.(account) === "skip") {
            p.resolve({ account });
            continue;
          }
        } catch (err) {
          p.reject(err);
          continue;
        }
      }
      ready.push(p);
    }
    const body = updateBody(
      account,
      ready.map((p) => p.change),
      this.removalRule === "ignored",
    );
    if (!body) {
      // only removals of aliases the service is known to keep: nothing to send, nothing to check
      for (const p of ready)
        p.resolve({ account, aliasKept: !!account.aliases?.[p.change.alias?.name ?? ""] });
      return;
    }
    const started = Date.now();
    try {
      await this.client.ops.updateAccount({ body });
      this.lastWrite = { at: Date.now(), tookMs: Date.now() - started };
    } catch (err) {
      // one bad change must not fail the others: write them one by one to find it
      if (ready.length > 1 && err instanceof MediahostError && err.kind === "http" && err.status === 400) {
        for (const p of ready) await this.write(account, [p]);
        return;
      }
      for (const p of ready) p.reject(err);
      return;
    }
    for (const p of ready) p.rounds++;
    this.unchecked.push(...ready);
  }
}
