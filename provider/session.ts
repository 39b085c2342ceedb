// One provider process's state: the configuration it was given, one account context per set of
// credentials, the stack it works for, and what this run's steps have said about each other —
// which resources are being replaced, which folders move (and where that takes what they hold),
// and which objects a new resource took over ("claimed") from another resource of the stack. The
// engine runs one provider process per `pulumi` command, so "this run" is this session. Every face
// makes one through provider/face.ts, from a Configuration (provider/config.ts).
import { randomUUID } from "node:crypto";
import { AccountContext, type ContextOptions } from "./account/context";
import { TokenCache } from "./client";
import { type Configuration, type Credentials, credentialsFor, DEFAULT_ACCOUNT } from "./config";
import { journalFor, type StackJournal } from "./journal";
import type { Kind, Recorded } from "./resources/kind";

type Props = Record<string, unknown>;
type State = Props & Recorded;

/** Where an object of the account is once this run's moves that carry it are done, and what to wait for. */
export interface Located {
  location: string;
  after: Promise<void>;
}

/** A move of an object that contains others (a folder), planned at diff and carried out by its update. */
export interface Move {
  readonly kind: Kind;
  readonly accountAlias: string;
  /** The location the resource's state records. */
  readonly recorded: string;
  /** Where the object is when its own move starts: after the moves of its containers. */
  readonly from: Located;
  readonly to: string;
  /** Settles once the object has moved, or its move failed (with that error). */
  readonly done: Promise<void>;
  settle(error?: unknown): void;
}

/** What identifies an object across resources: the service, the account, the kind and its id. */
function objectKey(baseUrl: string, accountAlias: string, kind: string, id: string): string {
  return JSON.stringify([baseUrl, accountAlias, kind, id]);
}

const fingerprint = (c: Credentials) => TokenCache.key(c.baseUrl, c.clientId, c.clientSecret);

export class Session {
  private readonly contexts = new Map<string, AccountContext>();
  private readonly options: ContextOptions;
  /** The stack this process works for (`Face.serving`, provider/face.ts): keys the stack journal. */
  owner?: string;
  /** Old states of resources this run replaces, by kind and the id of their replacement. */
  private readonly replacements = new Map<string, State[]>();
  /** Objects that contain others (Kind.contains) which this run replaces, with their kind. */
  private readonly leavingContainers: { kind: Kind; accountAlias: unknown; id: string }[] = [];
  /** Objects a resource of this run took over from another, with the new holder's token. */
  private readonly claims = new Map<string, string>();
  /** Moves of containers this run plans, in the order the engine diffed them. */
  private readonly moves: Move[] = [];
  /** Resource operations (create, read, update, delete) under way in this process. */
  private operations = 0;
  /** When the last of them ended: its slot in the engine goes to the next step. */
  private operationEndedAt = 0;
  /** Whether a create or an update has started in this run (a destroy makes none). */
  private changing = false;

  constructor(
    readonly configuration: Configuration,
    /** Test-only overrides of the writer's and the client's settings. */
    options: ContextOptions = {},
  ) {
    this.options = {
      ...options,
      client: { ...configuration.client, ...options.client },
      writer: {
        operationsUnderWay: () => this.operations,
        lastOperationEnd: () => this.operationEndedAt,
        waitingOnWriters: () => [...this.contexts.values()].reduce((n, c) => n + c.writer.waiting, 0),
        onlyDeletes: () => !this.changing,
        ...options.writer,
      },
    };
  }

  /** Runs one resource operation, counted while under way (the account writer gathers by it). */
  async operation<T>(work: () => Promise<T>, changes = false): Promise<T> {
    if (changes) this.changing = true;
    this.operations++;
    try {
      return await work();
    } finally {
      this.operations--;
      this.operationEndedAt = Date.now();
    }
  }

  /** The credentials of an account name: an error naming the config keys to set when they are missing. */
  credentials(name: string | undefined): Credentials {
    return credentialsFor(this.configuration.accounts, name);
  }

  /** The context of an account name; names with the same credentials share one. */
  context(name: string | undefined): AccountContext {
    const credentials = this.credentials(name);
    const key = fingerprint(credentials);
    let ctx = this.contexts.get(key);
    if (!ctx) {
      ctx = new AccountContext(name ?? DEFAULT_ACCOUNT, credentials, this.options);
      this.contexts.set(key, ctx);
    }
    return ctx;
  }

