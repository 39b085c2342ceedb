// The client reads what the provider uses of each answer, and nothing else can fail it
// (provider/client/reads.ts). For every operation whose answer is JSON: a documented answer; each
// of its fields dropped, set to null and given another type; the fields the provider acts on
// (READ below) must notice — the call fails naming the field, or a documented optional field reads
// as absent or its default — and every other field must not fail the call.
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { type ReadOperation, readAnswer } from "../../provider/client";

/** A documented answer of every JSON operation (docs/api.md). */
const SAMPLES: Record<ReadOperation, unknown> = {
  token: { token: "t", expiresIn: 1200, scope: ["account:read"] },
  getAccount: {
    dateCreated: "2026-01-01T00:00:00.000Z",
    alias: "demo",
    isPartner: false,
    fileSizeLimit: 100,
    customRedirectUrl: "",
    cdnURL: "demo.example",
    cdnTempURL: "demo.tmp.example",
    fetching: {
      enabled: true,
      type: "http",
      http: { url: "https://o.example", auth: { enabled: true, username: "u", password: "" } },
      s3: { accessKeyId: "k", bucket: "b", endpoint: "e", prefix: "p", forcePathStyle: true },
      maxFilesize: 100,
    },
    minify: { enabled: false },
    aliases: { demo: { prefix: "/", cdn: true, defaultProfile: "p", customDomain: "img.example" } },
    status: { status: "active", details: {} },
  },
  getUser: { email: "e", firstName: "f", lastName: "l", dateCreated: "d", s3Secret: "s" },
  getLimits: { "rest:global": { count: 1, limit: 7000, remaining: 6999, reset: 1 } },
  getStorage: { plan: 1, burstable: 2, extra: 0, used: 3, files: 4, quotaExceededDate: "2026-01-01" },
  listUsers: [{ userId: "u", role: "owner" }],
  getBillingPlan: {
    dateActive: "d",
    id: "plan",
    period: "month",
    name: "Business",
    description: "text",
    price: { month: 1, quarter: 2, year: 3 },
    storage: 1,
    burstableStorage: 2,
  },
  deleteSubAccount: { alias: "shop" },
  searchEvents: [{ _id: "e", module: "fetching", level: "info" }],
  getMeta: {
    title: "t",
    description: "d",
    tags: ["a"],
    product: { id: "p" },
    approval: { approved: true, comment: "c", datetime: "d" },
  },
  getFolderOptions: { scanSpins: true, nameSpinsAfterFolder: false, allowListing: true },
  getPoi: { face: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 } },
  readdir: {
    contents: [
      {
        filename: "a.jpg",
        mtime: "2026-01-01T00:00:00.000Z",
        contentType: "image/jpeg",
        size: 10,
        isDirectory: false,
        meta: { width: 1, height: 2, duration: 0 },
      },
    ],
    continuation: "next",
  },
  startRemoveBackground: { id: "j" },
  getRemoveBackgroundJob: { id: "j", progress: 10, status: "running", result: {}, error: "e" },
  stat: {
    mtime: "m",
    ctime: "c",
    contentType: "image/jpeg",
    size: 10,
    isDirectory: false,
    meta: { width: 1 },
  },
  startZip: { id: "j" },
  getZipJob: { id: "j", progress: 10, status: "running", result: [], error: "e" },
  startModel2Glb: { id: "j" },
  getModel2GlbJob: { id: "j", progress: 10, status: "running", error: "e" },
  startBatchDelete: { id: "j" },
  getBatchDeleteJob: { id: "j", progress: 10, status: "running", result: {}, error: "e" },
  getApproval: { approved: true, comment: "c", datetime: "d" },
  getDescription: { description: "d" },
  getProduct: { id: "p" },
  getTags: { tags: ["a"] },
  getTitle: { title: "t" },
  getHttpStats: { "1700000000000": { total: { count: 1, size: 2 } } },
  getStorageStats: {
    "1700000000000": { plan: 1, burstable: 2, extra: 0, used: 3, files: 4, quotaExceededDate: null },
  },
  getSpinViews: [{ "@timestamp": "t", referer: "r" }],
  fetch: [
    {
      filename: "/a.jpg",
      success: false,
      attempted: true,
      attempts: [{ url: "u", statusCode: 500, error: { name: "E", message: "m" } }],
      retryAfter: "d",
    },
  ],
  createJwt: { url: "https://x/a.jpg?jwt=t" },
  search: {
    hits: [
      {
        _index: "i",
        _type: "_doc",
        _id: "h",
        _score: null,
        _source: {
          accountId: "a",
          filename: "/a.jpg",
          dirname: "/",
          basename: "a.jpg",
          extension: ".jpg",
          id: "i",
          ctime: "c",
          mtime: "m",
          size: 1,
          contentType: "image/jpeg",
          meta: { width: 1, height: 2, format: "jpeg", duration: 0 },
        },
      },
    ],
    total: 1,
    _relation: "eq",
    scrollId: "s",
  },
  searchScroll: { hits: [], total: 0, scrollId: "s" },
  spin2marketplaceA360: { any: 1 },
  spin2marketplaceB360: { any: 1 },
};

