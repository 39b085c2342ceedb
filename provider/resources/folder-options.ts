// FolderOptions: the three options of one folder. Only the keys given are managed; the service
// returns only keys that are set, so a managed key missing on read is drift ("not set here").
// Whether a POST merges keys or replaces the set is not documented (docs/api.md#folder-options), so
// a write sends the whole set: the folder's options read just before, with the managed ones changed
// — right under either rule, never dropping an option the program does not manage — and reads them
// back a round trip after (provider/account/read-back.ts; at once for a folder this run made, which
// no one else writes yet), writing again what another writer undid. Writes of one folder's options
// never interleave within the process. Delete leaves the options as they are: they go with their
// folder, which is usually deleted next, and unsetting them would cost three calls per folder on
// every destroy (and is impossible if the service merges the set). An adopted resource puts back
// what it found; a service that merges the set cannot unset a key, which delete then says.

import { schemas } from "mediahost-contract";
import { z } from "zod";
import { readBackPause, rewritePause } from "../account/read-back";
import { ProviderError } from "../errors";
import { Ref } from "./example";
import { defineKind, type KindContext } from "./kind";
import { WritablePath } from "./schema";
import { treeOf } from "./tree";

type Key = keyof z.infer<typeof schemas.FolderOptions>;
const KEYS = Object.keys(schemas.FolderOptions.shape) as Key[];
type Values = Partial<Record<Key, boolean>>;
/** What a write asks for: a value to set, or `null` to unset. */
type Changes = Partial<Record<Key, boolean | null>>;

/** Times a write is repeated when another writer keeps undoing it. */
const MAX_ROUNDS = 5;

const inputs = z
  .strictObject({
    /** The folder's absolute path (at most 1024 characters). Changing it replaces the resource. */
    path: WritablePath,
    /** Detect 360 spins in the folder. */
    scanSpins: z.boolean().optional(),
    /** Name detected spins after the folder. */
    nameSpinsAfterFolder: z.boolean().optional(),
    /** Allow public listing of the folder. */
    allowListing: z.boolean().optional(),
    /** Take over options that are set already instead of failing; on delete they are put back as found. */
    adopt: z.boolean().optional(),
  })
  .refine((i) => KEYS.some((k) => i[k] !== undefined), {
    message: `set at least one of ${KEYS.join(", ")}`,
    path: ["scanSpins"],
  });

function managed(values: Values): Changes {
  return Object.fromEntries(KEYS.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}

async function liveOptions(ctx: KindContext, path: string): Promise<Values> {
  const live = await ctx.client.ops.getFolderOptions({ query: { filename: path } });
  return Object.fromEntries(KEYS.filter((k) => typeof live[k] === "boolean").map((k) => [k, live[k]]));
}

const holds = (live: Values, changes: Changes) =>
  Object.entries(changes).every(([k, v]) =>
    v === null ? live[k as Key] === undefined : live[k as Key] === v,
  );

/**
 * Writes `changes` on top of the folder's options, read just before (`known` when this process
 * knows them already: a folder it just created has none), and reads them back. Returns the keys
 * the service kept although the write unset them (it merges the set).
 */
async function write(ctx: KindContext, path: string, changes: Changes, known?: Values): Promise<Key[]> {
  for (let round = 1; ; round++) {
    const fresh = round === 1 && known !== undefined;
    const live = fresh ? known : await liveOptions(ctx, path);
    const body: Values = { ...live };
    for (const [k, v] of Object.entries(changes) as [Key, boolean | null][]) {
      if (v === null) delete body[k];
      else body[k] = v;
    }
    const started = Date.now();
    await ctx.client.ops.setFolderOptions({ query: { filename: path }, body });
    // a folder this run just made has no other writer yet (its options were not even read first):
    // read back at once; otherwise give a competing write from an older read the time to land
    if (!fresh) await new Promise((r) => setTimeout(r, readBackPause(Date.now() - started)));
    const after = await liveOptions(ctx, path);
    if (holds(after, changes)) return [];
    const sets = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== null));
    const kept = (Object.keys(changes) as Key[]).filter((k) => changes[k] === null && after[k] !== undefined);
    // what was set holds and only unset keys stayed: the service merges the set and cannot unset
    if (holds(after, sets) && kept.length > 0) return kept;
    if (round >= MAX_ROUNDS) {
      throw new ProviderError(
        `another writer kept overwriting the options of ${path} (written ${round} times, each time undone by a ` +
          "write made from an older read); run `pulumi up` again",
      );
    }
    await new Promise((r) => setTimeout(r, rewritePause(Math.random)));
  }
}

