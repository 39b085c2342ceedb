// Files as code with the real CLI (examples/files): a profile an alias names, a watermark from a
// local file, a secret file. A file changed outside Pulumi is found by a refresh preview and put
// back by `up --refresh`; the secret's content is nowhere in plaintext; destroy removes them all.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const TOKEN = "partner-token-5f0a2c";
const TOKEN_SHA256 = createHash("sha256").update(TOKEN).digest("hex");
const repoRoot = join(__dirname, "..", "..");

describe("files as code (examples/files)", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "examples/files",
      config: { partnerToken: { value: TOKEN, secret: true } },
    });
  });
  afterAll(() => p?.dispose());

  const download = async (path: string) =>
    Buffer.from(await p.api.ops.download({ query: { filename: path } }));

  it("uploads them, names the profile on the alias, and keeps the secret secret", async () => {
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const watermark = await readFile(join(repoRoot, "examples/files/assets/watermark.png"));
    expect((await download("/shop/brand/watermark.png")).equals(watermark)).toBe(true);
    expect(up.outputs.watermarkSha256?.value).toBe(createHash("sha256").update(watermark).digest("hex"));
    expect((await download("/private/partner-token.txt")).toString()).toBe(TOKEN);
    expect(JSON.parse((await download("/profiles/shop.json")).toString())).toMatchObject({ format: "webp" });
    expect(p.emulator.control.state().account.aliases.shop?.defaultProfile).toBe("shop");
    const state = await p.stateFile();
    expect(plaintextLocations(state, TOKEN)).toEqual([]);
    // nor its hash, which would give a short secret away
    expect(plaintextLocations(state, TOKEN_SHA256)).toEqual([]);
    expect(p.output.join("")).not.toContain(TOKEN);
    // the state holds the watermark's hash, not its bytes
    expect(JSON.stringify(state)).not.toContain(watermark.toString("base64"));
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("finds a file changed outside Pulumi, puts it back, and then is quiet", async () => {
    await p.api.ops.upload({
      query: { filename: "/shop/brand/watermark.png" },
      body: { bytes: new TextEncoder().encode("not a watermark"), contentType: "image/png" },
    });
    const drift = await p.stack.preview({ refresh: true, diff: true });
    expect(drift.changeSummary.update).toBe(1);
    expect(drift.stdout).toContain("contentSha256");
    const fixed = await p.stack.up({ refresh: true });
    expect(fixed.summary.result).toBe("succeeded");
    const watermark = await readFile(join(repoRoot, "examples/files/assets/watermark.png"));
    expect((await download("/shop/brand/watermark.png")).equals(watermark)).toBe(true);
    await p.stack.preview({ refresh: true, expectNoChanges: true });
    // the refreshed state keeps the secret content secret too
    expect(plaintextLocations(await p.stateFile(), TOKEN)).toEqual([]);
    expect(plaintextLocations(await p.stateFile(), TOKEN_SHA256)).toEqual([]);
  });

  it("destroys them all", async () => {
    const down = await p.stack.destroy();
    expect(down.summary.result).toBe("succeeded");
    const paths = p.emulator.control.state().tree.map((e) => e.path);
    for (const path of ["/profiles/shop.json", "/shop/brand/watermark.png", "/private/partner-token.txt"])
      expect(paths).not.toContain(path);
  });
});
