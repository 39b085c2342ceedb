// docs/api.md "Meta", "Folder options" and "Points of interest".
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup } from "./helpers/emulator";
import { mkdirs, type Origin, PNG_1X1, putFile, startOrigin } from "./helpers/files";
import { fsErrorMessage } from "./helpers/samples";

let emu: Emulator;
let api: Client;
let origin: Origin;

const IMG = "/meta/pic.png";
const DIR = "/meta";

beforeAll(async () => {
  ({ emu, api } = await setup());
  origin = await startOrigin();
});
afterAll(async () => {
  await emu?.stop();
  await origin?.close();
});
beforeEach(async () => {
  await api.reset();
  await putFile(api, origin, IMG, PNG_1X1, "image/png");
});

const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBe(200);

describe("title (getTitle, setTitle)", () => {
  it.each([IMG, DIR])("sets and reads back the title of %s", async (filename) => {
    ok(await api.post("/v2/files/meta/title", { title: "Sunset" }, { filename }));
    const r = await api.get("/v2/files/meta/title", { filename });
    ok(r);
    expect(r.body).toMatchObject({ title: "Sunset" });
  });

  it("title is required and at most 256 characters (400)", async () => {
    expect((await api.post("/v2/files/meta/title", {}, { filename: IMG })).status).toBe(400);
    expect(
      (await api.post("/v2/files/meta/title", { title: "t".repeat(257) }, { filename: IMG })).status,
    ).toBe(400);
    ok(await api.post("/v2/files/meta/title", { title: "t".repeat(256) }, { filename: IMG }));
  });

  it("meta of a missing file → 404 No such file or directory", async () => {
    const r = await api.get("/v2/files/meta/title", { filename: "/meta/none.png" });
    expect(r.status, r.text).toBe(404);
    expect(fsErrorMessage(r.body).message).toBe("No such file or directory: /meta/none.png");
  });
});

describe("description (getDescription, setDescription)", () => {
  it.each([IMG, DIR])("sets and reads back the description of %s", async (filename) => {
    ok(await api.post("/v2/files/meta/description", { description: "alt text" }, { filename }));
    const r = await api.get("/v2/files/meta/description", { filename });
    ok(r);
    expect(r.body).toMatchObject({ description: "alt text" });
  });

  it("description is required and at most 1024 characters (400)", async () => {
    expect((await api.post("/v2/files/meta/description", {}, { filename: IMG })).status).toBe(400);
    const long = await api.post(
      "/v2/files/meta/description",
      { description: "d".repeat(1025) },
      { filename: IMG },
    );
    expect(long.status).toBe(400);
  });
});

describe("tags (getTags, addTags, removeTags)", () => {
  it("POST adds, DELETE removes, GET → {tags: [...]}", async () => {
    ok(await api.post("/v2/files/meta/tags", { tags: ["red", "blue"] }, { filename: IMG }));
    ok(await api.post("/v2/files/meta/tags", { tags: ["green"] }, { filename: IMG }));
    let r = await api.get("/v2/files/meta/tags", { filename: IMG });
    ok(r);
    expect([...r.body.tags].sort()).toEqual(["blue", "green", "red"]);
    ok(
      await api.call("DELETE", "/v2/files/meta/tags", { query: { filename: IMG }, body: { tags: ["blue"] } }),
    );
    r = await api.get("/v2/files/meta/tags", { filename: IMG });
    expect([...r.body.tags].sort()).toEqual(["green", "red"]);
  });

  it("works on a folder", async () => {
    ok(await api.post("/v2/files/meta/tags", { tags: ["album", "old"] }, { filename: DIR }));
    ok(
      await api.call("DELETE", "/v2/files/meta/tags", { query: { filename: DIR }, body: { tags: ["old"] } }),
    );
    expect((await api.get("/v2/files/meta/tags", { filename: DIR })).body).toEqual({ tags: ["album"] });
  });

  it("a tag over 32 characters or more than 50 tags → 400", async () => {
    expect(
      (await api.post("/v2/files/meta/tags", { tags: ["x".repeat(33)] }, { filename: IMG })).status,
    ).toBe(400);
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect((await api.post("/v2/files/meta/tags", { tags: many }, { filename: IMG })).status).toBe(400);
  });
});

