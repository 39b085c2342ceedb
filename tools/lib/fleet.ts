// Checking several stacks in one run: a bound on how many run at once, and each account's budget
// shared — stacks that reach the same account take turns, so one account's rate-limit counters see
// one refresh at a time while stacks of other accounts run beside it.
import { Mutex, Semaphore } from "async-mutex";
import { type Credentials, resolveAccounts } from "../../provider/for-tools";

/** An account a stack's config names: its key (base URL and client id; never a secret) and credentials. */
export interface NamedAccount {
  key: string;
  credentials: Credentials;
}

/** The accounts a stack's config names, by the name resources give (`default` for the provider's own). */
export function accountsOf(
  config: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Map<string, NamedAccount> {
  const accounts = resolveAccounts({ config: (key) => config[key], env });
  return new Map(
    [...accounts].flatMap(([name, c]) =>
      c instanceof Error ? [] : [[name, { key: `${c.baseUrl} ${c.clientId}`, credentials: c }] as const],
    ),
  );
}

/** The accounts a stack's config reaches, as keys. */
export function accountKeys(config: Record<string, string>, env: NodeJS.ProcessEnv): string[] {
  return [...new Set([...accountsOf(config, env).values()].map((a) => a.key))];
}

export interface FleetTask<T> {
  /** What the task holds while it runs: no two tasks holding a key run at once. */
  keys: string[];
  run(): Promise<T>;
}

/** Runs every task, at most `concurrency` at once and one per key; results in the tasks' order. */
export function runFleet<T>(tasks: FleetTask<T>[], concurrency: number): Promise<T[]> {
  const slots = new Semaphore(concurrency);
  const locks = new Map<string, Mutex>();
  const lockOf = (key: string) => {
    if (!locks.has(key)) locks.set(key, new Mutex());
    return locks.get(key)!;
  };
  // a task takes its keys first (in one order, so two tasks never wait on each other), then a
  // slot: one waiting for a key holds no slot another task could use
  const holding = async <R>(keys: string[], work: () => Promise<R>): Promise<R> => {
    const [first, ...rest] = keys;
    if (first === undefined) return work();
    return lockOf(first).runExclusive(() => holding(rest, work));
  };
  return Promise.all(
    tasks.map((task) => holding([...new Set(task.keys)].sort(), () => slots.runExclusive(() => task.run()))),
  );
}

export interface Shard {
  k: number;
  n: number;
}

/** `K/N` with 1 <= K <= N, as `--shard` takes it. */
export function parseShard(spec: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(spec.trim());
  const k = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || n < 1 || k < 1 || k > n) throw new Error(`--shard must be K/N with 1 <= K <= N, got "${spec}"`);
  return { k, n };
}

/**
 * The stacks of shard K of N: sorted by name, every N-th from the K-th. Runners that list the same
 * stacks split them with none checked twice and none left out, the shards' sizes within one.
 */
export function shardOf(names: string[], { k, n }: Shard): string[] {
  return [...names].sort().filter((_, i) => i % n === k - 1);
}
