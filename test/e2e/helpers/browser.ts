// Headless Chromium for e2e tests: Debian's `chromium` package, installed where it is missing by
// scripts/toolchain/chromium.sh (apt-get; no browser is downloaded from anywhere else) and driven
// by playwright-core, which never downloads one either.
//
// Usage at the top of a describe (as toolchainForTests):
//   const chromiumPath = await chromiumForTests();
//   if (!chromiumPath) return void it.skip("needs Chromium");
// Under CI=true a browser that cannot be had is a failure, never a skip; locally the file is
// skipped with the reason only when the project's install script itself cannot run here.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./toolchain";

const script = join(repoRoot, "scripts/toolchain/chromium.sh");

/** Runs chromium.sh (installs the package if needed); resolves to the browser's path. */
export function provisionChromium(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("bash", [script], { cwd: repoRoot, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${script} failed (${err.message.split("\n")[0]}):\n${stderr.trim()}`));
      else resolve(stdout.trim().split("\n").pop() as string);
    });
  });
}

export async function chromiumForTests(): Promise<string | undefined> {
  try {
    return await provisionChromium();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (process.env.CI === "true") {
      throw new Error(`e2e: Chromium could not be had (CI=true, not skipping):\n${reason}`);
    }
    console.warn(`e2e: SKIPPING the browser test, Chromium could not be installed:\n${reason}`);
    return undefined;
  }
}
