// `npm run demo` as a user runs it (the built dist/scripts/demo.js, as a child process): it
// reaches its summary with exit 0, names both out-of-band changes by resource and property,
// fixes them, destroys everything, prints no secret and leaves no stack file in the example.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const demo = join(repoRoot, "dist/scripts/demo.js");

describe("npm run demo", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  it("runs the quickstart end to end to its summary", async () => {
    expect(existsSync(demo), `${demo} (run \`npm run build\` first)`).toBe(true);
    const started = Date.now();
    const run = await new Promise<{ code: number; out: string }>((res) => {
      execFile(
        process.execPath,
        [demo],
        { cwd: repoRoot, env: toolchain.env, maxBuffer: 16 << 20 },
        (err, stdout, stderr) =>
          res({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: `${stdout}\n${stderr}` }),
      );
    });
    console.log(`demo: exit ${run.code} after ${((Date.now() - started) / 1000).toFixed(1)}s`);
    expect(run.code, run.out).toBe(0);
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) expect(run.out).toContain(`[${n}/8]`);
    // the emulator's web console, beside its address
    expect(run.out).toMatch(
      /emulator listening on (http:\/\/127\.0\.0\.1:\d+);.*\n {2}console: \1\/_emulator\/console /,
    );
    // the outputs of the quickstart
    expect(run.out).toMatch(/customDomain\s+"img\.example\.com"/);
    // the drift table: resource, property, state value, account value
    expect(run.out).toMatch(/mediahost:AccountSettings settings\s+minify\.enabled\s+true\s+false/);
    expect(run.out).toMatch(/mediahost:FolderMeta shoes-meta\s+title\s+"Shoes"\s+"Boots"/);
    expect(run.out).toMatch(/mediahost:File watermark\s+contentSha256\s+"[0-9a-f]{64}"\s+"[0-9a-f]{64}"/);
    expect(run.out).toContain("a new drift check is clean");
    // the summary
    const summary = run.out.slice(run.out.indexOf("== summary =="));
    expect(summary).toMatch(/resources\s+13 created, 13 destroyed/);
    // the file's content hash, once: its recorded sha256, size and mtime are observations, not drift
    expect(summary).toMatch(
      /drift\s+3 properties in 3 resources found .*mediahost:File watermark\.contentSha256.*3 resources fixed/,
    );
    expect(run.out).not.toMatch(/watermark\.(sha256|size|mtime)|watermark\s+(sha256|size|mtime)\s/);
    expect(summary).toMatch(/wall time\s+\d+\.\d+s/);
    expect(summary).toMatch(/API calls\s+\d+ in all/);
    expect(summary).toMatch(/\n\s+mkdir\s+4\n/);
    expect(run.out).not.toContain("demo-secret");
    expect(
      readdirSync(join(repoRoot, "examples/quickstart")).filter((f) => /^Pulumi\.demo-/.test(f)),
    ).toEqual([]);
  });
});
