// The lowest Node.js the provider claims (`engines.node` in package.json) really runs it: the
// provider's unit tests run on exactly that version, installed from the npm registry's
// platform build of Node (as the `node` package provides Node 24 to the project's scripts) and
// cached outside the repository.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "./helpers/package";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

function nodeAt(version: string): string {
  const base =
    process.env.MEDIAHOST_TOOLCHAIN_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-mediahost");
  return join(base, `node-v${version}`);
}

describe("the provider on the lowest Node.js it claims", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the project's toolchain");
  const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  const floor = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1];

  it(`passes the provider's unit tests on Node ${floor}`, async () => {
    expect(floor, `engines.node is ">=X.Y.Z", got ${manifest.engines.node}`).toBeDefined();
    const dir = nodeAt(floor!);
    const pkg = `node-${process.platform}-${process.arch}`;
    const node = join(dir, "node_modules", pkg, "bin", "node");
    if (!existsSync(node)) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "package.json"), JSON.stringify({ name: "node-floor", private: true }));
      await run(
        "npm",
        ["install", "--no-audit", "--no-fund", "--prefer-offline", `${pkg}@${floor}`],
        dir,
        toolchain.env,
      );
    }
    expect((await run(node, ["-p", "process.version"], repoRoot, toolchain.env)).trim()).toBe(`v${floor}`);
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        node,
        [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--project", "unit", "test/unit"],
        { cwd: repoRoot, env: { ...toolchain.env, CI: "true" }, maxBuffer: 64 << 20 },
        (err, stdout, stderr) =>
          err
            ? reject(new Error(`unit tests failed on Node ${floor}:\n${stdout}\n${stderr}`))
            : resolve(stdout),
      ),
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the colours vitest prints
    const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
    const files = /Test Files\s+(\d+) passed/.exec(plain)?.[1];
    console.log(`Node ${floor}: ${files} unit test files passed`);
    expect(Number(files)).toBeGreaterThan(5);
  });
});
