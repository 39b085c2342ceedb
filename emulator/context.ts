// What the routes share: the accounts and their trees, persistence, fault settings, jobs, the
// request log and the token key. One per running emulator.
import type { Account, AliasesUpdate, Credentials } from "./accounts";
import { VARIANT_NAMES, type VariantName } from "./variants";

/** How mkdir of an existing path answers: as the service documents it (200 with an error body), or 409. */
export type MkdirExists = "200" | "409";

/** Where the service's behaviour is unknown or varies, the emulator's setting (control surface: behaviour). */
export interface Behaviour {
  aliasesUpdate: AliasesUpdate;
  mkdirExists: MkdirExists;
}

import { bearerToken, DEFAULT_TOKEN_TTL, readTokenClaims, SCOPES, signJwt } from "./auth";
import type { BlobStore } from "./blobs";
import { unauthorized } from "./errors";
import type { Faults } from "./faults";
import { JobRunner } from "./jobs";
import type { WriteAheadLog } from "./persistence";
import { RequestLog } from "./requestlog";
import { Store, World } from "./state";

export class Context {
  readonly world: World;
  readonly store: Store;
  readonly jobs: JobRunner;
  readonly log = new RequestLog();
  readonly behaviour: Behaviour;
  /** The variants played besides the two the behaviour holds (emulator/variants.ts). */
  readonly variants = new Set<VariantName>();
  /** Calls the API answered, for `gateway-502`'s one in four. */
  apiCalls = 0;
  /** http://host:port, known once listening. */
  baseUrl = "";
  /** What a reset lays into the accounts after the system folders (`--real-account`). */
  initialContent?: () => Promise<void>;

  constructor(
    blobs: BlobStore,
    readonly journal: WriteAheadLog | undefined,
    readonly key: Buffer,
    readonly faults: Faults,
    /** Accounts of the command line: what a reset goes back to. */
    readonly initialAccounts: Credentials[],
    behaviour: Behaviour,
    world?: World,
  ) {
    this.world = world ?? new World(blobs);
    this.store = new Store(this.world, journal);
    this.jobs = new JobRunner(this.store);
    this.behaviour = { ...behaviour };
  }

  /** Whether the emulator answers `variant`'s way (docs/api.md names each fact's variant). */
  plays(variant: VariantName): boolean {
    if (variant === "aliases-replace") return this.behaviour.aliasesUpdate === "replace";
    if (variant === "mkdir-exists-409") return this.behaviour.mkdirExists === "409";
    return this.variants.has(variant);
  }

  /** Plays exactly `variants` from now on (the two the behaviour holds included). */
  playOnly(variants: readonly VariantName[]): void {
    this.behaviour.aliasesUpdate = variants.includes("aliases-replace") ? "replace" : "merge";
    this.behaviour.mkdirExists = variants.includes("mkdir-exists-409") ? "409" : "200";
    this.variants.clear();
    for (const v of variants) if (v !== "aliases-replace" && v !== "mkdir-exists-409") this.variants.add(v);
  }

  /** The variants played, in the order of emulator/variants.ts. */
  playing(): VariantName[] {
    return VARIANT_NAMES.filter((v) => this.plays(v));
  }

  issueToken(
    account: Account,
    clientId: string,
    expiresIn: number | undefined,
    now: number,
  ): Record<string, unknown> {
    const ttl = this.faults.settings.tokenTtlSeconds ?? expiresIn ?? DEFAULT_TOKEN_TTL;
    const iat = Math.floor(now / 1000);
    const claims = { use: "api", sub: account.alias, cid: clientId, iat, exp: iat + ttl };
    const token = signJwt(claims, this.key);
    // [live] an array holding one space-separated string; the documentation's: an array of scopes
    const scope = this.plays("token-scope-string")
      ? SCOPES.join(" ")
      : this.plays("documented-shapes")
        ? SCOPES
        : [SCOPES.join(" ")];
    return { token, expiresIn: ttl, scope };
  }

  /** The account a request's bearer token belongs to; 401 for anything else. */
  authenticate(authorization: string | undefined, now: number): Account {
    const token = bearerToken(authorization);
    if (!token) throw unauthorized();
    const account = this.accountOf(token, "api", now);
    if (!account) throw unauthorized("Invalid or expired token");
    return account;
  }

  /** The account of a valid token issued by this emulator for `use`, if it still exists. */
  accountOf(token: string, use: "api" | "tus", now: number): Account | undefined {
    const claims = readTokenClaims(token, this.key, Math.floor(now / 1000), use);
    const account = claims && this.world.account(claims.sub);
    return account && account.secretOf(claims.cid) !== undefined ? account : undefined;
  }

  async reset(): Promise<void> {
    await this.store.commit({
      type: "reset",
      accounts: this.initialAccounts,
      time: Date.now(),
      system: true,
    });
    await this.initialContent?.();
    this.jobs.clear();
    this.log.clear();
  }
}
