// The account writer: every change of the shared account object (settings, alias entries) goes
// through it, one write at a time per account in this process. The account-update counter allows
// 50 writes an hour, so changes that arrive together are gathered into one write; and the
// provider is never the account's only writer (other stacks, CI jobs, people in the console), so
// whatever is written whole is built on a read made just before the write, and checked on the read
// made after it:
//
//   gather → read → write → settle → read: check → gather → (read) → write → settle → read: check ...
//
// The read that checks a write resolves its changes; their resources return, and the engine,
// which runs a few steps at a time (`--parallel`), sends its next steps in their place. So the
// writer gathers after the check, and the next write carries them: one write per wave of the
// engine's account steps. The check's read is the base of that write when gathering took less
// than a round trip, else the write reads again (W writes cost W + 1 to 2W account reads). How long
// a gather waits is measured, not fixed: until no change has come for a few times the gap seen
// between changes arriving together; and, since the end of another operation of the process frees
// a slot of the engine whose next step may be an account change, for the first three round trips
// of a gather the quiet spell counts from such an end too and lasts while others are at work, and
// after that, while they are, a few round trips more. A run's first wave gets eight round trips:
// the engine starts its first steps in an order of its own (the SDK sends a program's account
// changes first, sdk/resource.ts, but the engine does not keep that order strictly, and a program
// may declare them later), so the first changes may come among other steps; so does a wave
// whose changes hold at most half the slots seen under way at once (the engine's queue may hold
// its next account steps a few other steps behind, and a wave of few changes holds few slots
// while it waits). Never more than 2 s. When every slot of the engine waits for a writer (as
// many operations under way as the most ever seen, a most that has held for a while), the
// engine can send nothing more, and the writer writes after its own pace. The "held for a
// while" matters: taking a wave still arriving for full slots wrote 150 ms sooner from a read
// made just before a person's change of another alias, and undid it (the concurrent-writers
// test in test/integration/shared-objects.test.ts caught that). Resources
// that only need to know the account read it themselves while the writer gathers, rather than
// hold the engine's slots until its read. A run's first alias removal is written as soon as
// those that came with it stop coming: its check tells whether the service keeps removed
// aliases, and if so no other removal needs a write. Settings alone are written on the last read
// (their body comes from no read). In a run of deletes only (a destroy) nothing worth waiting for
// can follow once removals need no write, so a settings reset goes at the engine's pace.
// A change the check finds lost (another writer wrote over it from an older read) is
// written again on a fresh read after a jittered pause, at most MAX_ROUNDS times. The read that
// checks a write waits a round trip after it ("settle", provider/account/read-back.ts). What can
// still be lost without a version check in the API is in docs/reliability.md.

import type { schemas } from "mediahost-contract";
import type { z } from "zod";
import { type MediahostClient, MediahostError } from "../client";
import { canonical } from "../diff";
import { ProviderError } from "../errors";
import { readBackPause, rewritePause } from "./read-back";

type Account = z.infer<typeof schemas.Account>;
export type AccountUpdate = z.input<typeof schemas.AccountUpdate>;
export type AliasUpdate = NonNullable<AccountUpdate["aliases"]>[string];
type Settings = Pick<AccountUpdate, "minify" | "fetching">;

/** One change of the account object. */
export interface AccountChange {
  /** Sets `minify` and/or `fetching`. */
  settings?: Settings;
  /**
   * Sets the managed fields of an alias entry (the others keep the service's values; with `exact`,
   * the entry becomes exactly `fields`), or removes the entry (`null`).
   */
  alias?: { name: string; fields: AliasUpdate | null; exact?: boolean };
  /** The account the change must land in; a read that shows another refuses it. */
  expectedAlias?: string;
  /** What the resource asking for the change is called in messages, e.g. `Alias web`. */
  resource: string;
  /**
   * Runs once, on the read just before the change is first written: may throw to refuse this
   * change alone (e.g. the alias exists and may not be taken over), or return "skip" when there is
   * nothing to write.
   */
  prepare?(account: Account): undefined | "skip";
}

