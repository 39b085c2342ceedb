// docs/api.md "Files and folders" (path parameters), "Bounds" (continuation, job id, tus
// location) and "Errors".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, type Emulator, postLargeBody, setup } from "./helpers/emulator";
import { type OperationName, route, samples } from "./helpers/samples";

let emu: Emulator;
let api: Client;

beforeAll(async () => {
  ({ emu, api } = await setup());
});
afterAll(async () => {
  await emu?.stop();
});

const TOO_LONG_PATH = `/${"p".repeat(1024)}`; // 1025 characters
const LONGEST_PATH = `/${"p".repeat(1023)}`; // 1024 characters

function call(
  name: OperationName,
  query: Record<string, string | number | boolean | undefined>,
  body?: unknown,
) {
  const { method, path } = route(name);
  return api.call(method, path, { query, body: body ?? samples[name].body });
}

function expect400Naming(
  r: { status: number; body: { message?: unknown } | undefined; text: string },
  field: string,
) {
  expect(r.status, r.text).toBe(400);
  expect(typeof r.body?.message, r.text).toBe("string");
  expect(r.body!.message as string).toContain(field);
}

// From the specification's query parameters: every operation with a path parameter, and which.
const PATH_PARAMS: [OperationName, string[]][] = [
  ["download", ["filename"]],
  ["getMeta", ["filename"]],
  ["setMeta", ["filename"]],
  ["getFolderOptions", ["filename"]],
  ["setFolderOptions", ["filename"]],
  ["getPoi", ["filename"]],
  ["setPoi", ["filename"]],
  ["deletePoi", ["filename"]],
  ["readdir", ["dirname"]],
  ["stat", ["filename"]],
  ["getApproval", ["filename"]],
  ["setApproval", ["filename"]],
  ["getDescription", ["filename"]],
  ["setDescription", ["filename"]],
  ["getProduct", ["filename"]],
  ["setProduct", ["filename"]],
  ["getTags", ["filename"]],
  ["addTags", ["filename"]],
  ["removeTags", ["filename"]],
  ["getTitle", ["filename"]],
  ["setTitle", ["filename"]],
  ["copy", ["from", "to"]],
  ["deleteFile", ["filename"]],
  ["mkdir", ["dirname"]],
  ["rename", ["from", "to"]],
];

const cases = PATH_PARAMS.flatMap(([name, fields]) => fields.map((field) => [name, field] as const));

describe("path parameters: begin with / and at most 1024 characters", () => {
  const valid = (name: OperationName) => ({ ...(samples[name].query ?? {}) });

  it.each(cases)("%s: %s not beginning with / → 400 naming it", async (name, field) => {
    const r = await call(name, { ...valid(name), [field]: "relative/path.jpg" });
    expect400Naming(r, field);
  });

  it.each(cases)("%s: %s of 1025 characters → 400 naming it", async (name, field) => {
    const r = await call(name, { ...valid(name), [field]: TOO_LONG_PATH });
    expect400Naming(r, field);
  });

  it.each(cases)("%s: %s missing → 400 naming it", async (name, field) => {
    const r = await call(name, { ...valid(name), [field]: undefined });
    expect400Naming(r, field);
  });

  it.each(["stat", "readdir", "getTitle", "deleteFile"] as OperationName[])(
    "%s: a path of exactly 1024 characters passes validation (404 for a missing path, not 400)",
    async (name) => {
      const field = name === "readdir" ? "dirname" : "filename";
      const r = await call(name, { [field]: LONGEST_PATH });
      expect(r.status, r.text).toBe(404);
    },
  );

  it("a path with a .. segment → 400 naming it", async () => {
    expect400Naming(await api.get("/v2/files/stat", { filename: "/a/../b" }), "filename");
  });

  it("paths inside bodies follow the path rule too (fetch filename, jwt filename, zip filenames)", async () => {
    const fetchBad = await api.post("/v2/files/fetch", [
      { url: "http://127.0.0.1:9/a.jpg", filename: "a.jpg" },
    ]);
    expect400Naming(fetchBad, "filename");
    const jwtBad = await api.post("/v2/files/jwt", { filename: TOO_LONG_PATH, key: "k", expiresIn: 60 });
    expect400Naming(jwtBad, "filename");
    const zipBad = await api.post("/v2/files/zip", { filenames: [TOO_LONG_PATH] });
    expect400Naming(zipBad, "filenames");
  });
});

