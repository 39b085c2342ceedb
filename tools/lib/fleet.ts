// Checking several stacks in one run: a bound on how many run at once, and each account's budget
// shared — stacks that reach the same account take turns, so one account's rate-limit counters see
// one refresh at a time while stacks of other accounts run beside it.
import { resolveAccounts } from "../../provider/config";

/** The accounts a stack's config reaches, as keys (base URL and client id; never a secret). */
export function accountKeys(config: Record<string, string>, env: NodeJS.ProcessEnv): string[] {
  const accounts = resolveAccounts({ config: (key) => config[key], env });
  const keys = [...accounts.values()].flatMap((c) =>
    c instanceof Error ? [] : [`${c.baseUrl} ${c.clientId}`],
  );
  return [...new Set(keys)];
}

export interface FleetTask<T> {
  /** What the task holds while it runs: no two tasks holding a key run at once. */
  keys: string[];
  run(): Promise<T>;
}

/** Runs every task, at most `concurrency` at once and one per key; results in the tasks' order. */
export function runFleet<T>(tasks: FleetTask<T>[], concurrency: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  const held = new Set<string>();
  const waiting = tasks.map((task, index) => ({ task, index }));
  let running = 0;
  return new Promise((resolve, reject) => {
    const next = () => {
      if (waiting.length === 0 && running === 0) return resolve(results);
      for (let i = 0; i < waiting.length && running < concurrency; ) {
        const { task, index } = waiting[i]!;
        if (task.keys.some((k) => held.has(k))) {
          i++;
          continue;
        }
        waiting.splice(i, 1);
        running++;
        for (const k of task.keys) held.add(k);
        task.run().then((result) => {
          results[index] = result;
          running--;
          for (const k of task.keys) held.delete(k);
          next();
        }, reject);
      }
    };
    next();
  });
}