export const folderOptions = defineKind({
  name: "FolderOptions",
  inputs,
  outputs: {},
  replaceOn: ["path"],
  // it sits at its path: when the folder holding it moves, it follows
  tree: { location: "path", belongsTo: "path" },
  id: (i) => i.path,
  importing: { identity: (path) => ({ path }), id: { form: "the folder's path", example: "/products" } },
  docs: {
    summary:
      "The options of one folder. Only the options given are managed; deleting leaves them (they go with the folder).",
    properties: "`path`, `scanSpins`, `nameSpinsAfterFolder`, `allowListing`, `adopt`",
    delete: "leaves the options (they go with the folder); an adopted resource puts back what it found",
    drift: "each managed option; one no longer set reads as unset",
    example: {
      title: "Detect 360 spins in a folder",
      name: "products-options",
      before: [{ kind: "Folder", name: "products", args: { path: "/products" } }],
      args: { path: new Ref("products", "path"), scanSpins: true },
    },
  },

  async create(ctx, options) {
    const { path } = options;
    const fresh = treeOf(ctx.account).takeFresh("options", path);
    await ctx.account.serial(`options ${path}`, async () => {
      const live = fresh ? {} : await liveOptions(ctx, path);
      const taken = KEYS.filter((k) => options[k] !== undefined && live[k] !== undefined);
      if (taken.length > 0) {
        ctx.found(`its options (${taken.join(", ")})`, Object.fromEntries(taken.map((k) => [k, live[k]])));
      }
      // taken over as declared already: nothing to write
      if (!fresh && holds(live, managed(options))) return;
      await write(ctx, path, managed(options), live);
    });
    return {};
  },

  refreshReads: (olds) => [{ operation: "getFolderOptions", key: olds.path }],

  async read(ctx, olds, scope) {
    const live = await liveOptions(ctx, olds.path);
    // the managed keys (one no longer set reads as unset), or for an import every key set
    const keys = KEYS.filter((k) => (scope === "all" ? live[k] !== undefined : olds[k] !== undefined));
    if (scope === "all" && keys.length === 0) {
      throw new ProviderError(`${olds.path} has no options set: there is nothing to import`);
    }
    return Object.fromEntries(keys.map((k) => [k, live[k]]));
  },

  async update(ctx, olds, news) {
    const changes = Object.fromEntries(
      Object.entries(managed(news)).filter(([k, v]) => olds[k as Key] !== v),
    ) as Changes;
    if (Object.keys(changes).length > 0) {
      await ctx.account.serial(`options ${news.path}`, () => write(ctx, news.path, changes));
    }
    return {};
  },

  async delete(ctx, olds) {
    if (ctx.containerLeaving) {
      // the folder is being moved away: the options go with it, or stay with it if its delete fails
      ctx.keep("left with its folder, which this run moves");
      return;
    }
    if (!olds.__adopted) return;
    const prior = (olds.__adopted.prior ?? {}) as Values;
    const changes: Changes = Object.fromEntries(
      KEYS.filter((k) => olds[k] !== undefined).map((k) => [k, prior[k] ?? null]),
    );
    const kept = await ctx.account.serial(`options ${olds.path}`, () => write(ctx, olds.path, changes));
    if (kept.length > 0) {
      ctx.warn(
        `FolderOptions ${olds.path}: the service kept ${kept.join(", ")} although the options were written without ` +
          "them (it merges the set, and the API has no way to unset an option); they stay as they are",
      );
    }
  },
});
