// What `npm run bench -- --account real` reports (docs/benchmark.md, "A real account: 6,537
// files"): the account's census, each step's floor (the fewest API calls the API allows), the
// calls by rate-limit counter and their share of each counter's hourly budget. Pure: no I/O.
import { counterLimits, GLOBAL_COUNTER, type OperationName, operations } from "mediahost-contract";
import { type Calls, type Face, table, total } from "./report";
import type { CpuSeconds } from "./setup";

export type RealStep = "generate" | "import" | "up" | "previewRefresh" | "drift";
export const REAL_STEPS: RealStep[] = ["generate", "import", "up", "previewRefresh", "drift"];
export const REAL_STEP_LABEL: Record<RealStep, string> = {
  generate: "mediahost-generate --files",
  import: "pulumi import --file",
  up: "pulumi up (adopt)",
  previewRefresh: "preview --refresh",
  drift: "mediahost-drift",
};

/** What a step's floor depends on: the account as the emulator holds it. */
export interface AccountCensus {
  /** Entries of every folder outside the system folders, the root included (paths as keys). */
  entries: Record<string, number>;
  /** Files outside the system folders. */
  files: number;
  /** The image profiles (`/Profiles/*.profile`), which generate reads and declares as files. */
  profiles: number;
  /** Files (outside the system folders) with meta; and folders (the root included) with meta. */
  metaFiles: number;
  metaFolders: number;
  /** Folders (the root included) with options set. */
  optionFolders: number;
  /** Files with points of interest, and their points. */
  pointFiles: number;
  points: number;
}

/** A state entry of the emulator's control surface (docs/emulator-control.md). */
interface StateEntry {
  path: string;
  isDirectory: boolean;
}

const isSystem = (path: string) => /^\/(\.Trash|\.processed|\.well-known|Profiles|Shared)(\/|$)/.test(path);
const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";

/**
 * The census of an account from the emulator's state (tree, meta, options) and the points by file
 * (the state does not show points: the seed's plan does).
 */
export function censusOf(
  state: { tree: StateEntry[]; meta: Record<string, unknown>; options: Record<string, unknown> },
  pointsByFile: Record<string, number>,
): AccountCensus {
  const entries: Record<string, number> = { "/": 0 };
  const dirs = new Set(["/"]);
  for (const e of state.tree) if (e.isDirectory && !isSystem(e.path)) dirs.add(e.path);
  for (const d of dirs) entries[d] ??= 0;
  let files = 0;
  let profiles = 0;
  for (const e of state.tree) {
    const parent = parentOf(e.path);
    if (dirs.has(parent)) entries[parent] = (entries[parent] as number) + 1;
    if (e.isDirectory) continue;
    if (!isSystem(e.path)) files++;
    else if (/^\/Profiles\/[^/]+\.profile$/.test(e.path)) profiles++;
  }
  const own = (path: string) => !isSystem(path);
  const metaPaths = Object.keys(state.meta).filter(own);
  return {
    entries,
    files,
    profiles,
    metaFiles: metaPaths.filter((p) => !dirs.has(p)).length,
    metaFolders: metaPaths.filter((p) => dirs.has(p)).length,
    optionFolders: Object.keys(state.options).filter(own).length,
    pointFiles: Object.values(pointsByFile).filter((n) => n > 0).length,
    points: Object.values(pointsByFile).reduce((a, b) => a + b, 0),
  };
}

/** `readdir` pages of a listing of `entries` entries: 100 a page, one for an empty folder. */
export const pagesOf = (entries: number) => Math.max(1, Math.ceil(entries / 100));

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** What `pulumi import --file` takes, by kind, and the folders holding its Folders and Files. */
export interface ImportCensus {
  byKind: Record<string, number>;
  /** Folders whose listings show the imported Folders and Files (each imported one's parent). */
  parents: string[];
  /** Files with points in the document. */
  pointFiles: number;
}

export function importCensusOf(resources: { type: string; id: string }[]): ImportCensus {
  const byKind: Record<string, number> = {};
  const parents = new Set<string>();
  const pointFiles = new Set<string>();
  for (const r of resources) {
    const kind = r.type.split(":").pop() as string;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (kind === "Folder" || kind === "File") parents.add(parentOf(r.id));
    if (kind === "PointOfInterest") pointFiles.add(r.id.slice(0, r.id.lastIndexOf("#")));
  }
  return { byKind, parents: [...parents].sort(), pointFiles: pointFiles.size };
}

