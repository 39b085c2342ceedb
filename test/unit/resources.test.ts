// check and diff of every resource kind: field-level failures naming the property and the rule,
// tolerance of preview's unknown values, and normalized no-change diffs. No API calls: check and
// diff never reach the network (no credentials are even configured here).
import { beforeAll, describe, expect, it } from "vitest";
import * as provider from "../../provider";
import { UNKNOWN } from "../../provider/diff";

beforeAll(() => {
  const config: Record<string, string> = {
    "mediahost:baseUrl": "http://127.0.0.1:9",
    "mediahost:clientId": "id",
    "mediahost:clientSecret": "secret",
    "mediahost:accounts": JSON.stringify({ eu: { clientId: "eu-id", clientSecret: "eu-secret" } }),
  };
  provider.configure({ config: { get: (key) => config[key] } });
});

const PROVIDER = { __provider: "serialized" };

async function failures(kind: string, inputs: Record<string, unknown>) {
  const { failures } = await provider.check(kind, {}, { ...PROVIDER, ...inputs });
  return failures.map((f) => `${f.property}: ${f.reason}`);
}

async function diff(kind: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const checked = await provider.check(kind, olds, { ...PROVIDER, ...news });
  return provider.diff(kind, "id", { ...PROVIDER, ...olds }, checked.inputs);
}

describe("check: the account's system folders", () => {
  const never = "the provider never creates, adopts, moves, deletes or writes into it";
  it.each([
    [
      "Folder",
      { path: "/.Trash" },
      `path: /.Trash is the account's system folder (where deleted files go): ${never}`,
    ],
    [
      "Folder",
      { path: "/Shared/team" },
      `path: /Shared/team lies in /Shared, the account's system folder (folders other accounts share with this one): ${never}`,
    ],
    [
      "File",
      { path: "/.Trash/a.txt", content: "x" },
      `path: /.Trash/a.txt lies in /.Trash, the account's system folder (where deleted files go): ${never}`,
    ],
    [
      "FolderOptions",
      { path: "/.processed", scanSpins: true },
      `path: /.processed is the account's system folder (the service's processed copies): ${never}`,
    ],
    [
      "FolderMeta",
      { path: "/.well-known/", title: "t" },
      `path: /.well-known is the account's system folder (the service's well-known files): ${never}`,
    ],
    [
      "PointOfInterest",
      { path: "/.Trash/a.jpg", name: "n", x: 0, y: 0, width: 1, height: 1 },
      `path: /.Trash/a.jpg lies in /.Trash, the account's system folder (where deleted files go): ${never}`,
    ],
    [
      "Folder",
      { path: "/Profiles" },
      "path: /Profiles is the account's system folder (the account's image profiles): the provider never deletes or moves it (its .profile files can be managed as files)",
    ],
  ])("%s %j fails at preview, naming the path and why", async (kind, inputs, expected) => {
    expect(await failures(kind, inputs)).toEqual([expected]);
  });

  it("the image profiles in /Profiles stay manageable as files, and other folders are free", async () => {
    expect(await failures("File", { path: "/Profiles/Default.profile", content: "{}" })).toEqual([]);
    expect(await failures("FolderMeta", { path: "/Profiles/Default.profile", title: "t" })).toEqual([]);
    expect(await failures("Folder", { path: "/Trash" })).toEqual([]);
    expect(await failures("Folder", { path: "/shared" })).toEqual([]);
  });
});