describe("continuation and job id: at most 1024 characters", () => {
  it("readdir continuation of 1025 characters → 400 naming continuation", async () => {
    const r = await api.get("/v2/files/readdir", { dirname: "/", continuation: "c".repeat(1025) });
    expect400Naming(r, "continuation");
  });

  const polls: OperationName[] = [
    "getZipJob",
    "getBatchDeleteJob",
    "getRemoveBackgroundJob",
    "getModel2GlbJob",
  ];

  it.each(polls)("%s: id of 1025 characters → 400 naming id", async (name) => {
    const r = await call(name, { id: "j".repeat(1025) });
    expect400Naming(r, "id");
  });

  it.each(polls)("%s: id missing → 400 naming id", async (name) => {
    const r = await call(name, {});
    expect400Naming(r, "id");
  });
});

describe("tus link (getTusUrl): location at most 256, expiresIn at most 604800", () => {
  it("location of 257 characters → 400 naming location", async () => {
    expect400Naming(await api.get("/v2/files/tus/url", { location: `/${"l".repeat(256)}` }), "location");
  });

  it("location missing → 400 naming location", async () => {
    expect400Naming(await api.get("/v2/files/tus/url", { expiresIn: 60 }), "location");
  });

  it("expiresIn 604801 → 400 naming expiresIn; 604800 accepted", async () => {
    expect400Naming(
      await api.get("/v2/files/tus/url", { location: "/up.bin", expiresIn: 604801 }),
      "expiresIn",
    );
    const locations = await api.get("/v2/files/tus/locations");
    const location = String(
      Array.isArray(locations.body) ? locations.body[0] : Object.keys(locations.body)[0],
    );
    const max = await api.get("/v2/files/tus/url", { location, expiresIn: 604800 });
    expect(max.status, max.text).toBe(200);
  });

  it("expiresIn that is not a number → 400 naming expiresIn", async () => {
    expect400Naming(
      await api.get("/v2/files/tus/url", { location: "/up.bin", expiresIn: "soon" }),
      "expiresIn",
    );
  });
});

describe("error bodies", () => {
  it("a refused request → {statusCode, error, message}, the message '<field>: <rule>'", async () => {
    const r = await api.get("/v2/files/stat");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ statusCode: 400, error: "Bad Request", message: "filename: is required" });
  });

  it("an unknown /v2 route → 404 in the same shape", async () => {
    const r = await api.get("/v2/nothing");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ statusCode: 404, error: "Not Found" });
  });
});

describe("malformed bodies → 400, never 500", () => {
  const bodyOps: OperationName[] = [
    "token",
    "updateAccount",
    "addCustomDomain",
    "createSubAccount",
    "searchEvents",
    "setMeta",
    "setFolderOptions",
    "setTitle",
    "addTags",
    "startZip",
    "startBatchDelete",
    "fetch",
    "createJwt",
    "search",
  ];

  it.each(bodyOps)("%s with broken JSON → 400 with a message", async (name) => {
    const { method, path } = route(name);
    const r = await api.call(method, path, {
      query: samples[name].query,
      rawBody: '{"this is": not json',
      token: name === "token" ? null : undefined,
    });
    expect(r.status, r.text).toBe(400);
    expect(typeof r.body?.message).toBe("string");
  });

  it.each(bodyOps)("%s with a JSON value of the wrong type → 400", async (name) => {
    const { method, path } = route(name);
    const wrong = name === "fetch" ? { url: "x" } : ["not", "an", "object"];
    const r = await api.call(method, path, {
      query: samples[name].query,
      body: wrong,
      token: name === "token" ? null : undefined,
    });
    expect(r.status, r.text).toBe(400);
  });

  it("updateAccount with no body at all → 400 or 200, never 500", async () => {
    const r = await api.call("POST", "/v2/account", { rawBody: "" });
    expect(r.status).toBeLessThan(500);
  });
});

describe("a large body → 413", () => {
  it("updateAccount with a 20 MB body → 413, nothing applied", async () => {
    const before = (await api.get("/v2/account")).body.minify.enabled;
    const token = await api.token();
    const r = await postLargeBody(api.url, "/v2/account", token, 20 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect((await api.get("/v2/account")).body.minify.enabled).toBe(before);
    // the emulator still answers afterwards
    expect((await api.get("/v2/account")).status).toBe(200);
  });

  it("token with a 20 MB body → 413", async () => {
    const r = await postLargeBody(api.url, "/v2/token", "unused", 20 * 1024 * 1024);
    expect(r.status).toBe(413);
  });

  it("search with a 5 MB body → 413", async () => {
    const r = await postLargeBody(api.url, "/v2/files/search", await api.token(), 5 * 1024 * 1024);
    expect(r.status).toBe(413);
  });
});