describe("approval (getApproval, setApproval)", () => {
  it("POST sets approved (with comment); GET → {datetime, approved, comment}", async () => {
    ok(
      await api.post("/v2/files/meta/approval", { approved: false, comment: "too dark" }, { filename: IMG }),
    );
    let r = await api.get("/v2/files/meta/approval", { filename: IMG });
    ok(r);
    expect(r.body).toMatchObject({ approved: false, comment: "too dark" });
    expect(Number.isNaN(Date.parse(r.body.datetime))).toBe(false);
    ok(await api.post("/v2/files/meta/approval", { approved: true }, { filename: IMG }));
    r = await api.get("/v2/files/meta/approval", { filename: IMG });
    expect(r.body.approved).toBe(true);
  });

  it("works on a folder", async () => {
    ok(await api.post("/v2/files/meta/approval", { approved: true, comment: "ok" }, { filename: DIR }));
    const r = await api.get("/v2/files/meta/approval", { filename: DIR });
    ok(r);
    expect(r.body).toMatchObject({ approved: true, comment: "ok" });
  });

  it("approved is required and boolean (400 naming it)", async () => {
    const r = await api.post("/v2/files/meta/approval", { comment: "c" }, { filename: IMG });
    expect(r.status).toBe(400);
    expect(r.body?.message).toContain("approved");
    expect((await api.post("/v2/files/meta/approval", { approved: "yes" }, { filename: IMG })).status).toBe(
      400,
    );
  });
});

describe("product (getProduct, setProduct)", () => {
  it("sets and reads back product meta", async () => {
    const product = {
      id: "SKU-1",
      name: "Chair",
      brand: "Acme",
      category1: "Furniture",
      category2: "Seating",
    };
    ok(await api.post("/v2/files/meta/product", product, { filename: IMG }));
    const r = await api.get("/v2/files/meta/product", { filename: IMG });
    ok(r);
    expect(JSON.stringify(r.body)).toContain("SKU-1");
    expect(JSON.stringify(r.body)).toContain("Acme");
  });
});

describe("all meta (getMeta, setMeta)", () => {
  it("POST sets several meta types at once; GET returns them all", async () => {
    ok(
      await api.post(
        "/v2/files/meta",
        {
          title: "All",
          description: "Everything",
          tags: ["one", "two"],
          product: { id: "P-9" },
          approval: { approved: true, comment: "fine" },
        },
        { filename: IMG },
      ),
    );
    const r = await api.get("/v2/files/meta", { filename: IMG });
    ok(r);
    expect(r.body).toMatchObject({ title: "All", description: "Everything" });
    expect([...r.body.tags].sort()).toEqual(["one", "two"]);
    expect(JSON.stringify(r.body.product)).toContain("P-9");
    expect(r.body.approval).toMatchObject({ approved: true, comment: "fine" });
    // the single-meta views agree
    expect((await api.get("/v2/files/meta/title", { filename: IMG })).body.title).toBe("All");
  });

  it("an unknown meta type → 400 naming it", async () => {
    const r = await api.post("/v2/files/meta", { title: "x", colour: "red" }, { filename: IMG });
    expect(r.status).toBe(400);
    expect(r.body?.message).toContain("colour");
    expect((await api.get("/v2/files/meta/title", { filename: IMG })).body.title ?? "").not.toBe("x");
  });
});

