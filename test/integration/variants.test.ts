// The provider's own steps under single variants of the service (emulator/variants.ts), for what
// the program of test/e2e/variants.test.ts does not reach: a file into a folder that does not
// exist yet, a folder whose parent does not, a delete of what is gone, large files through tus,
// jobs, points of interest settled after a lost answer, a 429 without headers, error bodies in
// other shapes, and the account's secrets as the data function gives them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MediahostClient, MediahostError, TokenCache, waitForJob } from "../../provider/client";
import { upload } from "../../provider/client/transfer";
import { dataFunctions } from "../../provider/functions";
import { type Harness, startHarness } from "./helpers/harness";

const client = (h: Harness) =>
  new MediahostClient({
    baseUrl: h.emulator.url,
    clientId: "demo-client",
    clientSecret: "demo-secret",
    tokenCache: new TokenCache(),
    maxRateLimitWaitMs: 5_000,
  });

describe("the provider under single variants of the service", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    h.emulator.control.setVariants([]);
    await h.emulator.control.reset();
    h.configure();
  });
  afterAll(() => h?.stop());

  it("upload-no-mkdir: a File into folders that do not exist yet makes them and lands", async () => {
    h.emulator.control.setVariants(["upload-no-mkdir"]);
    const api = client(h);
    await expect(
      api.ops.upload({ query: { filename: "/u/x/direct.txt" }, body: { bytes: new Uint8Array([1]) } }),
    ).rejects.toMatchObject({ isNotFound: true });
    const { outs } = await h.create("File", {
      path: "/u/x/f.txt",
      content: "hello\n",
      contentType: "text/plain",
    });
    expect(outs.size).toBe(6);
    const state = await h.state();
    expect(state.tree.map((e) => e.path)).toEqual(expect.arrayContaining(["/u", "/u/x", "/u/x/f.txt"]));
  });

  it("mkdir-parents and delete-missing-ok: a folder and its delete, whatever the tree says", async () => {
    h.emulator.control.setVariants(["mkdir-parents", "delete-missing-ok"]);
    const { id, outs } = await h.create("Folder", { path: "/p/q" });
    expect((await h.state()).tree.map((e) => e.path)).toEqual(expect.arrayContaining(["/p", "/p/q"]));
    await h.api().ops.deleteFile({ query: { filename: "/p/q" } });
    expect((await h.refresh("Folder", id, outs, { path: "/p/q" })).gone).toBe(true);
    await h.destroy("Folder", id, outs);
  });

  it.each(["fs-errors-200", "fs-errors-400"] as const)(
    "%s: a missing path is gone, an existing one found",
    async (v) => {
      h.emulator.control.setVariants([v]);
      const api = client(h);
      await expect(api.ops.stat({ query: { filename: "/nope" } })).rejects.toMatchObject({
        isNotFound: true,
      });
      await expect(api.ops.readdir({ query: { dirname: "/nope" } })).rejects.toMatchObject({
        isNotFound: true,
      });
      const { id, outs } = await h.create("Folder", { path: "/here" });
      await expect(api.ops.mkdir({ query: { dirname: "/here" } })).rejects.toMatchObject({
        isConflictExists: true,
      });
      await h.api().ops.deleteFile({ query: { filename: "/here" } });
      expect((await h.refresh("Folder", id, outs, { path: "/here" })).gone).toBe(true);
    },
  );

  it("tus-bare: a file larger than a simple upload goes through tus", async () => {
    h.emulator.control.setVariants(["tus-bare"]);
    const bytes = new Uint8Array(9 * 1024 * 1024).fill(7);
    await upload(client(h), "/big.bin", { bytes }, { fingerprint: "variants-tus-bare" });
    expect((await h.state()).tree.find((e) => e.path === "/big.bin")?.size).toBe(bytes.length);
  });

  it("jobs-progress-only: a job without states is over at 100, with its result", async () => {
    h.emulator.control.setVariants(["jobs-progress-only"]);
    const api = client(h);
    await api.ops.mkdir({ query: { dirname: "/j" } });
    const { id } = await api.ops.startBatchDelete({ body: { filenames: ["/j"] } });
    const status = await waitForJob(api, "batchDelete", id, { intervalMs: 20 });
    expect(status).not.toHaveProperty("status");
    expect(status.progress).toBe(100);
    expect((await h.state()).tree.map((e) => e.path)).not.toContain("/j");
  });

  it.each([
    ["poi-set-conflict", "setPoi"],
    ["poi-delete-missing-ok", "deletePoi"],
  ] as const)("%s: a %s whose answer was lost is settled once", async (v, operation) => {
    const api = client(h);
    await api.ops.upload({ query: { filename: "/img.png" }, body: { bytes: new Uint8Array([1, 2, 3]) } });
    if (operation === "deletePoi") {
      await api.ops.setPoi({
        query: { filename: "/img.png" },
        body: { name: "face", x: 0, y: 0, width: 1, height: 1 },
      });
    }
    h.emulator.control.setVariants([v]);
    await h.emulator.control.setFaults({ dropAfterApply: { operation, count: 1 } });
    if (operation === "setPoi") {
      const point = { name: "face", x: 0.1, y: 0.2, width: 0.3, height: 0.4 };
      await api.ops.setPoi({ query: { filename: "/img.png" }, body: point });
      expect(await api.ops.getPoi({ query: { filename: "/img.png" } })).toEqual({
        face: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
      });
    } else {
      await api.ops.deletePoi({ query: { filename: "/img.png" }, body: { name: "face" } });
      expect(await api.ops.getPoi({ query: { filename: "/img.png" } })).toEqual({});
    }
  });

  it("rate-headers-absent: a 429 without headers waits for the time its message gives", async () => {
    h.emulator.control.setVariants(["rate-headers-absent"]);
    const api = client(h);
    await api.ops.getAccount();
    h.emulator.control.setLimit({ counter: "rest:post:account", used: 50 });
    const answer = await fetch(`${h.emulator.url}/v2/account`);
    expect(answer.headers.get("x-global-ratelimit-limit")).toBeNull();
    // the counter resets within the hour: too far to wait for, so the call fails naming it
    await expect(api.ops.updateAccount({ body: { minify: { enabled: true } } })).rejects.toMatchObject({
      kind: "rateLimited",
      counter: "rest:post:account",
    });
  });

  it("errors-plain and gateway-502: an error that is not JSON reads as one line", async () => {
    h.emulator.control.setVariants(["errors-plain"]);
    const api = client(h);
    const err = (await api.ops
      .removeCustomDomain({ query: { alias: "demo", domain: "none.example.com" } })
      .catch((e) => e)) as MediahostError;
    expect(err).toBeInstanceOf(MediahostError);
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/Custom domain not found: none\.example\.com/);
    expect(err.message).not.toMatch(/\n/);
    h.emulator.control.setVariants(["gateway-502"]);
    // one call in four meets the gateway: reads and writes that may be repeated go through
    for (let i = 0; i < 6; i++) await api.ops.getAccount();
    await api.ops.mkdir({ query: { dirname: "/through-the-gateway" } });
    expect(h.emulator.control.requests().requests.filter((r) => r.status === 502).length).toBeGreaterThan(0);
  });

  it.each(["secrets-clear", "secrets-masked"] as const)(
    "%s: the account's secrets reach neither the data function nor a message",
    async (v) => {
      const api = client(h);
      const password = "origin-pw-variant-9c1a";
      await api.ops.updateAccount({
        body: {
          fetching: {
            enabled: true,
            type: "http",
            http: { url: "https://origin.example.com/", auth: { enabled: true, username: "u", password } },
          },
        },
      });
      h.emulator.control.setVariants([v]);
      const account = await dataFunctions.getAccount.run(client(h), {});
      expect(JSON.stringify(account)).not.toContain(password);
      expect(JSON.stringify(account)).not.toContain("********");
    },
  );
});