describe("check", () => {
  it.each([
    ["Folder", { path: "photos" }, 'path: must begin with "/"'],
    ["Folder", { path: `/${"a".repeat(1024)}` }, "path: must be at most 1024 characters"],
    ["Folder", { path: "/a/../b" }, 'path: must not contain "." or ".." segments'],
    ["Folder", { path: "/a//b" }, 'path: must not contain empty segments ("//")'],
    ["Folder", { path: "/" }, 'path: must not be the root "/"'],
    [
      "Folder",
      { path: "/a", forceDestroy: "yes" },
      "forceDestroy: Invalid input: expected boolean, received string",
    ],
    ["Folder", { path: "/a", colour: "red" }, '(inputs): Unrecognized key: "colour"'],
    [
      "Folder",
      { path: "/a", account: "us" },
      'account: account: "us" is not configured under mediahost:accounts (configured: eu)',
    ],
    [
      "FolderOptions",
      { path: "/a" },
      "scanSpins: set at least one of scanSpins, nameSpinsAfterFolder, allowListing",
    ],
    [
      "FolderOptions",
      { path: "/a", allowListing: 1 },
      "allowListing: Invalid input: expected boolean, received number",
    ],
    ["FolderMeta", { path: "/a", title: "t".repeat(257) }, "title: must be at most 256 characters"],
    [
      "FolderMeta",
      { path: "/a", description: "d".repeat(1025) },
      "description: must be at most 1024 characters",
    ],
    ["FolderMeta", { path: "/a", tags: ["x".repeat(33)] }, "tags.0: must be at most 32 characters"],
    ["FolderMeta", { path: "/a", tags: ["a", "a"] }, "tags: must not repeat a tag"],
    [
      "FolderMeta",
      { path: "/a", tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      "tags: must have at most 50 tags",
    ],
    ["FolderMeta", { path: "/a" }, "title: set at least one of title, description, tags, product, approval"],
    [
      "PointOfInterest",
      { path: "/a.jpg", name: "face", x: 1.2, y: 0, width: 0.1, height: 0.1 },
      "x: must be at most 1 (a fraction of the image's width)",
    ],
    [
      "PointOfInterest",
      { path: "/a.jpg", name: "face", x: 0, y: -0.1, width: 0.1, height: 0.1 },
      "y: must be at least 0",
    ],
    [
      "PointOfInterest",
      { path: "/a.jpg", name: "face", x: 0.6, y: 0, width: 0.5, height: 0.1 },
      "width: x + width must be at most 1: the rectangle must fit the image",
    ],
    [
      "PointOfInterest",
      { path: "/a.jpg", name: "face", x: 0, y: 0.5, width: 0.1, height: 0.6 },
      "height: y + height must be at most 1: the rectangle must fit the image",
    ],
    [
      "PointOfInterest",
      { path: "/a.jpg", name: "", x: 0, y: 0, width: 1, height: 1 },
      "name: must not be empty",
    ],
    [
      "FolderMeta",
      { path: "/a", product: { id: "p".repeat(257) } },
      "product.id: must be at most 256 characters",
    ],
    ["FolderMeta", { path: "/a", product: { sku: "1" } }, 'product: Unrecognized key: "sku"'],
    [
      "FolderMeta",
      { path: "/a", approval: { approved: true, comment: "c".repeat(1025) } },
      "approval.comment: must be at most 1024 characters",
    ],
    [
      "FolderMeta",
      { path: "/a", approval: { comment: "ok" } },
      "approval.approved: Invalid input: expected boolean, received undefined",
    ],
    [
      "Alias",
      { name: "has space" },
      "name: must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit",
    ],
    ["Alias", { name: "web", cdn: "true" }, "cdn: Invalid input: expected boolean, received string"],
    [
      "CustomDomain",
      { alias: "web", domain: "https://img.example.com" },
      "domain: must be a lower-case host name such as img.example.com (no scheme, port or path)",
    ],
    [
      "SubAccount",
      { alias: "" },
      "alias: must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit",
    ],
    ["AccountSettings", {}, "minify: set at least one of minify, fetching"],
    ["AccountSettings", { fetching: { enabled: true } }, "fetching.type: required when enabled is true"],
    [
      "AccountSettings",
      { fetching: { enabled: true, type: "http" } },
      'fetching.http: required when type is "http"',
    ],
    [
      "AccountSettings",
      { fetching: { enabled: true, type: "s3" } },
      'fetching.s3: required when type is "s3"',
    ],
    [
      "AccountSettings",
      { fetching: { enabled: true, type: "http", http: { url: "not a url" } } },
      "fetching.http.url: must be a URI",
    ],
    [
      "AccountSettings",
      {
        fetching: {
          enabled: true,
          type: "http",
          http: { url: "https://o.example", auth: { enabled: true, username: "u" } },
        },
      },
      "fetching.http.auth.password: required when auth.enabled is true",
    ],
    ["AccountSettings", { minify: { enabled: true, level: 3 } }, 'minify: Unrecognized key: "level"'],
  ])("%s %j fails with the field and the rule", async (kind, inputs, expected) => {
    expect(await failures(kind, inputs)).toEqual([expected]);
  });

  it("accepts valid inputs of every kind and normalizes paths", async () => {
    const valid: [string, Record<string, unknown>][] = [
      ["Folder", { path: "/a/b/", forceDestroy: true, adopt: false, account: "eu" }],
      ["FolderOptions", { path: "/", scanSpins: true }],
      ["FolderMeta", { path: "/a", title: "", tags: [] }],
      ["Alias", { name: "web_1", prefix: "/", cdn: true, defaultProfile: "p" }],
      ["CustomDomain", { alias: "web", domain: "img.example.com" }],
      ["SubAccount", { alias: "shop-eu" }],
      ["AccountSettings", { minify: { enabled: false }, fetching: { enabled: false }, resetOnDelete: true }],
    ];
    for (const [kind, inputs] of valid) expect(await failures(kind, inputs), kind).toEqual([]);
    const { inputs } = await provider.check("Folder", {}, { ...PROVIDER, path: "/a/b/" });
    expect(inputs).toEqual({ ...PROVIDER, path: "/a/b" });
  });

  it("does not judge values that are unknown during preview", async () => {
    expect(await failures("Folder", { path: UNKNOWN })).toEqual([]);
    expect(await failures("Folder", { path: UNKNOWN, account: UNKNOWN })).toEqual([]);
    expect(await failures("FolderMeta", { path: "/a", tags: [UNKNOWN, "b"] })).toEqual([]);
    expect(
      await failures("AccountSettings", { fetching: { enabled: true, type: "http", http: UNKNOWN } }),
    ).toEqual([]);
    // a known bad value beside an unknown one is still reported
    expect(await failures("FolderMeta", { path: UNKNOWN, title: "t".repeat(300) })).toEqual([
      "title: must be at most 256 characters",
    ]);
  });
});

describe("diff", () => {
  it("finds no change after normalization (trailing slash, tag order, key order)", async () => {
    expect(await diff("Folder", { path: "/a", accountAlias: "demo" }, { path: "/a/" })).toMatchObject({
      changes: false,
    });
    expect(
      await diff(
        "FolderMeta",
        { path: "/a", tags: ["x", "y"], accountAlias: "demo" },
        { path: "/a", tags: ["y", "x"] },
      ),
    ).toMatchObject({
      changes: false,
    });
    const fetching = {
      enabled: true,
      type: "http",
      http: { url: "https://o.example", auth: { enabled: false } },
    };
    const reordered = {
      http: { auth: { enabled: false }, url: "https://o.example" },
      type: "http",
      enabled: true,
    };
    expect(
      await diff("AccountSettings", { fetching, accountAlias: "demo", cdnUrl: "x" }, { fetching: reordered }),
    ).toMatchObject({
      changes: false,
    });
  });

  it("ignores outputs that are not inputs", async () => {
    expect(
      await diff(
        "Alias",
        { name: "w", prefix: "/", accountAlias: "demo", customDomain: "d.example.com" },
        { name: "w", prefix: "/" },
      ),
    ).toMatchObject({
      changes: false,
    });
  });

  it("names each changed property and the ones that force a replace", async () => {
    const d = await diff(
      "FolderMeta",
      { path: "/a", title: "x", tags: ["a"], accountAlias: "demo" },
      { path: "/b", title: "y", tags: ["a"] },
    );
    expect(d).toEqual({
      changes: true,
      diffs: ["path", "title"],
      replaces: ["path"],
      deleteBeforeReplace: false,
    });
    const settings = await provider.diff(
      "AccountSettings",
      "demo",
      { minify: { enabled: true } },
      { minify: { enabled: false } },
    );
    expect(settings).toEqual({ changes: true, diffs: ["minify"], replaces: [], deleteBeforeReplace: false });
    const domain = await provider.diff(
      "CustomDomain",
      "w/a.example.com",
      { alias: "w", domain: "a.example.com" },
      { alias: "w", domain: "b.example.com" },
    );
    expect(domain).toEqual({
      changes: true,
      diffs: ["domain"],
      replaces: ["domain"],
      deleteBeforeReplace: true,
    });
    for (const kind of Object.keys(provider.kinds)) {
      const moved = await provider.diff(kind, "id", { account: "eu" }, { account: "us" });
      expect(moved.replaces, kind).toEqual(["account"]);
    }
  });

  it("treats an unknown value as a change, and a replace when the property forces one", async () => {
    expect(
      await provider.diff("FolderMeta", "/a", { path: "/a", title: "t" }, { path: UNKNOWN, title: "t" }),
    ).toEqual({
      changes: true,
      diffs: ["path"],
      replaces: ["path"],
      deleteBeforeReplace: false,
    });
    // a folder's path change is a move, not a replace, even while the new path is unknown
    expect(await provider.diff("Folder", "/a", { path: "/a" }, { path: UNKNOWN })).toMatchObject({
      diffs: ["path"],
      replaces: [],
    });
    expect(await provider.diff("Alias", "w", { name: "w", cdn: true }, { name: "w", cdn: UNKNOWN })).toEqual({
      changes: true,
      diffs: ["cdn"],
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("sees added and removed optional properties", async () => {
    expect(
      await provider.diff(
        "FolderOptions",
        "/a",
        { path: "/a", scanSpins: true },
        { path: "/a", scanSpins: true, allowListing: false },
      ),
    ).toMatchObject({
      changes: true,
    });
    expect(await provider.diff("Alias", "w", { name: "w", cdn: true }, { name: "w" })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("inputs that could never converge or would preview wrongly", () => {
  it("refuses credentials for fetching auth that is disabled: the service keeps none, so no up could converge", async () => {
    const fetching = (auth: Record<string, unknown>) => ({
      fetching: { enabled: true, type: "http", http: { url: "https://o.example", auth } },
    });
    expect(await failures("AccountSettings", fetching({ enabled: false, username: "u" }))).toEqual([
      "fetching.http.auth.username: must not be set when auth.enabled is false (the service does not keep it)",
    ]);
    expect(
      await failures("AccountSettings", {
        ...fetching({ enabled: false }),
        fetchingSecrets: { httpPassword: "p" },
      }),
    ).toEqual([
      "fetching.http.auth.password: must not be set when auth.enabled is false (the service does not keep it)",
    ]);
    expect(await failures("AccountSettings", fetching({ enabled: false }))).toEqual([]);
  });

  it("normalizes the known values beside an unknown one, so a preview shows no spurious replace", async () => {
    const checked = await provider.check("FolderMeta", {}, { ...PROVIDER, path: "/shoes/", tags: UNKNOWN });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.path).toBe("/shoes");
    const d = await provider.diff(
      "FolderMeta",
      "/shoes",
      { path: "/shoes", tags: ["a"], accountAlias: "demo" },
      checked.inputs,
    );
    expect(d).toMatchObject({ changes: true, diffs: ["tags"], replaces: [] });
  });
});

describe("expected failures", () => {
  it("reach the user as one line naming the resource, without a stack trace (an account no longer configured)", async () => {
    const props = { ...PROVIDER, path: "/a", account: "gone", accountAlias: "demo" };
    for (const call of [
      () => provider.read("Folder", "/a", props),
      () => provider.remove("Folder", "/a", props),
      () => provider.update("Folder", "/a", props, { ...props, forceDestroy: true }),
    ]) {
      const err = (await call().catch((e) => e)) as Error;
      expect(err.message).toMatch(/^Folder \/a: account: "gone" is not configured under mediahost:accounts/);
      expect(err.stack).not.toMatch(/\n\s+at /);
    }
  });
});

describe("an account name that reaches the default account's credentials", () => {
  beforeAll(() => {
    const config: Record<string, string> = {
      "mediahost:baseUrl": "http://127.0.0.1:9",
      "mediahost:clientId": "id",
      "mediahost:clientSecret": "secret",
      "mediahost:accounts": JSON.stringify({
        same: { clientId: "id", clientSecret: "secret" },
        eu: { clientId: "eu-id", clientSecret: "eu-secret" },
      }),
    };
    provider.configure({ config: { get: (key) => config[key] } });
  });

  it("is an update when given or dropped (the same account), a replace when another account's is", async () => {
    const dropped = await provider.diff("Folder", "/a", { path: "/a", account: "same" }, { path: "/a" });
    expect(dropped).toEqual({ changes: true, diffs: ["account"], replaces: [], deleteBeforeReplace: false });
    const given = await provider.diff("Folder", "/a", { path: "/a" }, { path: "/a", account: "same" });
    expect(given.replaces).toEqual([]);
    const elsewhere = await provider.diff("Folder", "/a", { path: "/a", account: "eu" }, { path: "/a" });
    expect(elsewhere.replaces).toEqual(["account"]);
  });
});
