// The control surface of docs/emulator-control.md: out-of-band reads and changes for tests,
// under /_emulator/ (no token; never counted, logged, delayed or faulted). `Control` is also
// what startEmulator() hands to in-process tests.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AliasEntry, Credentials, Fetching } from "./accounts";
import type { Behaviour, Context } from "./context";
import { conflict, notFound } from "./errors";
import type { CounterState } from "./limits";
import type { LogEntry } from "./requestlog";
import type { FolderOptions, Meta } from "./tree";
import { validate } from "./validation";

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
});
const BehaviourBody = z.strictObject({
  aliasesUpdate: z.enum(["merge", "replace"]).optional(),
  mkdirExists: z.enum(["200", "409"]).optional(),
});
const Since = z.strictObject({
  since: z.string().regex(/^\d+$/, { message: "must be a whole number" }).optional(),
});
const AccountQuery = z.strictObject({ account: z.string().optional() });

export type FaultsChange = z.infer<typeof FaultsBody>;

/** `GET /_emulator/state`: one account as stored, write-only secrets included. */
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
  tree: { path: string; isDirectory: boolean; size: number }[];
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
    await this.ctx.store.commit({ type: "addAccount", creds, time: Date.now() });
  }

  private account(alias: string | undefined) {
    const name = alias ?? this.ctx.initialAccounts[0]?.alias ?? "";
    const account = this.ctx.world.account(name);
    if (!account) throw notFound(`Account not found: ${name}`);
    return account;
  }

  /** One account's whole state, secrets included. */
  state(alias?: string): EmulatorState {
    const account = this.account(alias);
    const tree: { path: string; isDirectory: boolean; size: number }[] = [];
    const meta: Record<string, Meta> = {};
    const options: Record<string, FolderOptions> = {};
    for (const [path, node] of account.tree.walk()) {
      if (path !== "/")
        tree.push({ path, isDirectory: node.kind === "dir", size: node.kind === "file" ? node.size : 0 });
      if (Object.keys(node.meta).length > 0) meta[path] = structuredClone(node.meta);
      if (node.kind === "dir" && Object.keys(node.options).length > 0) options[path] = { ...node.options };
    }
    return {
      account: account.secretView() as EmulatorState["account"],
      subAccounts: [...account.subAccounts.keys()],
      tree,
      meta,
      options,
    };
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
  app.get("/_emulator/state", async (request) =>
    control.state(validate(AccountQuery, request.query, "query").account),
  );
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
