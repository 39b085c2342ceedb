// Folder, FolderOptions and FolderMeta against the emulator over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { putFile } from "./helpers/files";
import { type Harness, startHarness } from "./helpers/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(async () => {
  await h.emulator.control.reset();
  h.configure();
  h.mark();
});

const paths = async () => (await h.state()).tree.map((e) => e.path);

// the service documents mkdir of an existing path as HTTP 200 with an error body; 409 is what
// a client would expect: the provider must tell "exists" from "created" under both
describe.each(["200", "409"] as const)("Folder (mkdir of an existing path answers %s)", (mkdirExists) => {
  beforeEach(async () => {
    await h.emulator.control.setBehaviour({ mkdirExists });
  });
  afterAll(async () => {
    await h.emulator.control.setBehaviour({ mkdirExists: "200" });
  });

  it("creates missing parents with one mkdir each, and manages only the leaf", async () => {
    const { id, outs } = await h.create("Folder", { path: "/products/shoes/" });
    expect(id).toBe("/products/shoes");
    expect(outs).toMatchObject({ path: "/products/shoes", accountAlias: "demo" });
    expect(outs.cdnUrl).toMatch(/^https:\/\/.+\/products\/shoes$/);
    expect(await paths()).toEqual(expect.arrayContaining(["/products", "/products/shoes"]));
    // leaf tried, parent missing, parent made, leaf made; plus one token and one account read
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, mkdir: 3 });
  });

  it("refreshes with no changes after create, with one stat", async () => {
    const program = { path: "/a" };
    const { id, outs } = await h.create("Folder", program);
    h.mark();
    const refreshed = await h.refresh("Folder", id, outs, program);
    expect(refreshed).toMatchObject({ gone: false, changes: [] });
    expect(h.calls()).toEqual({ stat: 1 });
  });

  it("reports a folder deleted out of band as gone", async () => {
    const { id, outs } = await h.create("Folder", { path: "/gone" });
    await h.api().ops.deleteFile({ query: { filename: "/gone" } });
    expect((await h.refresh("Folder", id, outs, { path: "/gone" })).gone).toBe(true);
  });

  it("refuses to take over an existing folder without adopt, and says how", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/existing" } });
    await expect(h.create("Folder", { path: "/existing" })).rejects.toThrow(
      /Folder \/existing: the folder already exists in account "demo". To manage the existing one, set `adopt: true`/,
    );
    await expect(h.create("Folder", { path: "/existing", adopt: true })).resolves.toMatchObject({
      id: "/existing",
    });
  });

  it("adopts existing folders from their parent's listing: a page per 100 siblings, no mkdir or stat", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/tree" } });
    const names = Array.from({ length: 120 }, (_, i) => `/tree/f${String(i).padStart(3, "0")}`);
    for (const path of names) await h.api().ops.mkdir({ query: { dirname: path } });
    // a new folder beside them is still one mkdir
    h.configure();
    h.mark();
    const made = await Promise.all([
      ...names.map((path) => h.create("Folder", { path, adopt: true })),
      h.create("Folder", { path: "/tree/new", adopt: true }),
    ]);
    expect(made.map((m) => m.outs.__adopted !== undefined)).toEqual([...names.map(() => true), false]);
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, readdir: 2, mkdir: 1 });
    expect(await paths()).toContain("/tree/new");
  });

  it("adopts a parent it created itself for another folder in the same run", async () => {
    await h.create("Folder", { path: "/p/child" });
    await expect(h.create("Folder", { path: "/p" })).resolves.toMatchObject({ id: "/p" });
  });

  it("refuses to delete a non-empty folder without forceDestroy, deleting nothing", async () => {
    const { id, outs } = await h.create("Folder", { path: "/keep" });
    await h.api().ops.mkdir({ query: { dirname: "/keep/inner" } });
    h.mark();
    await expect(h.destroy("Folder", id, outs)).rejects.toThrow(
      /Folder \/keep: not empty \(1 entries, e\.g\. inner\); nothing was deleted.*Set `forceDestroy: true`/s,
    );
    expect(await paths()).toEqual(expect.arrayContaining(["/keep", "/keep/inner"]));
    // the refused delete, then the listing that explains it
    expect(h.calls()).toEqual({ deleteFile: 1, readdir: 1 });
  });

  it("empties and deletes a non-empty folder with forceDestroy, through the batch delete job", async () => {
    const { id, outs } = await h.create("Folder", { path: "/tmp-area", forceDestroy: true });
    for (let i = 0; i < 5; i++) await h.api().ops.mkdir({ query: { dirname: `/tmp-area/d${i}` } });
    h.mark();
    await h.destroy("Folder", id, outs);
    expect((await paths()).filter((p) => p.startsWith("/tmp-area"))).toEqual([]);
    expect(h.calls()).toMatchObject({ startBatchDelete: 1 });
  });

  it("deletes an empty folder with one call, and treats a missing one as done", async () => {
    const { id, outs } = await h.create("Folder", { path: "/empty" });
    h.mark();
    await h.destroy("Folder", id, outs);
    expect(h.calls()).toEqual({ deleteFile: 1 });
    await expect(h.destroy("Folder", id, outs)).resolves.toBeUndefined();
  });

  it("takes a path change for a move, not a replace, and a flag change for neither", async () => {
    const { id, outs } = await h.create("Folder", { path: "/old" });
    const moved = await h.refresh("Folder", id, outs, { path: "/new" });
    expect(moved).toMatchObject({ changes: ["path"], replaces: [] });
    const flag = await h.refresh("Folder", id, outs, { path: "/old/", forceDestroy: true });
    expect(flag).toMatchObject({ changes: ["forceDestroy"], replaces: [] });
  });
});