/** What the writer learned about the change: the account as read after it took effect. */
export interface ChangeResult {
  account: Account;
  /** For an alias removal: whether the service kept the alias (it merges the map on update). */
  aliasKept?: boolean;
}

interface Pending {
  change: AccountChange;
  resolve: (result: ChangeResult) => void;
  reject: (err: unknown) => void;
  rounds: number;
  prepared: boolean;
}

export interface WriterOptions {
  /** The longest quiet spell (no new change) the writer waits for before it reads and writes. */
  coalesceMs?: number;
  /**
   * How many operations of this provider process are under way (the session's count): those not
   * waiting for an account writer may still free the engine's slots for more account changes.
   */
  operationsUnderWay?: () => number;
  /** How many of them wait for an account writer, this one or another account's (default: this one's). */
  waitingOnWriters?: () => number;
  /** When the last operation of the process ended (ms since the epoch): the engine fills its slot next. */
  lastOperationEnd?: () => number;
  /** Whether the run has made nothing but deletes so far (a destroy): creates and updates follow none. */
  onlyDeletes?: () => boolean;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const ACCOUNT_UPDATE_COUNTER = "rest:post:account";
/** At or below this many account updates left, the writer gathers changes for longer... */
const SCARCE_REMAINING = 10;
/** ...until none has come for this long... */
const SCARCE_QUIET_MS = 400;
/** ...but never longer than this. */
const SCARCE_MAX_WAIT_MS = 4_000;
/** Otherwise a write waits for a quiet spell, but never longer than this. */
const GATHER_MAX_WAIT_MS = 2_000;
/** The shortest quiet spell: the engine sends its next steps within a few ms of a result. */
const MIN_QUIET_MS = 25;
/** The quiet spell is this many times the gap seen between changes arriving together. */
const QUIET_PER_GAP = 3;
/** How often a gathering writer looks again (other operations may have finished). */
const POLL_MS = 10;
/** While other operations are at work, a change may follow the last one this many round trips later. */
const OTHERS_ROUND_TRIPS = 3;
/** For this many round trips of a gather, the end of another operation restarts the quiet spell... */
const FOLLOW_ROUND_TRIPS = 3;
/** ...and for this many in a run's first wave, or in a wave that holds few of the engine's slots. */
const FIRST_FOLLOW_ROUND_TRIPS = 8;
/** Times a change is written before the writer gives up on a competing writer. */
const MAX_ROUNDS = 5;

/** The fields of an alias entry that an update may carry: everything else is read-only. */
function writableAlias(entry: Record<string, unknown> | undefined): AliasUpdate {
  const out: AliasUpdate = {};
  if (typeof entry?.prefix === "string") out.prefix = entry.prefix;
  if (typeof entry?.cdn === "boolean") out.cdn = entry.cdn;
  if (typeof entry?.defaultProfile === "string") out.defaultProfile = entry.defaultProfile;
  return out;
}

/** What a read shows of `fetching` after it was written: the secrets are write-only. */
function readableFetching(fetching: NonNullable<Settings["fetching"]>): unknown {
  const auth = fetching.http?.auth;
  return {
    enabled: fetching.enabled,
    type: fetching.type,
    http: fetching.http && {
      url: fetching.http.url,
      auth: auth && { enabled: auth.enabled, username: auth.enabled ? auth.username : undefined },
    },
    s3: fetching.s3 && { ...fetching.s3, secretAccessKey: undefined },
  };
}

/** Whether the change removes an alias entry. */
function isRemoval(change: AccountChange): boolean {
  return change.alias?.fields === null;
}

/** A change of settings alone, with nothing to decide on a read: its write does not depend on one. */
function settingsAlone(p: Pending): boolean {
  return !p.change.alias && (p.prepared || !p.change.prepare);
}

/** Whether `live` holds every value `written` names (keys `written` leaves out are not judged). */
function holds(live: unknown, written: unknown): boolean {
  if (written === undefined) return true;
  if (written === null || typeof written !== "object" || Array.isArray(written)) {
    return canonical(live) === canonical(written);
  }
  if (!live || typeof live !== "object") return false;
  return Object.entries(written).every(([k, v]) => holds((live as Record<string, unknown>)[k], v));
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
  private lastChangeAt = 0;
  /** The gap between changes arriving together, as last seen (smoothed); undefined until seen. */
  private arrivalGapMs?: number;
  /** When the last check resolved changes: their resources return, and the engine sends more. */
  private resolvedAt = 0;
  /** The most operations of the process seen under way at once: about the engine's `--parallel`. */
  private peakUnderWay = 0;
  /** When that many were first seen under way. */
  private peakSince = 0;
  /**
   * Whether the service honours an alias left out of the written map (it replaces the map) or
   * keeps it (it merges): unknown until the first removal is read back, once per process.
   */
  private removalRule: "unknown" | "honoured" | "ignored" = "unknown";
  /** The account as the writer last read it. */
  private lastRead?: Account;
  /** When the last write returned, and how long it took (the pause before reading it back). */
  private lastWrite = { at: 0, tookMs: 0 };
  private readonly coalesceMs: number;
  private readonly operationsUnderWay: () => number;
  private readonly waitingOnWriters: () => number;
  private readonly lastOperationEnd: () => number;
  private readonly onlyDeletes: () => boolean;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    /** The account name in the stack's config, for messages. */
    private readonly accountName: string,
    private readonly client: MediahostClient,
    /** Called with every account read, so the account's cached copy stays current. */
    private readonly onRead: (account: Account) => void,
    options: WriterOptions = {},
  ) {
    this.coalesceMs = options.coalesceMs ?? 150;
    this.operationsUnderWay = options.operationsUnderWay ?? (() => 0);
    this.waitingOnWriters = options.waitingOnWriters ?? (() => this.waiting);
    this.lastOperationEnd = options.lastOperationEnd ?? (() => 0);
    this.onlyDeletes = options.onlyDeletes ?? (() => false);
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
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
    this.noteArrival(Date.now());
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
          await this.sleep(rewritePause(this.random));
          base = undefined;
        }
      }
      // the read after the gather needs the run's token: minted meanwhile, not after it
      void this.client.ready();
      this.gathering = true;
      try {
        await this.gather();
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
        base && Date.now() - base.at <= this.freshMs()
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

  /** Whether the next write teaches the removal rule: a removal waits, and the rule is unknown. */
  private learnsRemovalRule(): boolean {
    return this.removalRule === "unknown" && this.queue.some((p) => isRemoval(p.change));
  }

  /** How old a read may be and still be the base of a write: a round trip of the service. */
  private freshMs(): number {
    return Math.max(MIN_QUIET_MS, this.client.roundTripMs ?? 0);
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

  /** Keeps the gap between changes that arrive together (a gap longer than the longest quiet spell starts a new burst). */
  private noteArrival(now: number): void {
    const gap = now - this.lastChangeAt;
    if (this.lastChangeAt > 0 && gap < this.coalesceMs)
      this.arrivalGapMs = this.arrivalGapMs === undefined ? gap : (this.arrivalGapMs + gap) / 2;
    this.lastChangeAt = now;
  }

  /**
   * The quiet spell after which no more change is expected: a few times the gap seen between
   * changes arriving together (the engine's own pace), within [MIN_QUIET_MS, coalesceMs]; the
   * longest until a gap has been seen and the account-update counter is known.
   */
  private quietMs(): number {
    // until a write has told how many account updates are left (the counter comes back only on
    // an account update), the first wave is gathered whole: it may be the last writes of the hour
    if (this.arrivalGapMs === undefined || !this.client.counters.has(ACCOUNT_UPDATE_COUNTER))
      return this.coalesceMs;
    return this.paceMs();
  }

  /** A few times the gap seen between changes arriving together: how soon the engine sends the next one. */
  private paceMs(): number {
    return Math.min(this.coalesceMs, Math.max(MIN_QUIET_MS, QUIET_PER_GAP * (this.arrivalGapMs ?? 0)));
  }

  /** Operations of the process under way and not waiting for an account writer (another account's too). */
  private othersAtWork(): number {
    return Math.max(0, this.operationsUnderWay() - this.waitingOnWriters());
  }

  /**
   * Waits until no change has come for a quiet spell and no other operation of the process is
   * under way (bounded), so that one write carries every change the engine can send before it:
   * the engine runs a few operations at a time (`--parallel`), and each other operation that
   * finishes frees a slot for the next step, which may be another account change. Quieter and
   * longer when the account-update counter is nearly used up.
   */
  private async gather(): Promise<void> {
    const counter = this.client.counters.get(ACCOUNT_UPDATE_COUNTER);
    const scarce = !!counter && counter.remaining <= SCARCE_REMAINING && Date.now() < counter.reset * 1000;
    const maxMs = scarce ? SCARCE_MAX_WAIT_MS : GATHER_MAX_WAIT_MS;
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      // the first removal of a run goes with those that came together with it, not with the
      // whole wave: if its check shows the service keeps removed aliases, no other removal needs
      // a write at all, and those waiting meanwhile return at once
      if (!scarce && this.learnsRemovalRule() && now - this.lastChangeAt >= MIN_QUIET_MS) return;
      // in a run of deletes only (a destroy), what can still come is alias removals, which need no
      // write once the service is known to keep removed aliases, and settings resets: none worth
      // waiting for the other steps' slots, so a reset is written at the engine's own pace
      if (
        !scarce &&
        this.removalRule === "ignored" &&
        this.onlyDeletes() &&
        now - this.lastChangeAt >= this.paceMs()
      )
        return;
      const quietMs = scarce ? SCARCE_QUIET_MS : this.quietMs();
      // before the first answer, the shortest quiet spell stands for the round trip
      const roundTripMs = this.client.roundTripMs ?? MIN_QUIET_MS;
      const underWay = this.operationsUnderWay();
      const othersAtWork = this.othersAtWork() > 0;
      if (underWay > this.peakUnderWay) {
        this.peakUnderWay = underWay;
        this.peakSince = now;
      }
      // every slot of the engine waits for a writer: as many operations under way as the most
      // ever seen, a most that has held a while (the engine's `--parallel`, not a wave still
      // arriving), none of them at other work. The engine sends no step while its slots are full,
      // so nothing more can come before this wave returns: only a slot just freed and being
      // filled is waited for, the engine's own pace
      if (
        !scarce &&
        underWay > 0 &&
        underWay === this.peakUnderWay &&
        now - this.peakSince >= this.coalesceMs &&
        !othersAtWork &&
        now - Math.max(this.lastChangeAt, this.resolvedAt, this.lastOperationEnd()) >= this.paceMs()
      )
        return;
      // the end of another operation frees a slot whose next step may be an account change: for
      // a few round trips of a gather, the quiet spell counts from such an end too, and lasts
      // while others are at work. Longer in a run's first wave, which the engine started among
      // its other steps in no order of ours; later waves mostly start together, on the check's read.
      // A wave of few changes among many other steps is longer too: the engine's queue holds its
      // steps in an order of its own, and the next account changes may be a few steps behind.
      // Waiting costs little then (few slots held), and a wave split costs an account update.
      const fewOfMany = this.queue.length * 2 <= this.peakUnderWay;
      const followMs =
        (this.lastWrite.at === 0 || fewOfMany ? FIRST_FOLLOW_ROUND_TRIPS : FOLLOW_ROUND_TRIPS) * roundTripMs;
      const following = now - started < followMs;
      const quietFor =
        now - Math.max(this.lastChangeAt, this.resolvedAt, following ? this.lastOperationEnd() : 0);
      const left = maxMs - (now - started);
      if (left <= 0) return;
      // after that, while others are at work, one of them may still end within a few round trips
      const waitMs = othersAtWork ? Math.max(quietMs, OTHERS_ROUND_TRIPS * roundTripMs) : quietMs;
      if (quietFor >= waitMs && !(following && othersAtWork)) return;
      await this.sleep(Math.min(Math.max(1, waitMs - quietFor), POLL_MS, left));
    }
  }

  /**
   * Waits until a write's round trip has passed since the last write returned, so that a write
   * another writer based on a read older than ours has landed before we read ours back.
   */
  private async settle(): Promise<void> {
    const left = this.lastWrite.at + readBackPause(this.lastWrite.tookMs) - Date.now();
    if (left > 0) await this.sleep(left);
  }

  /** Resolves the written changes that `account` shows; returns the ones another writer undid. */
  private check(account: Account): Pending[] {
    const lost: Pending[] = [];
    for (const p of this.unchecked) {
      const alias = p.change.alias;
      if (alias?.fields === null) {
        const kept = !!account.aliases?.[alias.name];
        if (kept && this.removalRule === "unknown") this.removalRule = "ignored";
        if (!kept && this.removalRule === "unknown") this.removalRule = "honoured";
        if (kept && this.removalRule === "honoured") lost.push(p);
        else p.resolve({ account, aliasKept: kept });
        continue;
      }
      const done =
        (!alias || holds(account.aliases?.[alias.name], alias.fields)) &&
        holds(account.minify, p.change.settings?.minify) &&
        (!p.change.settings?.fetching ||
          holds(account.fetching, readableFetching(p.change.settings.fetching)));
      if (done) p.resolve({ account });
      else lost.push(p);
    }
    this.unchecked = [];
    this.resolvedAt = Date.now();
    const exhausted = lost.filter((p) => p.rounds >= MAX_ROUNDS);
    for (const p of exhausted) {
      p.reject(
        new ProviderError(
          `${p.change.resource}: another writer of account "${account.alias}" kept overwriting this change ` +
            `(written ${p.rounds} times, each time undone by a write made from an older read); run \`pulumi up\` again`,
        ),
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
    const body = this.body(account, ready);
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

  /**
   * The update body: settings as given; the alias map whole (the fresh read with the changes
   * applied) — right whether the service merges or replaces the map — or, once it is known to
   * merge, only the entries that change, so other writers' entries are never written back.
   */
  private body(account: Account, changes: Pending[]): AccountUpdate | undefined {
    const body: AccountUpdate = {};
    const aliasChanges = changes.flatMap((p) => (p.change.alias ? [p.change.alias] : []));
    for (const p of changes) {
      if (p.change.settings?.minify) body.minify = p.change.settings.minify;
      if (p.change.settings?.fetching) body.fetching = p.change.settings.fetching;
    }
    if (aliasChanges.length > 0) {
      const live = account.aliases ?? {};
      const merges = this.removalRule === "ignored";
      const map: Record<string, AliasUpdate> = merges
        ? {}
        : Object.fromEntries(Object.entries(live).map(([name, entry]) => [name, writableAlias(entry)]));
      for (const { name, fields, exact } of aliasChanges) {
        if (fields === null) delete map[name];
        else map[name] = exact ? { ...fields } : { ...writableAlias(live[name]), ...map[name], ...fields };
      }
      if (!merges || Object.keys(map).length > 0) body.aliases = map;
    }
    return Object.keys(body).length > 0 ? body : undefined;
  }
}

/** The error for a change whose credentials now reach another account than the one in the state. */
export function refusal(
  resource: string,
  recorded: string,
  reached: string,
  accountName?: string,
): ProviderError {
  return new ProviderError(
    `${resource}: refusing to act: it belongs to account "${recorded}" but the credentials` +
      `${accountName ? ` for account name "${accountName}"` : ""} now reach account "${reached}". ` +
      `Restore the credentials of "${recorded}", or remove the resource from the state with \`pulumi state delete\`.`,
  );
}
