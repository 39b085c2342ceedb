// The benchmark's surroundings: the real Pulumi CLI (scripts/toolchain/provision.sh), a temporary
// project outside the repository in which pulumi-mediahost is INSTALLED as a user gets it (so
// `__provider` is the tiny `require("pulumi-mediahost/dist/sdk/providers/<kind>.js")`), a file
// backend, and a sampler of the provider process's memory (the dynamic provider's, or the plugin's).
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { baselineModule, MIN_CALLS, PROGRAM } from "./program";

/** The repository: dist/scripts/bench/setup.js lives three levels below it. */
export const repoRoot = resolve(__dirname, "../../..");
export const PASSPHRASE = "mediahost-bench";

export interface Toolchain {
  pulumi: string;
  env: Record<string, string>;
}

export async function provisionToolchain(): Promise<Toolchain> {
  const script = join(repoRoot, "scripts/toolchain/provision.sh");
  const stdout = await new Promise<string>((res, rej) =>
    execFile("bash", [script], { cwd: repoRoot, maxBuffer: 64 << 20 }, (err, out, errOut) =>
      err ? rej(new Error(`${script} failed:\n${errOut}`)) : res(out),
    ),
  );
  const binDirs = stdout.trim().split(delimiter).filter(Boolean);
  const path = [...binDirs, join(repoRoot, "node_modules/.bin"), process.env.PATH ?? ""].join(delimiter);
  const dir = path.split(delimiter).find((d) => d && existsSync(join(d, "pulumi")));
  if (!dir) throw new Error(`no pulumi in ${binDirs.join(", ")} or on PATH`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, {
    PATH: path,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
  });
  return { pulumi: join(dir, "pulumi"), env };
}