  /** Whether two account names reach the service with the same credentials (so the same account). */
  sameCredentials(a: string | undefined, b: string | undefined): boolean {
    try {
      return fingerprint(this.credentials(a)) === fingerprint(this.credentials(b));
    } catch {
      return false;
    }
  }

  journal(ctx: AccountContext, accountAlias: string): StackJournal | undefined {
    return journalFor(this.configuration.journalDir, this.owner, ctx.client.baseUrl, accountAlias);
  }

  /** The engine will replace the resource of `kind` whose state is `olds` by one with `newId`. */
  planReplacement(kind: Kind, id: string, olds: State, newId: string | undefined): void {
    if (newId !== undefined) {
      const key = JSON.stringify([kind.name, newId]);
      this.replacements.set(key, [...(this.replacements.get(key) ?? []), olds]);
    }
    if (kind.contains) this.leavingContainers.push({ kind, accountAlias: olds.accountAlias, id });
  }

  /** Whether this run replaces a resource by one with the id `id` (cheap: no account read). */
  replacing(kind: Kind, id: string): boolean {
    return this.replacements.has(JSON.stringify([kind.name, id]));
  }

  /** The state of a resource being replaced in this run by a new one holding the same object, if any. */
  replacedHolder(kind: Kind, id: string, ctx: AccountContext, accountAlias: string): State | undefined {
    const candidates = this.replacements.get(JSON.stringify([kind.name, id])) ?? [];
    return candidates.find(
      (olds) =>
        olds.accountAlias === accountAlias &&
        kind.id(olds as never) === id &&
        this.baseUrlOf(olds.account) === ctx.client.baseUrl,
    );
  }

  private baseUrlOf(name: string | undefined): string | undefined {
    try {
      return this.context(name).client.baseUrl;
    } catch {
      return undefined;
    }
  }

  /** Whether an object that contains the object `kind`/`id` of the account is being replaced in this run. */
  containerLeaving(accountAlias: string, kind: Kind, id: string): boolean {
    return this.leavingContainers.some(
      (c) => c.accountAlias === accountAlias && c.kind.contains?.(c.id, kind.name, id) === true,
    );
  }

  /**
   * Where the object `kind` at `location` of the account is once the planned moves of the objects
   * that contain it are done (each rehomes it in turn), and the moves to wait for. The object's
   * own move, if planned, is not one of them.
   */
  locate(accountAlias: string, kind: Kind, location: string): Located {
    let where = location;
    const waits: Promise<void>[] = [];
    for (const m of this.moves) {
      if (m.accountAlias !== accountAlias || (m.kind === kind && m.recorded === location)) continue;
      if (m.kind.rehome && m.kind.contains?.(m.from.location, kind.name, where)) {
        where = m.kind.rehome(where, m.from.location, m.to);
        waits.push(m.done);
      }
    }
    const after = Promise.all(waits).then(() => undefined);
    after.catch(() => {}); // only those who wait for it must see a failed move
    return { location: where, after };
  }

  /** Plans the move of an object that contains others (once per object and destination). */
  planMove(kind: Kind, accountAlias: string, recorded: string, to: string): Move {
    const planned = this.plannedMove(kind, accountAlias, recorded, to);
    if (planned) return planned;
    let settle: (error?: unknown) => void = () => {};
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    done.catch(() => {}); // followers that wait see the failure; nobody else must
    const move: Move = {
      kind,
      accountAlias,
      recorded,
      from: this.locate(accountAlias, kind, recorded),
      to,
      done,
      settle,
    };
    this.moves.push(move);
    return move;
  }

  /** The move planned for the object whose state records `recorded`, to `to`, if one was. */
  plannedMove(kind: Kind, accountAlias: string, recorded: string, to: string): Move | undefined {
    return this.moves.find(
      (m) => m.kind === kind && m.accountAlias === accountAlias && m.recorded === recorded && m.to === to,
    );
  }

  /** A new resource takes over an object: returns the token it records as its claim. */
  claim(baseUrl: string, accountAlias: string, kind: string, id: string): string {
    const token = randomUUID();
    this.claims.set(objectKey(baseUrl, accountAlias, kind, id), token);
    return token;
  }

  /** The token of the resource that took the object over in this run, if one did. */
  claimOf(baseUrl: string, accountAlias: string, kind: string, id: string): string | undefined {
    return this.claims.get(objectKey(baseUrl, accountAlias, kind, id));
  }
}
