// A fleet of examples/drift-ci stacks on Pulumi's DIY backend in an S3 object store, and runners
// that check it for drift in shards (`mediahost-drift --all-stacks --shard K/N`), each a process
// with its own checkout and PULUMI_HOME. Used by test/e2e/objectstore-fleet.test.ts and
// scripts/bench-fleet.ts.
//
// Per account, one stack is made with the real CLI (`stack init`, `config set`, `up`); the others
// are copies of its stored checkpoint under other stack and site names, written to the bucket, with
// their objects made in the account through the API: a fleet of 60 stacks in seconds, not the
// minutes of 60 `up`s. What the drift check then reads is what an `up` of each would have stored.
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { MediahostClient } from "../provider/client";
import type { RunningObjectStore } from "./objectstore";

// scripts/ from source (tests), dist/scripts/ when built
const repoRoot = resolve(__dirname, basename(dirname(__dirname)) === "dist" ? "../.." : "..");
const PROGRAM = join(repoRoot, "examples/drift-ci");
const PROJECT = "mediahost-drift-ci";

export interface Account {
  alias: string;
  clientId: string;
  clientSecret: string;
}

export interface FleetStack {
  name: string;
  site: string;
  account: string;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Fleet {
  stacks: FleetStack[];
  /** A fresh runner: a checkout holding every stack's committed config, a new PULUMI_HOME. */
  runner(): Promise<{ dir: string; env: Record<string, string> }>;
  /** N runners at once, runner K checking shard K/N: each one's result, and the wall time. */
  shards(n: number, args?: string[]): Promise<{ runs: Run[]; seconds: number }>;
  dispose(): Promise<void>;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/**
 * Makes `perAccount` stacks in each account on the store's backend under `prefix`. `env` holds
 * PATH (with pulumi) and the passphrase; the emulator at `baseUrl` holds the accounts.
 */
export async function makeFleet(options: {
  env: Record<string, string>;
  store: RunningObjectStore;
  prefix: string;
  baseUrl: string;
  accounts: Account[];
  perAccount: number;
}): Promise<Fleet> {
  const { store, prefix, baseUrl, accounts, perAccount } = options;
  const root = await mkdtemp(join(tmpdir(), "mediahost-fleet-"));
  const committed: Record<string, string> = {};
  let homes = 0;
  const runner = async () => {
    const dir = await mkdtemp(join(root, "checkout-"));
    for (const entry of await readdir(PROGRAM)) {
      if (/^Pulumi\..+\.yaml$/.test(entry)) continue;
      await cp(join(PROGRAM, entry), join(dir, entry), { recursive: true });
    }
    for (const [name, text] of Object.entries(committed)) await writeFile(join(dir, name), text);
    // node_modules as npm would install this package beside its dependencies
    await mkdir(join(dir, "node_modules"));
    for (const entry of await readdir(join(repoRoot, "node_modules"))) {
      if (!entry.startsWith("."))
        await symlink(join(repoRoot, "node_modules", entry), join(dir, "node_modules", entry));
    }
    await symlink(repoRoot, join(dir, "node_modules", "pulumi-mediahost"));
    const home = join(root, `home-${++homes}`);
    await mkdir(home);
    return {
      dir,
      env: {
        ...options.env,
        ...store.awsEnv(root),
        PULUMI_BACKEND_URL: store.backendUrl(prefix),
        PULUMI_HOME: home,
      },
    };
  };
  const site = (account: Account, i: number) => `${account.alias}-${String(i).padStart(2, "0")}`;

  // one stack per account with the real CLI, one after another: set up three at once, versitygw once
  // answered a lock's PutObject with a 409 (likely its making the same parent folders concurrently)
  const setup = await runner();
  const pulumi = async (args: string[]) => {
    const r = await run("pulumi", [...args, "--non-interactive"], setup.dir, setup.env);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
  };
  for (const account of accounts) {
    const first = site(account, 0);
    const stack = `fleet-${first}`;
    await pulumi(["stack", "init", stack, "--secrets-provider", "passphrase"]);
    for (const [key, value] of [
      ["mediahost:baseUrl", baseUrl],
      ["mediahost:clientId", account.clientId],
      ["site", first],
      ["manageSettings", "false"],
    ])
      await pulumi(["config", "set", "--stack", stack, key as string, value as string]);
    await pulumi([
      "config",
      "set",
      "--stack",
      stack,
      "--secret",
      "mediahost:clientSecret",
      account.clientSecret,
    ]);
    await pulumi(["up", "--yes", "--skip-preview", "--stack", stack]);
    committed[`Pulumi.${stack}.yaml`] = await readFile(join(setup.dir, `Pulumi.${stack}.yaml`), "utf8");
  }

  // the others: the first stack's checkpoint and config under another name (a site name such as
  // "eu-00" appears in no ciphertext: those are base64), and their objects made through the API
  const stacks: FleetStack[] = [];
  for (const account of accounts) {
    const first = site(account, 0);
    const key = (s: string) => `${prefix}/.pulumi/stacks/${PROJECT}/fleet-${s}.json`;
    const checkpoint = await store.get(key(first));
    if (!checkpoint) throw new Error(`no checkpoint of fleet-${first} in the bucket`);
    const config = committed[`Pulumi.fleet-${first}.yaml`] ?? "";
    const api = new MediahostClient({
      baseUrl,
      clientId: account.clientId,
      clientSecret: account.clientSecret,
    });
    const aliases: Record<string, { prefix: string; cdn: boolean }> = {};
    stacks.push({ name: `fleet-${first}`, site: first, account: account.alias });
    for (let i = 1; i < perAccount; i++) {
      const s = site(account, i);
      await store.put(key(s), checkpoint.replaceAll(first, s));
      committed[`Pulumi.fleet-${s}.yaml`] = config.replaceAll(first, s);
      await api.ops.mkdir({ query: { dirname: `/${s}` } });
      await api.ops.mkdir({ query: { dirname: `/${s}/banners` } });
      await api.ops.setTitle({ query: { filename: `/${s}/banners` }, body: { title: "Banners" } });
      await api.ops.addTags({ query: { filename: `/${s}/banners` }, body: { tags: ["campaigns"] } });
      aliases[s] = { prefix: `/${s}`, cdn: true };
      stacks.push({ name: `fleet-${s}`, site: s, account: account.alias });
    }
    if (Object.keys(aliases).length > 0) await api.ops.updateAccount({ body: { aliases } });
  }

  const drift = join(repoRoot, "dist/tools/drift.js");
  return {
    stacks,
    runner,
    async shards(n, args = []) {
      const runners = await Promise.all(Array.from({ length: n }, () => runner()));
      const started = Date.now();
      const runs = await Promise.all(
        runners.map((r, k) =>
          run(
            process.execPath,
            [drift, "--all-stacks", "--shard", `${k + 1}/${n}`, "--cwd", r.dir, ...args],
            r.dir,
            r.env,
          ),
        ),
      );
      const seconds = (Date.now() - started) / 1000;
      for (const r of runners) await rm(r.dir, { recursive: true, force: true });
      return { runs, seconds };
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}
