// A local file backend (`file://…`) left unreadable by a killed `pulumi` process: gocloud's fileblob
// writes a checkpoint's `.attrs` side file in place, and a SIGKILL in that moment leaves it empty.
// Every command then fails with "failed to load checkpoint: EOF". The file only carries blob
// attributes, so removing an empty one is the repair (docs/reliability.md).
import { readdir, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The directory of a `file://` backend URL, or undefined for any other backend. */
export function fileBackendDir(url: string | undefined): string | undefined {
  if (!url?.startsWith("file://")) return undefined;
  const rest = url.slice("file://".length);
  if (rest === "~" || rest.startsWith("~/")) return join(homedir(), rest.slice(1));
  return rest.startsWith("/") ? fileURLToPath(url) : rest;
}

/** Removes the empty `.attrs` files of `stack`'s checkpoints under the backend's directory; returns them. */
export async function repairEmptyAttrs(dir: string, stack: string): Promise<string[]> {
  const name = stack.split("/").pop() ?? stack;
  const root = join(dir, ".pulumi", "stacks");
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  const removed: string[] = [];
  for (const e of entries) {
    if (!e.isFile() || !e.name.startsWith(`${name}.json`) || !e.name.endsWith(".attrs")) continue;
    const file = join(e.parentPath, e.name);
    if ((await stat(file)).size !== 0) continue;
    await rm(file);
    removed.push(file);
  }
  return removed;
}