export interface Workspace {
  dir: string;
  projectDir: string;
  stateDir: string;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

/**
 * A project in a temporary directory whose node_modules holds a copy of this package (dist/ and
 * package.json, as `npm pack` would ship them) and symlinks to the repository's installed
 * dependencies, and a file backend beside it.
 */
export async function createWorkspace(toolchain: Toolchain): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), "mediahost-bench-"));
  const projectDir = join(dir, "project");
  const stateDir = join(dir, "state");
  const home = join(dir, "home");
  const modules = join(projectDir, "node_modules");
  await mkdir(modules, { recursive: true });
  await mkdir(stateDir);
  await mkdir(home);
  const repoModules = join(repoRoot, "node_modules");
  for (const entry of await readdir(repoModules)) {
    if (entry === ".bin" || entry.startsWith(".")) continue;
    await symlink(join(repoModules, entry), join(modules, entry));
  }
  const pkg = join(modules, "pulumi-mediahost");
  // MEDIAHOST_BENCH_PACKAGE: another build's checkout (built: its dist/), to measure or profile it
  // beside this one with the same harness; its dependencies are this checkout's
  const from = process.env.MEDIAHOST_BENCH_PACKAGE || repoRoot;
  await mkdir(join(pkg, "dist"), { recursive: true });
  for (const part of ["provider", "sdk"]) {
    await cp(join(from, "dist", part), join(pkg, "dist", part), {
      recursive: true,
      filter: (src) => !src.endsWith(".map"),
    });
  }
  await cp(join(from, "package.json"), join(pkg, "package.json"));
  // a build from before the native face has no plugin: the folder Pulumi.yaml names stays empty
  if (existsSync(join(from, "plugin")))
    await cp(join(from, "plugin"), join(pkg, "plugin"), { recursive: true });
  else await mkdir(join(pkg, "plugin"));
  const baseline = join(modules, "bench-baseline");
  await mkdir(baseline);
  await writeFile(join(baseline, "package.json"), '{ "name": "bench-baseline", "version": "1.0.0" }\n');
  for (const kind of Object.keys(MIN_CALLS) as (keyof typeof MIN_CALLS)[])
    await writeFile(join(baseline, `${kind}.js`), baselineModule(kind));
  await writeFile(join(projectDir, "index.js"), PROGRAM);
  await writeFile(
    join(projectDir, "Pulumi.yaml"),
    // the native face's plugin, found the way the README tells users (the dynamic face never asks for it)
    "name: mediahost-bench\nruntime: nodejs\ndescription: pulumi-mediahost benchmark\n" +
      "plugins:\n  providers:\n    - name: mediahost\n      path: ./node_modules/pulumi-mediahost/plugin\n",
  );
  await writeFile(join(projectDir, "package.json"), '{ "name": "mediahost-bench", "private": true }\n');
  return {
    dir,
    projectDir,
    stateDir,
    env: { ...toolchain.env, PULUMI_BACKEND_URL: `file://${stateDir}`, PULUMI_HOME: home },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

export function stateFile(ws: Workspace, stack: string): unknown {
  const file = join(ws.stateDir, ".pulumi", "stacks", "mediahost-bench", `${stack}.json`);
  return JSON.parse(readFileSync(file, "utf8"));
}

export interface RunResult {
  ms: number;
  stdout: string;
  /** Peak RSS (bytes) of the provider process(es) started by this run (max over them). */
  providerRss: number;
  /** CPU seconds of the run's processes by role, as last sampled (every 100 ms). */
  cpu: CpuSeconds;
}

/**
 * Where a CLI command's CPU went: the CLI itself (the engine: steps, checkpoints), the program's
 * Node.js process, and the provider's (the dynamic provider, or the native face's plugin).
 */
export interface CpuSeconds {
  engine: number;
  program: number;
  provider: number;
}

/** Runs the CLI; rejects with its output when it fails. Samples the provider's RSS and the CPU meanwhile. */
export function runPulumi(
  toolchain: Toolchain,
  ws: Workspace,
  args: string[],
  extraEnv: Record<string, string> = {},
  cwd = ws.projectDir,
): Promise<RunResult> {
  return runMeasured(toolchain.pulumi, [...args, "--non-interactive", "--color", "never"], cwd, {
    ...ws.env,
    ...extraEnv,
  });
}

/**
 * Runs a command (the CLI, or a tool that runs it) and samples the provider processes below it
 * for RSS and every process for CPU meanwhile; rejects with its output on another exit status.
 */
export function runMeasured(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<RunResult> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    let peak = 0;
    const cpu: CpuSamples = new Map();
    const timer = setInterval(() => {
      if (child.pid) peak = Math.max(peak, sampleTree(child.pid, cpu));
    }, 100);
    child.on("error", rej);
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      clearInterval(timer);
      if (code === 0) res({ ms, stdout: out, providerRss: peak, cpu: cpuSeconds(cpu) });
      else rej(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${out.slice(-4000)}`));
    });
  });
}

/** The dynamic provider's Node.js process, or the native face's plugin. */
const PROVIDER_PROCESS = /dynamic-provider|pulumi-resource-mediahost/;

/** The program's Node.js process (the language host's runner). */
const PROGRAM_PROCESS = /@pulumi[/\\]pulumi[/\\]cmd[/\\]run/;
/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

/** Each process's CPU so far, by pid and start time, and the role it counts for. */
export type CpuSamples = Map<string, { role: keyof CpuSeconds; ticks: number }>;

/** The samples' CPU seconds by role. */
export function cpuSeconds(cpu: CpuSamples): CpuSeconds {
  const seconds: CpuSeconds = { engine: 0, program: 0, provider: 0 };
  for (const { role, ticks } of cpu.values()) seconds[role] += ticks / CLOCK_TICKS;
  return seconds;
}

/**
 * One look at the processes below `root` (the CLI): the provider processes' RSS (bytes, the
 * max over them: there is one per CLI command), and each process's CPU so far into `cpu`, keyed
 * by pid and start time (a process's last 100 ms before it exits may be missed).
 */
export function sampleTree(root: number, cpu: CpuSamples): number {
  const children = new Map<number, number[]>();
  const stats = new Map<number, string[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // the command name may hold spaces: fields after the closing parenthesis
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(pid, fields);
      const ppid = Number(fields[1]);
      const list = children.get(ppid) ?? [];
      list.push(pid);
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const note = (pid: number, role: keyof CpuSeconds) => {
    const fields = stats.get(pid);
    // utime and stime are fields 14 and 15 of stat, the start time 22 (11, 12, 19 from here)
    if (!fields) return;
    cpu.set(`${pid}@${fields[19]}`, { role, ticks: Number(fields[11]) + Number(fields[12]) });
  };
  note(root, "engine");
  let peak = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    for (const child of children.get(pid) ?? []) {
      stack.push(child);
      try {
        const cmdline = readFileSync(`/proc/${child}/cmdline`, "utf8");
        if (PROGRAM_PROCESS.test(cmdline)) note(child, "program");
        if (!PROVIDER_PROCESS.test(cmdline)) continue;
        note(child, "provider");
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child}/status`, "utf8"))?.[1] ?? 0);
        peak = Math.max(peak, kb * 1024);
      } catch {
        // gone meanwhile
      }
    }
  }
  return peak;
}