/**
 * The fewest calls each step needs on this account (docs/benchmark.md, "A real account"):
 *   generate (every folder, --files): 1 token + 1 account read + every folder's listing (the root
 *     and /Profiles too; a page per 100 entries, one for an empty folder) + per folder (the root
 *     too) 1 getFolderOptions and 1 getMeta (no listing carries them) + per file (the profiles
 *     too) 1 getMeta, 1 getPoi (no listing or search hit says which files have any: search hits
 *     carry no title or tags, docs/api.md#search) and 1 download (its copy beside the program).
 *   import (native face): 1 token + 1 account read (settings and the alias) + the listing of each
 *     imported Folder's and File's parent + per File 1 download (its content becomes code) + per
 *     FolderOptions 1 getFolderOptions + per FolderMeta 1 getMeta + per file with points 1 getPoi.
 *   up adopting everything: 1 token + 1 account read + the listing of every folder holding a
 *     declared folder or file + per file 1 download (whether its bytes match: the API offers no
 *     content hash, docs/api.md#uploads-and-fetches) + per FolderOptions 1 getFolderOptions + per
 *     FolderMeta 1 getMeta + per file with points 1 getPoi; no write, as nothing differs.
 *   preview --refresh and mediahost-drift (a refresh preview): the same without the downloads
 *     (a listing's size and mtime tell a file unchanged).
 */
export function realFloor(step: RealStep, c: AccountCensus, imported?: ImportCensus): Calls {
  const folders = Object.keys(c.entries);
  const holding = folders.filter((f) => (c.entries[f] as number) > 0);
  const listings = (of: string[]) => sum(of.map((f) => pagesOf(c.entries[f] ?? 0)));
  switch (step) {
    case "generate":
      return {
        token: 1,
        getAccount: 1,
        readdir: listings(folders) + pagesOf(c.profiles),
        getFolderOptions: folders.length,
        getMeta: folders.length + c.files + c.profiles,
        getPoi: c.files + c.profiles,
        download: c.files + c.profiles,
        // the reads are planned against the account's rate budget first (tools/lib/pacer.ts)
        getLimits: 1,
      };
    case "import": {
      const k = imported?.byKind ?? {};
      return {
        token: 1,
        getAccount: 1,
        readdir: listings(imported?.parents ?? []),
        download: k.File ?? 0,
        getFolderOptions: k.FolderOptions ?? 0,
        getMeta: k.FolderMeta ?? 0,
        getPoi: imported?.pointFiles ?? 0,
      };
    }
    case "up":
    case "previewRefresh":
    case "drift":
      return {
        token: 1,
        getAccount: 1,
        readdir: listings(holding) + (c.profiles > 0 ? pagesOf(c.profiles) : 0),
        ...(step === "up" ? { download: c.files + c.profiles } : {}),
        getFolderOptions: c.optionFolders,
        getMeta: c.metaFiles + c.metaFolders,
        getPoi: c.pointFiles,
        // mediahost-drift reads the counters before the check (its plan) and after (what it cost),
        // with a token of its own
        ...(step === "drift" ? { token: 2, getLimits: 2 } : {}),
      };
  }
}

/**
 * Calls by rate-limit counter: every authenticated call counts `rest:global`, and the counters
 * the operation table names (contract/operations.ts) besides; the token request counts none.
 * Counters that depend on a body (an account update that sets fetching) are counted without it.
 */
export function countersOf(calls: Calls): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [op, n] of Object.entries(calls)) {
    const spec = operations[op as OperationName];
    if (!spec || ("auth" in spec && spec.auth === false)) continue;
    const specific = "counters" in spec && spec.counters ? spec.counters({ query: {}, body: {} }) : [];
    for (const counter of [GLOBAL_COUNTER, ...specific]) out[counter] = (out[counter] ?? 0) + n;
  }
  return out;
}

