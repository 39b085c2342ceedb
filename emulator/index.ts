// The emulator in-process: startEmulator() for integration tests, and what the CLI runs.
import * as fsp from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AliasesUpdate, Credentials } from "./accounts";
import { type BlobStore, DiskBlobStore, MemoryBlobStore } from "./blobs";
import { consoleNonce } from "./console";
import { Context, type MkdirExists } from "./context";
import { Control } from "./control";
import { Faults } from "./faults";
import { CONSOLE_PATH, ControlGuard, isWildcard, urlHost } from "./guard";
import { signingKey, WriteAheadLog } from "./persistence";
import { seedRealAccount } from "./real-account";
import { buildServer } from "./server";
import { World } from "./state";
import { isSystemFolder } from "./system";
import { createTusServer } from "./tus";
import type { VariantName } from "./variants";

export { Control, type EmulatorState } from "./control";
export { planRealAccount, REAL_ACCOUNT_FILES } from "./real-account";
export { VARIANT_NAMES, VARIANTS, type VariantName } from "./variants";

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Credentials of the primary account (default demo-client / demo-secret). */
  clientId?: string;
  clientSecret?: string;
  /** Alias of the primary account (default demo). */
  alias?: string;
  /** Further top-level accounts, each with its own credentials, tree and counters. */
  accounts?: Credentials[];
  /** Keep state in this folder (survives restarts); without it, state is in memory. */
  dataDir?: string;
  latencyMs?: number;
  latencyJitterMs?: number;
  faultRate?: number;
  dropRate?: number;
  seed?: number;
  /** How POST /v2/account treats `aliases` (default merge). */
  aliasesUpdate?: AliasesUpdate;
  /** How mkdir of an existing path answers (default "200": as the service documents it). */
  mkdirExists?: MkdirExists;
  /** Facts answered the other way (emulator/variants.ts; aliases-replace and mkdir-exists-409 too). */
  variants?: VariantName[];
  /** Lifetime of every token, overriding what token requests ask for. */
  tokenTtlSeconds?: number;
  /** Further host names the control surface and the console answer to (behind a proxy, in a container network). */
  allowHosts?: string[];
  /**
   * The token the control surface requires. Without it, one is made up at start when the
   * emulator listens beyond loopback, and none is required on loopback.
   */
  controlToken?: string;
  /**
   * Fill the primary account with a real-size account of this many files (emulator/real-account.ts;
   * 6,537 is the live sample account's size), at start when it holds nothing beyond the system
   * folders, and after every reset.
   */
  realAccount?: number;
  /** Where diagnostics go (default stderr). */
  log?: (message: string) => void;
}

export interface RunningEmulator {
  url: string;
  port: number;
  /** The web console; with `?token=` when the control surface requires one (open it as it is). */
  consoleUrl: string;
  /** The token the control surface requires, when it requires one. */
  controlToken?: string;
  stop(): Promise<void>;
  control: Control;
}

export const DEFAULT_ACCOUNT: Credentials = {
  alias: "demo",
  clientId: "demo-client",
  clientSecret: "demo-secret",
};

function accountsOf(options: EmulatorOptions): Credentials[] {
  const primary: Credentials = {
    alias: options.alias ?? DEFAULT_ACCOUNT.alias,
    clientId: options.clientId ?? DEFAULT_ACCOUNT.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_ACCOUNT.clientSecret,
  };
  const all = [primary, ...(options.accounts ?? [])];
  for (const [i, a] of all.entries()) {
    const clash = all.slice(0, i).find((b) => b.alias === a.alias || b.clientId === a.clientId);
    if (clash) throw new Error(`accounts ${clash.alias} and ${a.alias} share an alias or a client id`);
  }
  return all;
}

