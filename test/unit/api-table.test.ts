import { counterLimits, operations, schemas as s } from "mediahost-contract";
import { describe, expect, it } from "vitest";
import { documentedAdditions, OPERATION_COUNT } from "../../emulator/test/contract/helpers/samples";

function issues(
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  value: unknown,
) {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error!.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
}

describe("operation table", () => {
  it("has every operation of the specification, each under /v2 with a unique method and path", () => {
    const rows = Object.values(operations).map((o) => `${o.method} ${o.path}`);
    expect(rows).toHaveLength(OPERATION_COUNT);
    expect(new Set(rows).size).toBe(OPERATION_COUNT);
    for (const name of documentedAdditions) expect(operations).toHaveProperty(name);
    for (const row of rows) expect(row).toMatch(/^(GET|POST|DELETE) \/v2\//);
  });

  it("names only counters that docs/api.md#rate-limits reports", () => {
    for (const [name, op] of Object.entries(operations)) {
      const counters =
        "counters" in op && op.counters
          ? op.counters({ body: { fetching: { enabled: false }, scrollId: "x" } })
          : [];
      for (const c of counters) expect(counterLimits, `${name} counts ${c}`).toHaveProperty(c);
    }
    expect(Object.keys(counterLimits)).toHaveLength(30);
  });

  it("counts the fetching counter only for account updates that touch fetching", () => {
    expect(operations.updateAccount.counters({ body: { minify: { enabled: true } } })).toEqual([
      "rest:post:account",
    ]);
    expect(operations.updateAccount.counters({ body: { fetching: { enabled: false } } })).toEqual([
      "rest:post:account",
      "rest:post:account:fetching",
    ]);
  });
});

describe("path parameters (docs/api.md#files-and-folders)", () => {
  const q = operations.stat.query;
  it("accepts a path that begins with / and is at most 1024 characters", () => {
    expect(issues(q, { filename: "/a/b.jpg" })).toEqual([]);
    expect(issues(q, { filename: `/${"x".repeat(1023)}` })).toEqual([]);
  });
  it("rejects a path without a leading slash, naming the field and rule", () => {
    expect(issues(q, { filename: "a/b.jpg" })).toEqual(['filename: must begin with "/"']);
  });
  it("rejects a path over 1024 characters", () => {
    expect(issues(q, { filename: `/${"x".repeat(1024)}` })).toEqual([
      "filename: must be at most 1024 characters",
    ]);
  });
  it("applies to from and to of copy and rename, and dirname of mkdir", () => {
    expect(issues(operations.copy.query, { from: "/a", to: "b" })).toEqual(['to: must begin with "/"']);
    expect(issues(operations.rename.query, { from: "a", to: "/b" })).toEqual(['from: must begin with "/"']);
    expect(issues(operations.mkdir.query, { dirname: "" })).toEqual(['dirname: must begin with "/"']);
  });
  it("rejects unknown query parameters", () => {
    expect(issues(q, { filename: "/a", extra: "1" })).toHaveLength(1);
  });
});

describe("bounded parameters (docs/api.md#bounds)", () => {
  it("continuation is at most 1024 characters", () => {
    expect(issues(operations.readdir.query, { dirname: "/", continuation: "c".repeat(1024) })).toEqual([]);
    expect(issues(operations.readdir.query, { dirname: "/", continuation: "c".repeat(1025) })).toEqual([
      "continuation: must be at most 1024 characters",
    ]);
  });
  it("job id is at most 1024 characters for every job poll", () => {
    for (const op of [
      operations.getZipJob,
      operations.getBatchDeleteJob,
      operations.getRemoveBackgroundJob,
      operations.getModel2GlbJob,
    ]) {
      expect(issues(op.query, { id: "j".repeat(1024) })).toEqual([]);
      expect(issues(op.query, { id: "j".repeat(1025) })).toEqual(["id: must be at most 1024 characters"]);
    }
  });
  it("tus location is at most 256 characters and expiresIn at most 604800", () => {
    const tus = operations.getTusUrl.query;
    expect(issues(tus, { location: "l".repeat(256), expiresIn: 604800 })).toEqual([]);
    expect(issues(tus, { location: "l".repeat(257) })).toEqual(["location: must be at most 256 characters"]);
    expect(issues(tus, { location: "eu", expiresIn: 604801 })).toEqual(["expiresIn: must be at most 604800"]);
    // on the wire the emulator sees digits
    expect(tus.parse({ location: "eu", expiresIn: "60" })).toEqual({ location: "eu", expiresIn: 60 });
    expect(issues(tus, { location: "eu", expiresIn: "soon" }).length).toBeGreaterThan(0);
  });
  it("token expiresIn is 5..604800 seconds and the body allows nothing else", () => {
    const body = operations.token.body;
    expect(issues(body, { clientId: "a", clientSecret: "b", expiresIn: 5 })).toEqual([]);
    expect(issues(body, { clientId: "a", clientSecret: "b", expiresIn: 604800 })).toEqual([]);
    expect(issues(body, { clientId: "a", clientSecret: "b", expiresIn: 4 })).toEqual([
      "expiresIn: must be at least 5",
    ]);
    expect(issues(body, { clientId: "a", clientSecret: "b", expiresIn: 604801 })).toEqual([
      "expiresIn: must be at most 604800",
    ]);
    expect(issues(body, { clientId: "a", clientSecret: "b", scope: [] })).toEqual([
      '"": Unrecognized key: "scope"'.replace('"": ', ": "),
    ]);
  });
  it("withInherited is a boolean, also as the strings of a query", () => {
    const q = operations.getFolderOptions.query;
    expect(q.parse({ filename: "/a", withInherited: "true" })).toEqual({
      filename: "/a",
      withInherited: true,
    });
    expect(issues(q, { filename: "/a", withInherited: "yes" }).length).toBeGreaterThan(0);
  });
  it("spin views accept a range of at most 5 days", () => {
    const q = operations.getSpinViews.query;
    expect(issues(q, { from: "2026-01-01T00:00:00Z", to: "2026-01-06T00:00:00Z" })).toEqual([]);
    expect(issues(q, { from: "2026-01-01T00:00:00Z", to: "2026-01-06T00:00:01Z" })).toEqual([
      "to: date range must be at most 5 days",
    ]);
  });
});

describe("account update body (docs/api.md#account)", () => {
  const body = operations.updateAccount.body;
  const http = {
    enabled: true,
    type: "http",
    http: { url: "https://origin.example.com/media", auth: { enabled: true, username: "u", password: "p" } },
  };

  it("accepts each documented shape", () => {
    expect(issues(body, { minify: { enabled: true } })).toEqual([]);
    expect(issues(body, { fetching: { enabled: false } })).toEqual([]);
    expect(issues(body, { fetching: http })).toEqual([]);
    expect(
      issues(body, {
        fetching: {
          enabled: true,
          type: "s3",
          s3: {
            accessKeyId: "k",
            secretAccessKey: "s",
            bucket: "b",
            endpoint: "e",
            prefix: "p",
            forcePathStyle: true,
          },
        },
      }),
    ).toEqual([]);
    expect(
      issues(body, { aliases: { web: { cdn: true, prefix: "/web", defaultProfile: "thumb" } } }),
    ).toEqual([]);
  });

  it.each([
    ["top level", { theme: "dark" }, ""],
    ["minify", { minify: { enabled: true, level: 2 } }, "minify"],
    ["fetching", { fetching: { enabled: false, maxFilesize: 5 } }, "fetching"],
    ["fetching.http", { fetching: { ...http, http: { ...http.http, timeout: 1 } } }, "fetching.http"],
    [
      "fetching.http.auth",
      { fetching: { ...http, http: { url: "https://x.example", auth: { enabled: false, realm: "r" } } } },
      "fetching.http.auth",
    ],
    [
      "fetching.s3",
      {
        fetching: {
          enabled: true,
          type: "s3",
          s3: { accessKeyId: "k", secretAccessKey: "s", bucket: "b", region: "eu" },
        },
      },
      "fetching.s3",
    ],
    ["an alias entry", { aliases: { web: { prefix: "/", customDomain: "img.example.com" } } }, "aliases.web"],
  ])("rejects an unknown property at %s", (_level, value, path) => {
    const found = issues(body, value);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${path.replace(/\./g, "\\.")}: Unrecognized key`));
  });

  it.each([
    [
      "type when enabled is true",
      { fetching: { enabled: true } },
      "fetching.type: required when enabled is true",
    ],
    [
      "http when type is http",
      { fetching: { enabled: true, type: "http" } },
      'fetching.http: required when type is "http"',
    ],
    [
      "s3 when type is s3",
      { fetching: { enabled: true, type: "s3" } },
      'fetching.s3: required when type is "s3"',
    ],
    [
      "username when auth.enabled",
      {
        fetching: {
          enabled: true,
          type: "http",
          http: { url: "https://x.example", auth: { enabled: true, password: "p" } },
        },
      },
      "fetching.http.auth.username: required when auth.enabled is true",
    ],
    [
      "password when auth.enabled",
      {
        fetching: {
          enabled: true,
          type: "http",
          http: { url: "https://x.example", auth: { enabled: true, username: "u" } },
        },
      },
      "fetching.http.auth.password: required when auth.enabled is true",
    ],
  ])("requires %s", (_rule, value, expected) => {
    expect(issues(body, value)).toEqual([expected]);
  });

  it("requires a URI for fetching.http.url and one of the two types", () => {
    expect(issues(body, { fetching: { enabled: true, type: "http", http: { url: "not a url" } } })).toEqual([
      "fetching.http.url: must be a URI",
    ]);
    expect(issues(body, { fetching: { enabled: true, type: "ftp" } })[0]).toMatch(/^fetching\.type: /);
  });
});

describe("meta and folder options (docs/api.md)", () => {
  it("folder options allow exactly three booleans", () => {
    expect(
      issues(operations.setFolderOptions.body, {
        scanSpins: true,
        nameSpinsAfterFolder: false,
        allowListing: true,
      }),
    ).toEqual([]);
    expect(issues(operations.setFolderOptions.body, { locked: true })).toHaveLength(1);
    expect(issues(operations.setFolderOptions.body, { scanSpins: "yes" })[0]).toMatch(/^scanSpins: /);
  });
  it("meta bounds: 50 tags of 32 characters, title 256, description 1024", () => {
    const m = operations.setMeta.body;
    expect(
      issues(m, {
        tags: Array.from({ length: 50 }, (_, i) => `t${i}`),
        title: "t".repeat(256),
        description: "d".repeat(1024),
      }),
    ).toEqual([]);
    expect(issues(m, { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) })).toEqual([
      "tags: must have at most 50 tags",
    ]);
    expect(issues(m, { tags: ["x".repeat(33)] })).toEqual(["tags.0: must be at most 32 characters"]);
    expect(issues(m, { title: "t".repeat(257) })).toEqual(["title: must be at most 256 characters"]);
    expect(issues(m, { description: "d".repeat(1025) })).toEqual([
      "description: must be at most 1024 characters",
    ]);
  });
  it("zip and batch delete take 1..1000 paths; zip names at most 64 characters", () => {
    const paths = Array.from({ length: 1000 }, (_, i) => `/f${i}`);
    expect(issues(operations.startZip.body, { filenames: paths, zipFilename: "z".repeat(64) })).toEqual([]);
    expect(issues(operations.startZip.body, { filenames: [...paths, "/x"] })).toEqual([
      "filenames: must name at most 1000 paths",
    ]);
    expect(issues(operations.startZip.body, { filenames: ["/a"], zipFilename: "z".repeat(65) })).toEqual([
      "zipFilename: must be at most 64 characters",
    ]);
    expect(issues(operations.startBatchDelete.body, { filenames: [] })).toEqual([
      "filenames: must name at least one path",
    ]);
  });
  it("fetch takes at most 20 http(s) items", () => {
    const item = { url: "https://origin.example.com/a.jpg", filename: "/a.jpg" };
    expect(issues(operations.fetch.body, [item])).toEqual([]);
    expect(
      issues(
        operations.fetch.body,
        Array.from({ length: 21 }, () => item),
      ),
    ).toEqual([": must have at most 20 items"]);
    expect(issues(operations.fetch.body, [{ ...item, url: "ftp://x/a" }])).toEqual([
      "0.url: must be an http(s) URL",
    ]);
  });
});

describe("schemas used by several operations", () => {
  it("search needs a query; a scroll takes its scrollId and nothing else", () => {
    expect(issues(s.SearchRequest, {})).toHaveLength(1);
    expect(issues(s.SearchRequest, {})[0]).toMatch(/^query: /);
    expect(issues(s.SearchRequest, { query: "q", scrollId: "abc" })).toHaveLength(1);
    expect(issues(s.SearchRequest, { query: "q", size: 101 })).toEqual(["size: must be at most 100"]);
    expect(issues(s.SearchScroll, { scrollId: "abc" })).toEqual([]);
    expect(issues(s.SearchScroll, { scrollId: "abc", query: "q" })).toHaveLength(1);
  });
});