/** Each counter's calls as a share of its hourly limit (docs/api.md#rate-limits): 1 = a whole hour. */
export function budgetShares(counters: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [counter, n] of Object.entries(counters)) {
    const limit = counterLimits[counter];
    if (limit !== undefined) out[counter] = n / limit;
  }
  return out;
}

export interface RealStepResult {
  ms: number;
  /** Peak RSS of the provider process (0 for a step that runs none: generate, drift's own process). */
  providerRssBytes: number;
  cpu?: CpuSeconds;
  calls: Calls;
  floor: Calls;
  counters: Record<string, number>;
  floorCounters: Record<string, number>;
  /** Calls / hourly limit, by counter. */
  shares: Record<string, number>;
  /** What the step printed that says it worked (resources, drift found), in a line. */
  note?: string;
}

export interface RealAccountReport {
  face: Face;
  files: number;
  census: AccountCensus;
  /** Resources the generated program declares. */
  resources: number;
  /** Start of the in-process emulator, seeding included. */
  seedMs: number;
  /** What the bench process's RSS grew by over that start (the emulator runs in it). */
  emulatorRssBytes: number;
  steps: Partial<Record<RealStep, RealStepResult>>;
}

/** The bench's trivial dynamic resources at the generated program's size (scripts/bench/program.ts). */
export interface RealBaseline {
  resources: number;
  up: { ms: number; providerRssBytes: number; cpu?: CpuSeconds };
  previewRefresh: { ms: number; providerRssBytes: number; cpu?: CpuSeconds };
}

/** The baseline's line: its times, and each face's against them. */
export function renderBaseline(b: RealBaseline, accounts: RealAccountReport[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const ratio = (step: "up" | "previewRefresh") =>
    accounts
      .filter((a) => a.steps[step])
      .map((a) => `${a.face} ${((a.steps[step] as RealStepResult).ms / b[step].ms).toFixed(2)}`)
      .join(", ");
  return (
    `\nBaseline: the bench's trivial dynamic resources (0 ms), ${b.resources} of them: up ${s(b.up.ms)} ` +
    `(against it: ${ratio("up")}), preview --refresh ${s(b.previewRefresh.ms)} (${ratio("previewRefresh")}); ` +
    `provider RSS ${(Math.max(b.up.providerRssBytes, b.previewRefresh.providerRssBytes) / 1048576).toFixed(0)} MiB\n`
  );
}

const percent = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;

/** The share of each counter a step used, as `counter calls (share)`. */
function sharesText(s: RealStepResult): string {
  return Object.keys(s.counters)
    .sort()
    .map((c) => `${c} ${s.counters[c]} (${percent(s.shares[c] ?? 0)})`)
    .join(", ");
}

export function renderReal(r: RealAccountReport, diff: (a: Calls, b: Calls) => string): string {
  const c = r.census;
  const out = [
    "",
    `A real account (${r.face === "ours" ? "ours, the dynamic face" : "the native face"}): ${c.files} files in ` +
      `${Object.keys(c.entries).length - 1} folders, ${c.metaFiles} with meta, ${c.pointFiles} with ${c.points} points, ` +
      `${c.optionFolders} folders with options and ${c.metaFolders} with meta; ${r.resources} resources generated ` +
      `(the emulator started and seeded in ${r.seedMs} ms, in the bench's process: RSS +${(r.emulatorRssBytes / 1048576).toFixed(0)} MiB)`,
  ];
  const steps = REAL_STEPS.filter((s) => r.steps[s]);
  out.push(
    table(
      ["step", "s", "provider RSS MiB", "calls", "floor", "differs from floor (calls/floor)"],
      steps.map((step) => {
        const s = r.steps[step] as RealStepResult;
        return [
          REAL_STEP_LABEL[step],
          (s.ms / 1000).toFixed(1),
          s.providerRssBytes ? (s.providerRssBytes / 1048576).toFixed(0) : "-",
          String(total(s.calls)),
          String(total(s.floor)),
          diff(s.calls, s.floor),
        ];
      }),
    ),
  );
  for (const step of steps) {
    const s = r.steps[step] as RealStepResult;
    out.push(
      `  ${REAL_STEP_LABEL[step]}: of the hourly budgets ${sharesText(s)}${s.note ? `; ${s.note}` : ""}`,
    );
  }
  return `${out.join("\n")}\n`;
}