/**
 * The fields the provider acts on, per operation (`[]` an element of a list, `*` an entry of a map
 * keyed by data). A field here may not be lost silently; every field not here may be anything.
 */
const READ: Record<ReadOperation, string[]> = {
  token: ["token", "expiresIn"],
  getAccount: [
    "alias",
    "cdnURL",
    "fetching",
    "fetching.enabled",
    "fetching.type",
    "fetching.http",
    "fetching.http.url",
    "fetching.http.auth",
    "fetching.http.auth.enabled",
    "fetching.http.auth.username",
    "fetching.http.auth.password",
    "fetching.s3",
    "fetching.s3.accessKeyId",
    "fetching.s3.bucket",
    "fetching.s3.endpoint",
    "fetching.s3.prefix",
    "fetching.s3.forcePathStyle",
    "minify",
    "minify.enabled",
    "aliases",
    "aliases.*.prefix",
    "aliases.*.cdn",
    "aliases.*.defaultProfile",
    "aliases.*.customDomain",
  ],
  getUser: [],
  getLimits: ["*.count", "*.limit", "*.remaining", "*.reset"],
  getStorage: ["plan", "used", "files"],
  listUsers: ["[]", "[].userId", "[].role"],
  getBillingPlan: ["id"],
  deleteSubAccount: [],
  searchEvents: [],
  getMeta: [
    "title",
    "description",
    "tags",
    "tags.[]",
    "product",
    "approval",
    "approval.approved",
    "approval.comment",
    "approval.datetime",
  ],
  getFolderOptions: ["scanSpins", "nameSpinsAfterFolder", "allowListing"],
  getPoi: ["*.x", "*.y", "*.width", "*.height"],
  readdir: [
    "contents",
    "contents.[]",
    "contents.[].filename",
    "contents.[].isDirectory",
    "contents.[].size",
    "contents.[].mtime",
    "contents.[].contentType",
    "continuation",
  ],
  startRemoveBackground: ["id"],
  getRemoveBackgroundJob: ["progress", "status", "error"],
  stat: ["isDirectory", "size", "mtime", "contentType"],
  startZip: ["id"],
  getZipJob: ["progress", "status", "error"],
  startModel2Glb: ["id"],
  getModel2GlbJob: ["progress", "status", "error"],
  startBatchDelete: ["id"],
  getBatchDeleteJob: ["progress", "status", "error"],
  getApproval: ["approved", "comment", "datetime"],
  getDescription: ["description"],
  getProduct: [],
  getTags: ["tags", "tags.[]"],
  getTitle: ["title"],
  getHttpStats: ["*.total", "*.total.count", "*.total.size"],
  getStorageStats: ["*.plan", "*.used", "*.files"],
  getSpinViews: [],
  fetch: [
    "[]",
    "[].success",
    "[].attempts",
    "[].attempts.[]",
    "[].attempts.[].error",
    "[].attempts.[].error.message",
  ],
  createJwt: ["url"],
  search: ["hits", "hits.[]", "hits.[]._source", "hits.[]._source.filename", "total", "scrollId"],
  searchScroll: ["hits", "total", "scrollId"],
  spin2marketplaceA360: [],
  spin2marketplaceB360: [],
};

/** The maps keyed by data: their keys are entries, not fields. */
const MAPS: Partial<Record<ReadOperation, string[]>> = {
  getAccount: ["aliases"],
  getLimits: [""],
  getPoi: [""],
  getHttpStats: [""],
  getStorageStats: [""],
};

/** What a field documented as optional reads as when it is missing or null (absent otherwise). */
const DEFAULTS: Record<string, unknown> = {
  "getAccount:aliases.*.cdn": false,
  "getAccount:fetching.http.auth.enabled": false,
  "readdir:contents.[].size": 0,
  "stat:size": 0,
  "getApproval:approved": false,
  "getMeta:approval.approved": false,
  "getTags:tags": [],
  "fetch:[].attempts": [],
  "getRemoveBackgroundJob:progress": 0,
  "getZipJob:progress": 0,
  "getModel2GlbJob:progress": 0,
  "getBatchDeleteJob:progress": 0,
};

type Step = string | number;
interface Field {
  at: Step[];
  /** The path as READ names it. */
  name: string;
}

/** Every field of `value` (objects' keys and lists' elements, not the root nor a map's entries). */
function fieldsOf(value: unknown, maps: string[], at: Step[] = [], name: string[] = []): Field[] {
  const out: Field[] = [];
  const isMap = maps.includes(name.join("."));
  const here = (step: Step, label: string) => {
    const f = { at: [...at, step], name: [...name, label] };
    if (!isMap) out.push({ at: f.at, name: f.name.join(".") });
    out.push(...fieldsOf((value as Record<string, unknown>)[step as string], maps, f.at, f.name));
  };
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) here(i, "[]");
  else if (value && typeof value === "object") for (const k of Object.keys(value)) here(k, isMap ? "*" : k);
  return out;
}

