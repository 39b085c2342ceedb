// Killing a `pulumi` CLI mid-run as a cancelled CI job is killed: with everything it started. Pulumi
// starts plugins in process groups of their own, so the CLI's group alone would leave the provider
// process running past the test.
import { readdirSync, readFileSync } from "node:fs";
import { type Mutation, Store } from "../../../emulator/state";

/** The fields of /proc/<pid>/stat after the command name, which is in parentheses and may hold spaces. */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Every process below `pid` (children, their children, ...), read from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parentOf.set(Number(entry), Number(statFields(entry)[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [child, parent] of parentOf) {
      if (parent === current) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function processGroupOf(pid: number): number | undefined {
  try {
    return Number(statFields(pid)[2]);
  } catch {
    return undefined;
  }
}

/** SIGKILL to the process group of `pid` and to the group of every process below it. */
export function killWithPlugins(pid: number): void {
  const groups = new Set([pid, ...descendants(pid).map(processGroupOf)]);
  for (const group of groups) if (group) process.kill(-group, "SIGKILL");
}

/**
 * Calls `act` the moment the in-process emulator has applied a change that `when` picks, before it
 * answers: the engine cannot have heard back about that call, so its resource's create is still
 * pending when `act` kills the run. Returns the function that stops watching.
 */
export function onApplied(when: (m: Mutation) => boolean, act: () => void): () => void {
  const commit = Store.prototype.commit;
  Store.prototype.commit = async function (m) {
    await commit.call(this, m);
    if (when(m)) act();
  };
  return () => {
    Store.prototype.commit = commit;
  };
}