/** True when the account's root holds the system folders and nothing else. */
function holdsOnlySystemFolders(world: World, alias: string): boolean {
  const root = world.account(alias)?.tree.root;
  return [...(root?.children.keys() ?? [])].every((name) => isSystemFolder(`/${name}`));
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? ((m: string) => process.stderr.write(`mediahost-emulator: ${m}\n`));
  const accounts = accountsOf(options);
  const dataDir = options.dataDir;
  const blobs: BlobStore = dataDir ? await DiskBlobStore.open(join(dataDir, "blobs")) : new MemoryBlobStore();
  const world = new World(blobs);
  const journal = dataDir ? await WriteAheadLog.open(dataDir, world, log) : undefined;
  const faults = new Faults({
    faultRate: options.faultRate ?? 0,
    dropRate: options.dropRate ?? 0,
    latencyMs: options.latencyMs ?? 0,
    latencyJitterMs: options.latencyJitterMs ?? 0,
    seed: options.seed ?? 1,
    ...(options.tokenTtlSeconds !== undefined ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}),
  });
  const ctx = new Context(
    blobs,
    journal,
    await signingKey(dataDir),
    faults,
    accounts,
    { aliasesUpdate: options.aliasesUpdate ?? "merge", mkdirExists: options.mkdirExists ?? "200" },
    world,
  );
  for (const v of options.variants ?? []) {
    if (v === "aliases-replace") ctx.behaviour.aliasesUpdate = "replace";
    else if (v === "mkdir-exists-409") ctx.behaviour.mkdirExists = "409";
    else ctx.variants.add(v);
  }
  // the command line's accounts exist with the command line's credentials, whatever was stored
  for (const creds of accounts) {
    const a = world.account(creds.alias);
    if (!a || a.clientId !== creds.clientId || a.clientSecret !== creds.clientSecret) {
      await ctx.store.commit({ type: "addAccount", creds, time: Date.now(), system: true });
    }
  }
  if (options.realAccount !== undefined) {
    const files = options.realAccount;
    const alias = (accounts[0] as Credentials).alias;
    ctx.initialContent = () => seedRealAccount(ctx.store, alias, files).then(() => undefined);
    // with --data a restart finds the account seeded already (or changed since): kept as it is
    if (holdsOnlySystemFolders(world, alias)) await ctx.initialContent();
    else log(`--real-account: account ${alias} already holds files; kept as it is`);
  }
  if (blobs instanceof DiskBlobStore) await blobs.collectOrphans();

  const uploads = dataDir ? join(dataDir, "uploads") : await fsp.mkdtemp(join(tmpdir(), "mediahost-tus-"));
  await fsp.mkdir(uploads, { recursive: true });
  const control = new Control(ctx);
  const host = options.host ?? "127.0.0.1";
  const guard = new ControlGuard(host, options.allowHosts, options.controlToken);
  // on every interface, the emulator calls itself (console hand changes) over loopback
  const selfHost = isWildcard(host) ? (host.includes(":") ? "[::1]" : "127.0.0.1") : urlHost(host);
  let internalUrl = "";
  const app = buildServer(ctx, {
    control,
    tus: createTusServer(ctx, uploads),
    guard,
    internalUrl: () => internalUrl,
    consoleNonce: consoleNonce(),
  });
  await app.listen({ host, port: options.port ?? 0 });
  const port = (app.server.address() as AddressInfo).port;
  ctx.baseUrl = `http://${urlHost(host)}:${port}`;
  internalUrl = `http://${selfHost}:${port}`;
  guard.listening(port);
  // a browser cannot open 0.0.0.0 everywhere: the link names loopback then
  const consoleUrl = `http://${isWildcard(host) ? selfHost : urlHost(host)}:${port}${CONSOLE_PATH}${
    guard.token === undefined ? "" : `?token=${guard.token}`
  }`;

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await app.close();
      await journal?.close();
      if (!dataDir) await fsp.rm(uploads, { recursive: true, force: true });
    })();
    return stopped;
  };
  return {
    url: ctx.baseUrl,
    port,
    consoleUrl,
    ...(guard.token === undefined ? {} : { controlToken: guard.token }),
    stop,
    control,
  };
}