function get(value: unknown, at: Step[]): unknown {
  return at.reduce<unknown>((v, s) => (v as Record<string, unknown> | undefined)?.[s as string], value);
}

/** `value` with the field at `at` dropped, or set to `to`. */
function mutated(value: unknown, at: Step[], change: { drop: true } | { to: unknown }): unknown {
  const copy = structuredClone(value);
  const parent = get(copy, at.slice(0, -1)) as Record<string, unknown> | unknown[];
  const last = at.at(-1) as string | number;
  if ("drop" in change) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last as string];
  } else (parent as Record<string, unknown>)[last as string] = change.to;
  return copy;
}

/** Another type than the field's: an object for a scalar, a string for an object or a list. */
const otherType = (v: unknown) => (v !== null && typeof v === "object" ? "retyped" : { retyped: true });

const operations = Object.keys(SAMPLES) as ReadOperation[];

describe("what the client reads of every answer", () => {
  it.each(operations)("%s: a documented answer reads", (op) => {
    expect(readAnswer(op, SAMPLES[op])).toMatchObject({ ok: true });
  });

  it.each(operations)("%s: every field it reads is in the documented answer", (op) => {
    const names = new Set(fieldsOf(SAMPLES[op], MAPS[op] ?? []).map((f) => f.name));
    expect(READ[op].filter((n) => !names.has(n))).toEqual([]);
  });

  it.each(operations)("%s: a field it does not read may be missing, null or of another type", (op) => {
    const failures: string[] = [];
    for (const field of fieldsOf(SAMPLES[op], MAPS[op] ?? [])) {
      if (READ[op].includes(field.name)) continue;
      const original = get(SAMPLES[op], field.at);
      for (const to of [undefined, null, otherType(original)]) {
        const answer = mutated(SAMPLES[op], field.at, to === undefined ? { drop: true } : { to });
        const read = readAnswer(op, answer);
        if (!read.ok) failures.push(`${field.name} = ${JSON.stringify(to)}: ${read.issues}`);
        // handed on as it came, or (a field a program is shown) read as absent
        else if (to !== undefined) {
          const value = get(read.value, field.at);
          if (value !== undefined && !isDeepStrictEqual(value, to))
            failures.push(`${field.name} read as ${JSON.stringify(value)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(operations)("%s: a field it reads is never lost silently", (op) => {
    const silent: string[] = [];
    for (const field of fieldsOf(SAMPLES[op], MAPS[op] ?? [])) {
      if (!READ[op].includes(field.name)) continue;
      const original = get(SAMPLES[op], field.at);
      const where = field.at.join(".");
      // another type fails the call, naming the field
      const retyped = readAnswer(op, mutated(SAMPLES[op], field.at, { to: otherType(original) }));
      if (retyped.ok || !retyped.issues.includes(where))
        silent.push(`${field.name} retyped: ${JSON.stringify(retyped)}`);
      // missing or null: fails naming the field, or reads as absent or the documented default
      if (/\.\[\]$|^\[\]$/.test(field.name)) continue; // a list's element: dropping it is data
      for (const change of [{ drop: true } as const, { to: null }]) {
        const read = readAnswer(op, mutated(SAMPLES[op], field.at, change));
        if (!read.ok) {
          if (!read.issues.includes(where))
            silent.push(`${field.name} ${JSON.stringify(change)}: ${read.issues}`);
          continue;
        }
        const expected = DEFAULTS[`${op}:${field.name}`];
        if (!isDeepStrictEqual(get(read.value, field.at), expected))
          silent.push(
            `${field.name} ${JSON.stringify(change)} read as ${JSON.stringify(get(read.value, field.at))}`,
          );
      }
    }
    expect(silent).toEqual([]);
  });

  it("reads a number sent as a numeric string as that number", () => {
    const stat = readAnswer("stat", { isDirectory: false, size: "1024", mtime: "m" });
    expect(stat).toEqual({ ok: true, value: { isDirectory: false, size: 1024, mtime: "m" } });
    const page = readAnswer("readdir", {
      contents: [{ filename: "a", isDirectory: false, size: "7", meta: { duration: null, width: "3" } }],
      continuation: null,
    });
    expect(page).toMatchObject({
      ok: true,
      value: { contents: [{ filename: "a", size: 7, meta: { width: 3 } }] },
    });
    expect((page as { value: { continuation?: string } }).value.continuation).toBeUndefined();
  });

  it("leaves no key behind for a field read as absent (a protobuf Struct takes no undefined)", () => {
    const read = readAnswer("search", {
      hits: [
        { _source: { filename: "/a.jpg", meta: { width: null, height: null, duration: null, format: 1 } } },
      ],
      total: 1,
      scrollId: null,
    });
    // strict: a key left with `undefined` in it would not be equal
    expect(read).toStrictEqual({
      ok: true,
      value: { hits: [{ _source: { filename: "/a.jpg", meta: {} } }], total: 1 },
    });
  });

  it("fails naming the operation's field and what came instead", () => {
    expect(readAnswer("stat", { isDirectory: false, size: "big" })).toEqual({
      ok: false,
      issues: "size: Invalid input: expected number, received string",
    });
  });
});
