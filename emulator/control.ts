// The control surface of docs/emulator-control.md: out-of-band reads and changes for tests,
// tools and the console, under /_emulator/ (same origin only, a token when bound beyond
// loopback: emulator/guard.ts; never counted, logged, delayed or faulted). Credentials are
// masked (emulator/secrets.ts). `Control` is also what startEmulator() hands to in-process tests.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AliasEntry, Credentials, Fetching } from "./accounts";
import type { Behaviour, Context } from "./context";
import { conflict, notFound } from "./errors";
import type { CounterState } from "./limits";
import type { LogEntry } from "./requestlog";
import { maskAccount } from "./secrets";
import type { FolderOptions, Meta } from "./tree";
import { validate } from "./validation";
import { VARIANT_NAMES, type VariantName } from "./variants";

const RotateBody = z.strictObject({ clientId: z.string().min(1), clientSecret: z.string().min(1) });
const AccountBody = z.strictObject({
  alias: z.string().min(1),
  clientId: z.string().min(1),
  clientSecret: z.string(),
});
const LimitsBody = z.strictObject({
  account: z.string().optional(),
  counter: z.string().min(1),
  limit: z.number().int().min(0).optional(),
  used: z.number().int().min(0).optional(),
});
const Rate = z.number().min(0).max(1);
const Ms = z.number().min(0);
const FaultsBody = z.strictObject({
  faultRate: Rate.optional(),
  dropRate: Rate.optional(),
  latencyMs: Ms.optional(),
  latencyJitterMs: Ms.optional(),
  tokenTtlSeconds: z.number().int().min(1).nullable().optional(),
  seed: z.number().int().optional(),
  dropAfterApply: z.strictObject({ operation: z.string().min(1), count: z.number().int().min(0) }).optional(),
  badGateway: z.strictObject({ operation: z.string().min(1), count: z.number().int().min(0) }).optional(),
  unavailable: z
    .strictObject({
      seconds: z.number().min(0).max(3600),
      retryAfter: z.enum(["seconds", "date", "none"]).optional(),
      on: z.enum(["any", "write"]).optional(),
    })
    .optional(),
});
const BehaviourBody = z.strictObject({
  aliasesUpdate: z.enum(["merge", "replace"]).optional(),
  mkdirExists: z.enum(["200", "409"]).optional(),
});
const VariantsBody = z.strictObject({
  variants: z.array(z.enum(VARIANT_NAMES as [VariantName, ...VariantName[]])),
});
const Since = z.strictObject({
  since: z.string().regex(/^\d+$/, { message: "must be a whole number" }).optional(),
});
const AccountQuery = z.strictObject({ account: z.string().optional() });
const StateQuery = z.strictObject({
  account: z.string().optional(),
  mtimes: z.enum(["true", "false"]).optional(),
});

/** Entries a new stream of the request log starts with, and the most one batch holds. */
const STREAM_BACKLOG = 1000;
const STREAM_BATCH_MS = 100;

export type FaultsChange = z.infer<typeof FaultsBody>;

/** One entry of the state's tree: a folder or a file, with its type and last change. */
export interface StateEntry {
  path: string;
  isDirectory: boolean;
  size: number;
  /** Files only. */
  contentType?: string;
  /**
   * ISO date-time of the last change, when asked for (`?mtimes=true`): a file written again with
   * the same content changes it, so states compared for equality leave it out.
   */
  mtime?: string;
}

/**
 * `GET /_emulator/state`: one account as stored, its credentials masked (emulator/secrets.ts);
 * in-process, `control.state(alias, { secrets: true })` shows them, for tests.
 */
export interface EmulatorState {
  account: {
    alias: string;
    cdnURL: string;
    minify: { enabled: boolean };
    fetching: Fetching & { maxFilesize: number };
    aliases: Record<string, AliasEntry>;
    [key: string]: unknown;
  };
  subAccounts: string[];
  tree: StateEntry[];
  /** Meta by path, for paths that have any. */
  meta: Record<string, Meta>;
  /** Folder options by path, for folders that have any set. */
  options: Record<string, FolderOptions>;
}

export class Control {
  constructor(private readonly ctx: Context) {}

  reset(): Promise<void> {
    return this.ctx.reset();
  }

  requests(since = 0): { requests: LogEntry[]; next: number } {
    return this.ctx.log.since(since);
  }

