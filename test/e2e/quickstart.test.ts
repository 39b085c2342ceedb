// The quickstart example with the real pulumi CLI against the emulator: up, a quiet refresh
// preview, drift seen and named, up --refresh putting it back, secrets nowhere in plaintext,
// credentials changing without replacing anything, a folder moved with its content, and destroy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOnlyRename, expectProductsMovePreview } from "./helpers/expect";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const ORIGIN_PASSWORD = "origin-pw-5b1e77";

describe("examples/quickstart with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "examples/quickstart",
      config: { originPassword: { value: ORIGIN_PASSWORD, secret: true } },
    });
  });
  afterAll(() => p?.dispose());

  it("creates everything with one token, one account write and the reads around it", async () => {
    p.mark();
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 14 });
    expect(up.outputs.customDomain?.value).toBe("img.example.com");
    expect(up.outputs.shoesUrl?.value).toMatch(/^https:\/\/.+\/products\/shoes$/);
    const calls = p.calls();
    expect(calls.token).toBe(1);
    // one read just before the account write, one after it which checks the write took, one after
    // the custom domain's write, which learns whether the account shows custom domains at all
    // (docs/api.md#account), and — when a folder's create asked first — one for the account check
    // the write's read did not serve
    expect(calls.getAccount).toBeGreaterThanOrEqual(3);
    expect(calls.getAccount).toBeLessThanOrEqual(4);
    // settings and both aliases were written together
    expect(calls.updateAccount).toBe(1);
    const state = p.emulator.control.state();
    expect(state.tree.map((e) => e.path)).toEqual(
      expect.arrayContaining(["/products", "/products/shoes", "/products/bags"]),
    );
    expect(state.account.aliases.web?.customDomain).toBe("img.example.com");
  });

  it("previews a refresh with no changes, and makes no API call in a plain preview", async () => {
    await p.stack.preview({ refresh: true, expectNoChanges: true });
    p.mark();
    const plain = await p.stack.preview();
    expect(plain.changeSummary).toEqual({ same: 14 });
    expect(p.calls()).toEqual({});
  });

  it("names drift made out of band, and up --refresh puts it back", async () => {
    await p.api.ops.updateAccount({ body: { minify: { enabled: false } } });
    await p.api.ops.setTitle({ query: { filename: "/products/shoes" }, body: { title: "Boots" } });
    const drift = await p.stack.preview({ refresh: true, diff: true });
    expect(drift.changeSummary).toMatchObject({ update: 2 });
    expect(drift.stdout).toMatch(/mediahost:AccountSettings[^\n]*settings[\s\S]*minify/);
    expect(drift.stdout).toMatch(/mediahost:FolderMeta[^\n]*shoes-meta[\s\S]*title/);
    await expect(p.stack.preview({ refresh: true, expectNoChanges: true })).rejects.toThrow(
      /no changes were expected/,
    );

    const fixed = await p.stack.up({ refresh: true });
    expect(fixed.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(p.emulator.control.state().account.minify).toEqual({
      enabled: true,
    });
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("keeps every secret out of the state and the CLI output", async () => {
    const state = await p.stateFile();
    const text = JSON.stringify(state);
    expect(text).toContain("fetchingSecrets");
    expect(text).toContain("origin.example.com"); // fetching stays readable
    for (const secret of [ORIGIN_PASSWORD, "demo-secret"]) {
      expect(plaintextLocations(state, secret), secret).toEqual([]);
      expect(p.output.join(""), secret).not.toContain(secret);
    }
    // the emulator did receive the password
    expect(p.emulator.control.state(undefined, { secrets: true }).account.fetching.http?.auth?.password).toBe(
      ORIGIN_PASSWORD,
    );
  });

  it("changes credentials of the same account without replacing anything", async () => {
    const url = p.emulator.url.replace("127.0.0.1", "localhost");
    await p.stack.setConfig("mediahost:baseUrl", { value: url });
    await p.stack.setConfig("mediahost:clientSecret", { value: "demo-secret", secret: true });
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 14 });
  });

  it("moves a folder with everything in it when its path changes: one rename, the resources under it follow", async () => {
    // content the stack does not manage: a subfolder and a file
    await p.api.ops.mkdir({ query: { dirname: "/products/extra" } });
    await p.api.ops.upload({
      query: { filename: "/products/photo.png" },
      body: { bytes: Buffer.from("png bytes"), contentType: "image/png" },
    });
    await p.stack.setConfig("productsFolder", { value: "/catalog" });
    expectProductsMovePreview(await p.stack.preview({ diff: true }));

    p.mark();
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 6 });
    expectOnlyRename(p.calls());
    const state = p.emulator.control.state();
    const paths = state.tree.map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(["/catalog/shoes", "/catalog/bags", "/catalog/extra", "/catalog/photo.png"]),
    );
    expect(paths.filter((x) => x.startsWith("/products"))).toEqual([]);
    expect(state.meta["/catalog/shoes"]).toMatchObject({ title: "Shoes", tags: ["catalog", "shoes"] });
    expect(state.options["/catalog/shoes"]).toMatchObject({ scanSpins: true, nameSpinsAfterFolder: true });
    expect(up.outputs.shoesUrl?.value).toMatch(/^https:\/\/.+\/catalog\/shoes$/);
    await p.stack.preview({ refresh: true, expectNoChanges: true });

    // moving it back undoes the move the same way: one rename, nothing else written
    await p.stack.setConfig("productsFolder", { value: "/products" });
    p.mark();
    await p.stack.up();
    expectOnlyRename(p.calls());
    expect(p.emulator.control.state().tree.map((e) => e.path)).toEqual(
      expect.arrayContaining(["/products/shoes", "/products/extra", "/products/photo.png"]),
    );
    await p.stack.preview({ refresh: true, expectNoChanges: true });
    // what the stack does not manage goes, so that destroy finds the folder empty
    await p.api.ops.deleteFile({ query: { filename: "/products/extra" } });
    await p.api.ops.deleteFile({ query: { filename: "/products/photo.png" } });
  });

  it("destroys what it made and leaves the account's own objects", async () => {
    const destroyed = await p.stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    const state = p.emulator.control.state();
    expect(state.tree.map((e) => e.path).filter((x) => x.startsWith("/catalog"))).toEqual([]);
    expect(state.account.aliases.web?.customDomain).toBeUndefined();
  });
});