describe("FolderOptions", () => {
  it("sets only the options given, reads them back, and sees drift", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/spins" } });
    await h.api().ops.setFolderOptions({ query: { filename: "/spins" }, body: { allowListing: true } });
    const program = { path: "/spins", scanSpins: true, nameSpinsAfterFolder: false };
    const { id, outs } = await h.create("FolderOptions", program);
    expect((await h.state()).options["/spins"]).toEqual({
      allowListing: true,
      scanSpins: true,
      nameSpinsAfterFolder: false,
    });

    expect((await h.refresh("FolderOptions", id, outs, program)).changes).toEqual([]);
    await h.api().ops.setFolderOptions({
      query: { filename: "/spins" },
      body: { scanSpins: false, nameSpinsAfterFolder: false, allowListing: true },
    });
    const drift = await h.refresh("FolderOptions", id, outs, program);
    expect(drift.changes).toEqual(["scanSpins"]);
    expect(drift.outs.scanSpins).toBe(false);

    h.mark();
    await h.update("FolderOptions", id, drift.outs, program);
    // read, write, read back: the folder's other options survive whichever rule the service follows
    expect(h.calls()).toEqual({ getFolderOptions: 2, setFolderOptions: 1 });
    expect((await h.state()).options["/spins"]).toMatchObject({ scanSpins: true, allowListing: true });
  });

  it("takes over options set as declared already with one read and no write", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/kept" } });
    await h.api().ops.setFolderOptions({ query: { filename: "/kept" }, body: { scanSpins: true } });
    h.configure();
    h.mark();
    const { outs } = await h.create("FolderOptions", { path: "/kept", scanSpins: true, adopt: true });
    expect(outs.__adopted).toEqual({ prior: { scanSpins: true } });
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, getFolderOptions: 1 });
    // declared otherwise: the write, and its read-back
    await h.api().ops.setFolderOptions({ query: { filename: "/kept" }, body: { scanSpins: false } });
    h.mark();
    await h.create("FolderOptions", { path: "/kept", scanSpins: true, adopt: true });
    expect(h.calls()).toEqual({ getFolderOptions: 2, setFolderOptions: 1 });
  });
});

describe("a folder created in the same process", () => {
  it("gets its options and meta written without reading them first (they are empty), once", async () => {
    await h.create("Folder", { path: "/fresh" });
    h.mark();
    await h.create("FolderOptions", { path: "/fresh", scanSpins: true });
    await h.create("FolderMeta", { path: "/fresh", title: "Fresh", tags: ["a", "b"] });
    // the options are read back after the write (another writer may have written them meanwhile)
    expect(h.calls()).toEqual({ setFolderOptions: 1, getFolderOptions: 1, setMeta: 1, addTags: 1 });
    expect((await h.state()).options["/fresh"]).toEqual({ scanSpins: true });
    expect((await h.api().ops.getMeta({ query: { filename: "/fresh" } })).tags).toEqual(["a", "b"]);

    // only the first create after the mkdir may skip the read
    h.mark();
    await h.create("FolderOptions", { path: "/fresh", allowListing: true });
    expect(h.calls()).toEqual({ getFolderOptions: 2, setFolderOptions: 1 });
    expect((await h.state()).options["/fresh"]).toEqual({ scanSpins: true, allowListing: true });
  });
});

