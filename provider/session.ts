// One provider process's state: the stack config it was configured with, one account context per
// set of credentials, the stack it works for, and what this run's steps have said about each
// other — which resources are being replaced, and which objects a new resource took over from
// another resource of the stack. The engine runs one provider process per `pulumi` command, so
// "this run" is this session.
import { randomUUID } from "node:crypto";
import { AccountContext, type ContextOptions } from "./account/context";
import { TokenCache } from "./client";
import { type Credentials, credentialsFor, DEFAULT_ACCOUNT, resolveAccounts } from "./config";
import { journalFor, type StackJournal } from "./journal";
import type { Kind, Recorded } from "./resources/kind";

type Props = Record<string, unknown>;

export interface SessionConfig {
  config: (key: string) => string | undefined;
  env: NodeJS.ProcessEnv;
  options?: ContextOptions;
}

/** What identifies an object across resources: the service, the account, the kind and its id. */
function objectKey(baseUrl: string, accountAlias: string, kind: string, id: string): string {
  return JSON.stringify([baseUrl, accountAlias, kind, id]);
}

const fingerprint = (c: Credentials) => TokenCache.key(c.baseUrl, c.clientId, c.clientSecret);

export class Session {
  private readonly accounts: Map<string, Credentials | Error>;
  private readonly contexts = new Map<string, AccountContext>();
  private readonly options: ContextOptions;
  /** The stack this process works for (the SDK's hidden owner input). */
  owner?: string;
  /** Old states of resources this run replaces, by kind and the id of their replacement. */
  private readonly replacements = new Map<string, (Props & Recorded)[]>();
  /** Paths of folders this run moves away (replaces with another path or account). */
  private readonly leavingFolders = new Set<string>();
  /** Objects a resource of this run took over from another, with the new holder's token. */
  private readonly claims = new Map<string, string>();

  constructor(config: SessionConfig) {
    this.accounts = resolveAccounts({ config: config.config, env: config.env });
    this.options = config.options ?? {};
  }

  /** The credentials of an account name: an error naming the config keys to set when they are missing. */
  credentials(name: string | undefined): Credentials {
    return credentialsFor(this.accounts, name);
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
    return journalFor(this.owner, ctx.client.baseUrl, accountAlias);
  }

  /** The engine will replace the resource whose state is `olds` by one with `newId`. */
  planReplacement(kind: Kind, olds: Props & Recorded, newId: string | undefined): void {
    if (newId !== undefined) {
      const key = JSON.stringify([kind.name, newId]);
      this.replacements.set(key, [...(this.replacements.get(key) ?? []), olds]);
    }
    if (kind.name === "Folder" && typeof olds.path === "string") {
      this.leavingFolders.add(JSON.stringify([olds.accountAlias, olds.path]));
    }
  }

  /** The state of a resource this run replaces by one with the id `id`, if the engine said so. */
  replaced(kind: Kind, id: string): (Props & Recorded) | undefined {
    return this.replacements.get(JSON.stringify([kind.name, id]))?.[0];
  }

  /** Whether this run replaces a resource by one with the id `id` (cheap: no account read). */
  replacing(kind: Kind, id: string): boolean {
    return this.replacements.has(JSON.stringify([kind.name, id]));
  }

  /** The state of a resource being replaced in this run by a new one holding the same object, if any. */
  replacedHolder(kind: Kind, id: string, ctx: AccountContext, accountAlias: string) {
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

  /** Whether a Folder at `path` of the account is being moved away in this run. */
  folderLeaving(accountAlias: string, path: string): boolean {
    return this.leavingFolders.has(JSON.stringify([accountAlias, path]));
  }

  /** A new resource takes over an object: returns the token it records as its hold. */
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