  /** Calls `listener` with every request logged from now on; returns the unsubscribe function. */
  watchRequests(listener: (entry: LogEntry) => void): () => void {
    return this.ctx.log.subscribe(listener);
  }

  clearRequests(): void {
    this.ctx.log.clear();
  }

  accounts(): { accounts: { alias: string; clientId: string }[] } {
    return {
      accounts: [...this.ctx.world.accounts.values()].map((a) => ({ alias: a.alias, clientId: a.clientId })),
    };
  }

  /** Adds another API client to an existing account (as the account's API settings page does). */
  async addClient(creds: Credentials): Promise<void> {
    const world = this.ctx.world;
    if (!world.account(creds.alias)) throw notFound(`Account not found: ${creds.alias}`);
    if (world.byClientId(creds.clientId)) throw conflict(`Client id already in use: ${creds.clientId}`);
    await this.ctx.store.commit({ type: "addClient", creds });
  }

  /**
   * Rotates an API client's secret (as the account's API settings page does): the old secret
   * mints no token any more; tokens already issued stay valid until they expire.
   */
  async rotateClient(clientId: string, clientSecret: string): Promise<void> {
    if (!this.ctx.world.byClientId(clientId)) throw notFound(`Client not found: ${clientId}`);
    await this.ctx.store.commit({ type: "rotateClient", clientId, clientSecret });
  }

  async addAccount(creds: Credentials): Promise<void> {
    const world = this.ctx.world;
    if (world.aliasTaken(creds.alias)) throw conflict(`Account already exists: ${creds.alias}`);
    if (world.byClientId(creds.clientId)) throw conflict(`Client id already in use: ${creds.clientId}`);
    await this.ctx.store.commit({ type: "addAccount", creds, time: Date.now(), system: true });
  }

  private account(alias: string | undefined) {
    const name = alias ?? this.ctx.initialAccounts[0]?.alias ?? "";
    const account = this.ctx.world.account(name);
    if (!account) throw notFound(`Account not found: ${name}`);
    return account;
  }

  /** One account's whole state; credentials masked unless `secrets` (in-process tests only). */
  state(alias?: string, how: { secrets?: boolean; mtimes?: boolean } = {}): EmulatorState {
    const account = this.account(alias);
    const tree: StateEntry[] = [];
    const meta: Record<string, Meta> = {};
    const options: Record<string, FolderOptions> = {};
    for (const [path, node] of account.tree.walk()) {
      if (path !== "/") {
        const entry: StateEntry =
          node.kind === "file"
            ? { path, isDirectory: false, size: node.size, contentType: node.contentType }
            : { path, isDirectory: true, size: 0 };
        if (how.mtimes) entry.mtime = new Date(node.mtime).toISOString();
        tree.push(entry);
      }
      if (Object.keys(node.meta).length > 0) meta[path] = structuredClone(node.meta);
      if (node.kind === "dir" && Object.keys(node.options).length > 0) options[path] = { ...node.options };
    }
    const stored = account.secretView() as EmulatorState["account"];
    return {
      account: how.secrets ? stored : maskAccount(stored),
      subAccounts: [...account.subAccounts.keys()],
      tree,
      meta,
      options,
    };
  }

  /** Every counter of one account, as `GET /v2/account/limits` answers (not counted). */
  limits(alias?: string): Record<string, CounterState> {
    return this.account(alias).limiter.all(Math.floor(Date.now() / 1000));
  }

  /** The fault settings in force. */
  faults(): Record<string, unknown> {
    return this.ctx.faults.view();
  }

  /** The behaviour settings in force. */
  behaviour(): Behaviour {
    return { ...this.ctx.behaviour };
  }

  setLimit(change: { account?: string; counter: string; limit?: number; used?: number }): CounterState {
    const limiter = this.account(change.account).limiter;
    const now = Math.floor(Date.now() / 1000);
    if (change.limit !== undefined) limiter.setLimit(change.counter, change.limit);
    if (change.used !== undefined) limiter.setUsed(change.counter, change.used, now);
    return limiter.state(change.counter, now);
  }

  setFaults(change: FaultsChange): Record<string, unknown> {
    const { tokenTtlSeconds, ...rest } = change;
    const faults = this.ctx.faults;
    faults.update(rest);
    // null lifts the override: tokens get the lifetime they ask for again
    if (tokenTtlSeconds === null) delete faults.settings.tokenTtlSeconds;
    else if (tokenTtlSeconds !== undefined) faults.settings.tokenTtlSeconds = tokenTtlSeconds;
    return faults.view();
  }

