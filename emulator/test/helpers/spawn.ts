// Runs the emulator package's built command line (emulator/dist/cli.js) as a child
// process, for tests and scripts that need the emulator in another process than themselves.
// A test helper: not part of the published package.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export interface SpawnedEmulator {
  url: string;
  process: ChildProcess;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * The package's built CLI, seen from this file's source or from a compiled copy of it;
 * MEDIAHOST_EMULATOR_CLI names another build (e.g. an earlier one, to compare).
 */
function cliPath(): string {
  if (process.env.MEDIAHOST_EMULATOR_CLI) return process.env.MEDIAHOST_EMULATOR_CLI;
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const built = join(dir, "emulator", "dist", "cli.js");
    if (existsSync(built)) return built;
  }
  throw new Error("emulator/dist/cli.js not found: build first (npm run build)");
}

export function spawnEmulator(args: string[] = [], timeoutMs = 15_000): Promise<SpawnedEmulator> {
  const child = spawn(process.execPath, [cliPath(), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return new Promise((ready, fail) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`emulator did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`emulator exited with ${code} before listening: ${stderr}`));
    });
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /^listening on (\S+)$/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      // nothing more is expected on stdout; keep it drained so the child never blocks on it
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume();
      ready({
        url: m[1] as string,
        process: child,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    });
  });
}
