// Runs the built command line (dist/emulator/cli.js) as a child process, for tests that need
// the emulator in another process than themselves (e2e tests driving the pulumi CLI).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export interface SpawnedEmulator {
  url: string;
  process: ChildProcess;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** The built CLI next to this file in dist/, or dist/ seen from the sources. */
function cliPath(): string {
  const beside = join(__dirname, "cli.js");
  if (existsSync(beside)) return beside;
  const built = resolve(__dirname, "..", "dist", "emulator", "cli.js");
  if (!existsSync(built)) throw new Error(`${built} not found: build first (npx tsc -p tsconfig.json)`);
  return built;
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
