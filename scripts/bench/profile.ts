// Where a provider process spends its CPU: `npm run bench -- --cpu-prof DIR` runs every CLI step
// of ours and the native face with NODE_OPTIONS=--cpu-prof, so each Node.js process the step
// starts (language host, program, provider) writes a V8 profile into DIR/<stack>-<step>/. This
// module finds the provider's profile among them (the one whose code includes the dynamic
// provider's entry point or our plugin's) and ranks its functions by self time. Profiling slows
// every process it watches, so a profiled run's times are not the benchmark's.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface HotFunction {
  /** `name (file:line)`, the file relative to node_modules or the package where it can be. */
  name: string;
  selfMs: number;
  /** Share of the process's busy (not idle) time, in percent. */
  percent: number;
}

export interface ProfileSummary {
  file: string;
  /** Sampled time of the process (its whole life), ms. */
  totalMs: number;
  /** Time the process was idle (waiting on I/O), ms. */
  idleMs: number;
  top: HotFunction[];
  /**
   * Busy time by the package of the nearest frame up the stack that is a file of a package
   * (Node.js's own frames and the garbage collector count for the code that called them), so
   * loading a module counts for the package that required it.
   */
  byPackage: { name: string; ms: number }[];
}

const PROVIDER_ENTRY = /cmd\/dynamic-provider|provider\/native\/main\.js/;

/** The provider process's profile in `dir`, summarized, or undefined when none is there. */
export function providerProfile(dir: string, top = 15): ProfileSummary | undefined {
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const file = join(dir, name);
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    if (profile.nodes.some((n) => PROVIDER_ENTRY.test(n.callFrame.url))) return summarize(file, profile, top);
  }
  return undefined;
}

/** Self time per function (merged over the call tree's nodes of the same function). */
export function summarize(file: string, profile: CpuProfile, top: number): ProfileSummary {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const packageOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byNode.get(at)?.callFrame.url ?? "";
      if (url.startsWith("file://")) return packageName(url);
    }
    return "(node.js, gc, idle)";
  };
  const packages = new Map<string, number>();
  const self = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    totalUs += dt;
    const node = byNode.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") {
      idleUs += dt;
      return;
    }
    const key = `${functionName || "(anonymous)"} (${shortUrl(url)}${url ? `:${lineNumber + 1}` : ""})`;
    self.set(key, (self.get(key) ?? 0) + dt);
    const pkg = functionName === "(garbage collector)" ? "(garbage collector)" : packageOf(id);
    packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
  });
  const busyUs = Math.max(1, totalUs - idleUs);
  return {
    file,
    totalMs: Math.round(totalUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    top: [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        selfMs: Math.round(us / 1000),
        percent: Math.round((1000 * us) / busyUs) / 10,
      })),
    byPackage: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000) })),
  };
}

/** `@scope/name` or `name` under the last node_modules, our own files as `pulumi-mediahost`. */
function packageName(url: string): string {
  const path = url.replace(/^file:\/\//, "");
  const at = path.lastIndexOf("/node_modules/");
  if (at < 0) return path.includes("/dist/") ? "pulumi-mediahost" : path;
  const [first, second] = path.slice(at + "/node_modules/".length).split("/");
  return first?.startsWith("@") ? `${first}/${second}` : (first as string);
}

function shortUrl(url: string): string {
  if (!url) return "native";
  const path = url.replace(/^file:\/\//, "");
  const modules = path.lastIndexOf("/node_modules/");
  return modules >= 0 ? path.slice(modules + "/node_modules/".length) : path;
}

/** The summary as lines of text: busy time, then the top functions by self time. */
export function renderProfile(title: string, s: ProfileSummary): string {
  const busy = s.totalMs - s.idleMs;
  return [
    `${title}: ${busy} ms busy of ${s.totalMs} ms (${s.file})`,
    ...s.top.map((f) => `  ${String(f.selfMs).padStart(6)} ms ${String(f.percent).padStart(5)}%  ${f.name}`),
    "  by package (the nearest package frame up the stack):",
    ...s.byPackage.slice(0, 12).map((p) => `  ${String(p.ms).padStart(6)} ms  ${p.name}`),
  ].join("\n");
}

// `node dist/scripts/bench/profile.js DIR...`: the summary of the provider's profile in each DIR
if (require.main === module) {
  for (const dir of process.argv.slice(2)) {
    const summary = providerProfile(dir);
    process.stdout.write(`${summary ? renderProfile(dir, summary) : `${dir}: no provider profile`}\n`);
  }
}