describe("FolderMeta", () => {
  it("manages title, description and tags; tags are a set and updates send only the difference", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/shoes" } });
    const program = { path: "/shoes", title: "Shoes", description: "All shoes", tags: ["red", "sale"] };
    const { id, outs } = await h.create("FolderMeta", program);
    expect((await h.state()).meta["/shoes"]).toMatchObject({ title: "Shoes", description: "All shoes" });

    const reordered = await h.refresh("FolderMeta", id, outs, { ...program, tags: ["sale", "red"] });
    expect(reordered.changes).toEqual([]);

    h.mark();
    const next = { ...program, tags: ["red", "new"] };
    await h.update("FolderMeta", id, outs, next);
    expect(h.calls()).toEqual({ addTags: 1, removeTags: 1 });
    const live = await h.api().ops.getTags({ query: { filename: "/shoes" } });
    expect(new Set(live.tags)).toEqual(new Set(["red", "new"]));
  });

  it("sees a title changed out of band and clears what it managed on delete", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/m" } });
    const program = { path: "/m", title: "T", tags: ["x"] };
    const { id, outs } = await h.create("FolderMeta", program);
    await h.api().ops.setTitle({ query: { filename: "/m" }, body: { title: "changed" } });
    const drift = await h.refresh("FolderMeta", id, outs, program);
    expect(drift.changes).toEqual(["title"]);
    expect(drift.outs.title).toBe("changed");
    await h.destroy("FolderMeta", id, outs);
    const meta = await h.api().ops.getMeta({ query: { filename: "/m" } });
    expect(meta.title ?? "").toBe("");
    expect(meta.tags ?? []).toEqual([]);
  });
});

describe("FolderMeta: product and approval", () => {
  it("writes them with title in one call, stamps the approval's time, and reads drift per property", async () => {
    await putFile(h.api(), "/p/shoe.jpg", "img");
    h.mark();
    const program = {
      path: "/p/shoe.jpg",
      title: "Shoe",
      product: { id: "sku-1", brand: "Acme" },
      approval: { approved: true, comment: "fine" },
    };
    const { id, outs } = await h.create("FolderMeta", program);
    expect(h.calls()).toEqual({ getAccount: 1, getMeta: 1, setMeta: 1, getApproval: 1 });
    const live = await h.api().ops.getMeta({ query: { filename: "/p/shoe.jpg" } });
    expect(live.product).toEqual({ id: "sku-1", brand: "Acme" });
    expect(live.approval).toMatchObject({ approved: true, comment: "fine" });
    expect(outs.approvalDatetime).toBe(live.approval?.datetime);
    expect(typeof outs.approvalDatetime).toBe("string");

    expect((await h.refresh("FolderMeta", id, outs, program)).changes).toEqual([]);
    await h.api().ops.setProduct({ query: { filename: "/p/shoe.jpg" }, body: { id: "sku-2" } });
    const drift = await h.refresh("FolderMeta", id, outs, program);
    expect(drift.changes).toEqual(["product"]);
    expect(drift.outs.product).toEqual({ id: "sku-2" });
    await h
      .api()
      .ops.setApproval({ query: { filename: "/p/shoe.jpg" }, body: { approved: false, comment: "fine" } });
    expect((await h.refresh("FolderMeta", id, outs, program)).changes).toEqual(["product", "approval"]);
  });

  it("clears product and approval when the program drops them, and nothing else", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    const program = { path: "/p/a.jpg", title: "A", product: { id: "1" }, approval: { approved: true } };
    const { id, outs } = await h.create("FolderMeta", program);
    h.mark();
    const next = await h.update("FolderMeta", id, outs, { path: "/p/a.jpg", title: "A" });
    expect(h.calls()).toEqual({ setMeta: 1 });
    expect(next.approvalDatetime).toBeUndefined();
    expect(next.product).toBeUndefined();
    expect((await h.refresh("FolderMeta", id, next, { path: "/p/a.jpg", title: "A" })).changes).toEqual([]);
    const live = await h.api().ops.getMeta({ query: { filename: "/p/a.jpg" } });
    expect(live.title).toBe("A");
    expect(live.product).toEqual({});
    expect(live.approval?.approved).toBe(false);
  });

  it("keeps an existing stack's meta without them unchanged on refresh", async () => {
    await h.api().ops.mkdir({ query: { dirname: "/old" } });
    const { id, outs } = await h.create("FolderMeta", { path: "/old", title: "Old" });
    // service-side product and approval are not this resource's: no drift, no output
    await h.api().ops.setMeta({
      query: { filename: "/old" },
      body: { product: { id: "x" }, approval: { approved: true } },
    });
    const seen = await h.refresh("FolderMeta", id, outs, { path: "/old", title: "Old" });
    expect(seen.changes).toEqual([]);
    expect(seen.outs.approvalDatetime).toBeUndefined();
    await h.destroy("FolderMeta", id, outs);
    const live = await h.api().ops.getMeta({ query: { filename: "/old" } });
    expect(live.product).toEqual({ id: "x" });
    expect(live.approval?.approved).toBe(true);
  });
});

