// A refused argument or input is one line in what the CLI prints, on both faces: what was
// refused, why, and the limit; no stack frame, no ANSI code, no Node warning, no `{<nil>}`.
// Data functions with a bad argument (the dynamic face's run in the program, the native face's
// through the plugin's Invoke), and a native resource whose nested input breaks a limit.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { linkCheckout } from "./helpers/package";
import { openProject } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const PLUGIN = `plugins:\n  providers:\n    - name: mediahost\n      path: ${join(repoRoot, "plugin")}\n`;
const REFUSED_FROM =
  "getStorageStats: invalid arguments: from: must be an ISO 8601 date-time or a date (YYYY-MM-DD)";

/** What must not be in the CLI's output beside the line. */
function expectNoNoise(out: string): void {
  expect(out).not.toContain("\u001b["); // ANSI colour codes
  expect(out).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m); // stack frames
  expect(out).not.toMatch(/PromiseRejectionHandledWarning|unhandled exception|<ref \*1>/);
  expect(out).not.toContain("{<nil>}");
  expect(out).not.toMatch(/invocation of mediahost:index:/);
}

describe("a refused argument or input is one line in the CLI's output", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let dir: string;
  let emulator: RunningEmulator;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-refusals-"));
    emulator = await startEmulator({ log: () => {} });
  });
  afterAll(async () => {
    await emulator?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A JavaScript program's failed preview: the error's text and everything the CLI printed. */
  const failedPreview = async (name: string, program: string): Promise<string> => {
    const at = join(dir, name);
    await mkdir(at);
    await linkCheckout(at);
    await writeFile(join(at, "package.json"), JSON.stringify({ name, main: "index.js" }));
    await writeFile(join(at, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n${PLUGIN}`);
    await writeFile(join(at, "index.js"), program);
    const p = await openProject(toolchain, { workDir: at, emulator });
    try {
      const message = await p.stack.preview().then(
        () => "",
        (e: Error) => e.message,
      );
      expect(message, "the preview fails").not.toBe("");
      return `${message}\n${p.output.join("")}`;
    } finally {
      await p.dispose();
    }
  };

  it.each([
    ["dynamic", "pulumi-mediahost"],
    ["native", "pulumi-mediahost/native"],
  ])("a data function's refused argument, on the %s face", async (face, module) => {
    const out = await failedPreview(
      `refused-${face}`,
      `const mediahost = require("${module}");\nexports.days = mediahost.getStorageStatsOutput({ from: "yesterday" }).days;\n`,
    );
    // the line the CLI prints among its diagnostics, and nothing else of ours
    expect(out).toMatch(new RegExp(`^\\s+error: ${REFUSED_FROM.replace(/[()]/g, "\\$&")}$`, "m"));
    expectNoNoise(out);
  });

  it("a nested input over its limit, on the native face: the path and the limit", async () => {
    const out = await failedPreview(
      "refused-nested",
      `const mediahost = require("pulumi-mediahost/native");\n` +
        `new mediahost.FolderMeta("meta", { path: "/p", product: { id: "x".repeat(300) } });\n`,
    );
    expect(out).toMatch(
      /mediahost:index:FolderMeta resource 'meta' has a problem: product\.id: must be at most 256 characters/,
    );
    expectNoNoise(out);
  });
});