  /** Changes what the emulator does where the service's behaviour is unknown or varies; answers the settings in force. */
  setBehaviour(change: Partial<Behaviour>): Behaviour {
    if (change.aliasesUpdate) this.ctx.behaviour.aliasesUpdate = change.aliasesUpdate;
    if (change.mkdirExists) this.ctx.behaviour.mkdirExists = change.mkdirExists;
    return { ...this.ctx.behaviour };
  }

  /** The variants played (emulator/variants.ts). */
  variants(): VariantName[] {
    return this.ctx.playing();
  }

  /** Plays exactly these variants from now on; answers the variants in force. */
  setVariants(variants: readonly VariantName[]): VariantName[] {
    this.ctx.playOnly(variants);
    return this.ctx.playing();
  }
}

export function registerControl(app: FastifyInstance, control: Control): void {
  app.post("/_emulator/reset", async () => {
    await control.reset();
    return {};
  });
  app.get("/_emulator/requests", async (request) => {
    const { since } = validate(Since, request.query, "query");
    return control.requests(since === undefined ? 0 : Number(since));
  });
  app.get("/_emulator/requests/stream", (request, reply) => {
    const { since } = validate(Since, request.query, "query");
    const lastEventId = request.headers["last-event-id"];
    // a reconnecting EventSource says where it was; a new one gets at most STREAM_BACKLOG entries
    let cursor =
      typeof lastEventId === "string" && /^\d+$/.test(lastEventId) ? Number(lastEventId) : Number(since ?? 0);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    const send = (entries: LogEntry[]) => {
      if (entries.length === 0 || res.destroyed) return;
      cursor = (entries[entries.length - 1] as LogEntry).seq;
      res.write(`id: ${cursor}\ndata: ${JSON.stringify(entries)}\n\n`);
    };
    send(control.requests(cursor).requests.slice(-STREAM_BACKLOG));
    res.write(": ready\n\n");
    // entries go out in batches, at most every STREAM_BATCH_MS: one write per burst under load
    let pending: LogEntry[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      send(batch);
    };
    const unsubscribe = control.watchRequests((entry) => {
      pending.push(entry);
      if (pending.length > STREAM_BACKLOG) pending = pending.slice(-STREAM_BACKLOG);
      timer ??= setTimeout(flush, STREAM_BATCH_MS);
    });
    const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
    res.on("close", () => {
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(timer);
    });
  });
  app.delete("/_emulator/requests", async () => {
    control.clearRequests();
    return {};
  });
  app.get("/_emulator/accounts", async () => control.accounts());
  app.post("/_emulator/accounts", async (request) => {
    await control.addAccount(validate(AccountBody, request.body ?? {}, "body"));
    return control.accounts();
  });
  app.post("/_emulator/clients", async (request) => {
    await control.addClient(validate(AccountBody, request.body ?? {}, "body"));
    return control.accounts();
  });
  app.post("/_emulator/clients/rotate", async (request) => {
    const { clientId, clientSecret } = validate(RotateBody, request.body ?? {}, "body");
    await control.rotateClient(clientId, clientSecret);
    return control.accounts();
  });
  app.get("/_emulator/state", async (request) => {
    const { account, mtimes } = validate(StateQuery, request.query, "query");
    return control.state(account, { mtimes: mtimes === "true" });
  });
  app.get("/_emulator/limits", async (request) =>
    control.limits(validate(AccountQuery, request.query, "query").account),
  );
  app.get("/_emulator/faults", async () => control.faults());
  app.get("/_emulator/behaviour", async () => control.behaviour());
  app.get("/_emulator/variants", async () => ({ variants: control.variants() }));
  app.post("/_emulator/variants", async (request) => ({
    variants: control.setVariants(validate(VariantsBody, request.body, "body").variants),
  }));
  app.post("/_emulator/limits", async (request) =>
    control.setLimit(validate(LimitsBody, request.body ?? {}, "body")),
  );
  app.post("/_emulator/faults", async (request) =>
    control.setFaults(validate(FaultsBody, request.body ?? {}, "body")),
  );
  app.post("/_emulator/behaviour", async (request) =>
    control.setBehaviour(validate(BehaviourBody, request.body ?? {}, "body")),
  );
}
