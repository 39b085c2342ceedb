// One provider process's state: the configuration it was given, one account context per set of
// credentials, the stack it works for, how many resource operations are under way (the account
// writer gathers by it), and this run's plan (provider/run-plan.ts: replacements, moves, claims).
// The engine runs one provider process per `pulumi` command, so "this run" is this session. Every
// face makes one through provider/face.ts, from a Configuration (provider/config.ts).
import { AccountContext, type ContextOptions } from "./account/context";
import { TokenCache } from "./client";
import { type Configuration, type Credentials, credentialsFor, DEFAULT_ACCOUNT } from "./config";
import { journalFor, type StackJournal } from "./journal";
import type { Stored } from "./resources/kind";
import { RunPlan } from "./run-plan";

const fingerprint = (c: Credentials) => TokenCache.key(c.baseUrl, c.clientId, c.clientSecret);

export class Session {
  private readonly contexts = new Map<string, AccountContext>();
  private readonly options: ContextOptions;
  /** The stack this process works for (`setOwner`): keys the stack journal. */
  private stack?: string;
  /** What this run's steps say about each other. */
  readonly plan = new RunPlan();
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

  /**
   * Sets the stack this process works for (`<project>/<stack>`, or the owner the dynamic SDK
   * records), which keys the stack journal. A call that names no stack leaves the one set last:
   * one provider process works for one stack.
   */
  setOwner(stack: string | undefined): void {
    if (stack !== undefined) this.stack = stack;
  }

  /** The stack this process works for, once a call named it. */
  get owner(): string | undefined {
    return this.stack;
  }

  journal(ctx: AccountContext, accountAlias: string): StackJournal | undefined {
    return journalFor(this.configuration.journalDir, this.stack, ctx.client.baseUrl, accountAlias);
  }

  /** The object is in the stack's state: a journal note of its create in flight is no longer needed. */
  seenInState(kindName: string, id: string, olds: Stored): void {
    if (!this.stack || !id || typeof olds.accountAlias !== "string") return;
    try {
      this.journal(this.context(olds.account), olds.accountAlias)?.created(kindName, id);
    } catch {
      // an account no longer configured: its operations report that themselves
    }
  }

  /** The service address an account name reaches, if the name is configured. */
  baseUrlOf(name: string | undefined): string | undefined {
    try {
      return this.context(name).client.baseUrl;
    } catch {
      return undefined;
    }
  }
}
