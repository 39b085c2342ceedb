// What this run's steps say about each other, apart from the accounts they reach: which
// resources are being replaced (and by which ids), which containers leave, which folders move
// (and where that takes what they hold), and which objects a new resource took over ("claimed")
// from another resource of the stack. The engine runs one provider process per `pulumi` command,
// so "this run" is the process's session (provider/session.ts), which holds one plan.
import { randomUUID } from "node:crypto";
import type { Kind, Stored } from "./resources/kind";

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

export class RunPlan {
  /** Old states of resources this run replaces, by kind and the id of their replacement. */
  private readonly replacements = new Map<string, Stored[]>();
  /** Objects that contain others (a kind's `tree.contains`) which this run replaces, with their kind. */
  private readonly leavingContainers: { kind: Kind; accountAlias: unknown; id: string }[] = [];
  /** Objects a resource of this run took over from another, with the new holder's token. */
  private readonly claims = new Map<string, string>();
  /** Moves of containers this run plans, in the order the engine diffed them. */
  private readonly moves: Move[] = [];

  /** The engine will replace the resource of `kind` whose state is `olds` by one with `newId`. */
  planReplacement(kind: Kind, id: string, olds: Stored, newId: string | undefined): void {
    if (newId !== undefined) {
      const key = JSON.stringify([kind.name, newId]);
      this.replacements.set(key, [...(this.replacements.get(key) ?? []), olds]);
    }
    if (kind.tree?.contains) this.leavingContainers.push({ kind, accountAlias: olds.accountAlias, id });
  }

  /** Whether this run replaces a resource by one with the id `id` (cheap: no account read). */
  replacing(kind: Kind, id: string): boolean {
    return this.replacements.has(JSON.stringify([kind.name, id]));
  }

  /** The state of a resource this run replaces by one with the id `id` that `holds` the same object, if any. */
  replacedHolder(kind: Kind, id: string, holds: (olds: Stored) => boolean): Stored | undefined {
    const candidates = this.replacements.get(JSON.stringify([kind.name, id])) ?? [];
    return candidates.find((olds) => kind.id(olds) === id && holds(olds));
  }

  /** Whether an object that contains the object `kind`/`id` of the account is being replaced in this run. */
  containerLeaving(accountAlias: string, kind: Kind, id: string): boolean {
    return this.leavingContainers.some(
      (c) => c.accountAlias === accountAlias && c.kind.tree?.contains?.(c.id, kind.name, id) === true,
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
      const tree = m.kind.tree;
      if (tree?.moves && tree.contains?.(m.from.location, kind.name, where)) {
        where = tree.moves.rehome(where, m.from.location, m.to);
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