describe("folder options (getFolderOptions, setFolderOptions)", () => {
  it("POST → 200 empty body; GET returns only the keys that are set", async () => {
    const r = await api.post(
      "/v2/files/options",
      { scanSpins: true, allowListing: false },
      { filename: DIR },
    );
    ok(r);
    expect(r.text).toBe("");
    const g = await api.get("/v2/files/options", { filename: DIR });
    ok(g);
    expect(g.body).toEqual({ scanSpins: true, allowListing: false });
  });

  it("an unset folder → {} (a missing key means not set, not false)", async () => {
    const g = await api.get("/v2/files/options", { filename: DIR });
    ok(g);
    expect(g.body).toEqual({});
  });

  it("withInherited=true includes options set on parent folders; default false does not", async () => {
    await mkdirs(api, "/meta/child");
    ok(await api.post("/v2/files/options", { nameSpinsAfterFolder: true }, { filename: DIR }));
    const own = await api.get("/v2/files/options", { filename: "/meta/child" });
    ok(own);
    expect(own.body).toEqual({});
    const inherited = await api.get("/v2/files/options", { filename: "/meta/child", withInherited: true });
    ok(inherited);
    expect(inherited.body).toMatchObject({ nameSpinsAfterFolder: true });
  });

  it("withInherited=true: a folder's own value wins over its parent's", async () => {
    await mkdirs(api, "/meta/child");
    ok(await api.post("/v2/files/options", { scanSpins: true, allowListing: false }, { filename: DIR }));
    ok(await api.post("/v2/files/options", { allowListing: true }, { filename: "/meta/child" }));
    expect((await api.get("/v2/files/options", { filename: "/meta/child" })).body).toEqual({
      allowListing: true,
    });
    const inherited = await api.get("/v2/files/options", { filename: "/meta/child", withInherited: true });
    expect(inherited.body).toEqual({ scanSpins: true, allowListing: true });
  });

  it("only the three booleans are accepted (400 naming the property)", async () => {
    const extra = await api.post(
      "/v2/files/options",
      { scanSpins: true, lockFolder: true },
      { filename: DIR },
    );
    expect(extra.status).toBe(400);
    expect(extra.body?.message).toContain("lockFolder");
    const notBool = await api.post("/v2/files/options", { allowListing: "yes" }, { filename: DIR });
    expect(notBool.status).toBe(400);
    expect(notBool.body?.message).toContain("allowListing");
    expect((await api.get("/v2/files/options", { filename: DIR })).body).toEqual({});
  });
});

describe("points of interest (getPoi, setPoi, deletePoi), as documented", () => {
  const face = { x: 0.25, y: 0.1, width: 0.5, height: 0.4 };

  it("POST {name, x, y, width, height} answers 200 empty; GET answers the points keyed by name", async () => {
    const set = await api.post("/v2/files/poi", { name: "face", ...face }, { filename: IMG });
    expect(set.status, set.text).toBe(200);
    expect(set.text).toBe("");
    ok(
      await api.post(
        "/v2/files/poi",
        { name: "logo", x: 0, y: 0.9, width: 0.1, height: 0.1 },
        { filename: IMG },
      ),
    );
    const g = await api.get("/v2/files/poi", { filename: IMG });
    ok(g);
    expect(g.body).toEqual({ face, logo: { x: 0, y: 0.9, width: 0.1, height: 0.1 } });
  });

  it("a name given again replaces its point (a repeated POST changes nothing more)", async () => {
    ok(await api.post("/v2/files/poi", { name: "face", ...face }, { filename: IMG }));
    ok(await api.post("/v2/files/poi", { name: "face", ...face, x: 0.3 }, { filename: IMG }));
    ok(await api.post("/v2/files/poi", { name: "face", ...face, x: 0.3 }, { filename: IMG }));
    expect((await api.get("/v2/files/poi", { filename: IMG })).body).toEqual({ face: { ...face, x: 0.3 } });
  });

  it("DELETE {name} removes that point only; an unknown name is 404", async () => {
    ok(await api.post("/v2/files/poi", { name: "face", ...face }, { filename: IMG }));
    ok(await api.post("/v2/files/poi", { name: "logo", ...face }, { filename: IMG }));
    const del = await api.call("DELETE", "/v2/files/poi", {
      query: { filename: IMG },
      body: { name: "face" },
    });
    expect(del.status, del.text).toBe(200);
    expect((await api.get("/v2/files/poi", { filename: IMG })).body).toEqual({ logo: face });
    const again = await api.call("DELETE", "/v2/files/poi", {
      query: { filename: IMG },
      body: { name: "face" },
    });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("Point of interest not found: face");
  });

  it("coordinates outside 0..1, a missing size or an unknown key are 400 naming the field", async () => {
    for (const [body, field] of [
      [{ name: "a", ...face, x: 1.5 }, "x"],
      [{ name: "a", x: 0, y: 0 }, "width"],
      [{ name: "a", ...face, label: "Eye" }, "label"],
    ] as const) {
      const r = await api.post("/v2/files/poi", body, { filename: IMG });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain(field);
    }
  });
});