describe("a folder whose path has become a file", () => {
  it("is reported gone by Folder, FolderOptions and FolderMeta, also below it, instead of failing the refresh", async () => {
    const made = {
      folder: await h.create("Folder", { path: "/x/y" }),
      options: await h.create("FolderOptions", { path: "/x/y", scanSpins: true }),
      meta: await h.create("FolderMeta", { path: "/x/y", title: "Y" }),
    };
    // out of band: /x is deleted with everything in it, and a file takes its place
    const { id } = await h.api().ops.startBatchDelete({ body: { filenames: ["/x"] } });
    for (let i = 0; i < 50 && (await h.api().ops.getBatchDeleteJob({ query: { id } })).progress < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await putFile(h.api(), "/x", "now a file");
    h.configure();
    expect((await h.refresh("Folder", made.folder.id, made.folder.outs, { path: "/x/y" })).gone).toBe(true);
    expect(
      (
        await h.refresh("FolderOptions", made.options.id, made.options.outs, {
          path: "/x/y",
          scanSpins: true,
        })
      ).gone,
    ).toBe(true);
    expect(
      (await h.refresh("FolderMeta", made.meta.id, made.meta.outs, { path: "/x/y", title: "Y" })).gone,
    ).toBe(true);
    // the folder itself a file: its options are gone with it (its meta is then the file's, as a
    // FolderMeta manages whatever is at its path)
    const atX = { ...made.options.outs, path: "/x" };
    expect((await h.refresh("FolderOptions", "/x", atX, { path: "/x", scanSpins: true })).gone).toBe(true);
  });
});

describe("refresh at the cost of the tree", () => {
  it("reads 150 sibling folders from their parent's listing: 2 pages, no stat", async () => {
    const n = 150;
    await h.api().ops.mkdir({ query: { dirname: "/many" } });
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) => h.create("Folder", { path: `/many/f${i}` })),
    );
    await h.api().ops.deleteFile({ query: { filename: "/many/f7" } });
    await h.api().ops.deleteFile({ query: { filename: "/many/f9" } });
    await putFile(h.api(), "/many/f9", "a file now");
    h.configure(); // a new run
    h.mark();
    const refreshed = await Promise.all(
      made.map((m) => h.refresh("Folder", m.id, m.outs, { path: m.outs.path })),
    );
    expect(refreshed.filter((r) => r.gone).length).toBe(2);
    expect(refreshed[7]?.gone).toBe(true);
    expect(refreshed[9]?.gone).toBe(true);
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, readdir: 2 });
  });

  it("reads a lone folder, or one whose parent cannot be listed, with stat", async () => {
    const lone = await h.create("Folder", { path: "/solo/only" });
    h.configure();
    h.mark();
    expect((await h.refresh("Folder", lone.id, lone.outs, { path: "/solo/only" })).gone).toBe(false);
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, stat: 1 });
  });
});

describe("a missing folder or file under options, meta and points", () => {
  const fix =
    "it must exist first: create it, or declare it in this program (a Folder or File resource, and pass its " +
    "`path` output here so it is created first)";
  it.each([
    ["FolderOptions", { path: "/products", scanSpins: true }, "/products"],
    ["FolderMeta", { path: "/products", title: "Products" }, "/products"],
    [
      "PointOfInterest",
      { path: "/products/shoe.jpg", name: "logo", x: 0.1, y: 0.1, width: 0.2, height: 0.2 },
      "/products/shoe.jpg#logo",
    ],
  ] as const)("a %s create names the missing path, in one line", async (kind, inputs, resource) => {
    const failed = await h.create(kind, inputs).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(failed).toBe(`${kind} ${resource}: ${inputs.path} does not exist in account "demo"; ${fix}`);
    expect(failed).not.toMatch(/HTTP 404|get\w+ \(/);
  });

  it("an update after the folder went out of band names it too", async () => {
    await h.create("Folder", { path: "/went" });
    const { id, outs } = await h.create("FolderMeta", { path: "/went", title: "Went" });
    await h.api().ops.deleteFile({ query: { filename: "/went" } });
    await expect(h.update("FolderMeta", id, outs, { path: "/went", title: "Still" })).rejects.toThrow(
      `/went does not exist in account "demo"; ${fix}`,
    );
  });
});
