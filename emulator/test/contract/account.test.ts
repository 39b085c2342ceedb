// docs/api.md "Account", "Custom domains and sub-accounts" and "Users and events"; the
// account rows of the operation table (contract/operations.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup } from "./helpers/emulator";

let emu: Emulator;
let api: Client;
let alias: string;

beforeAll(async () => {
  ({ emu, api } = await setup());
  const { accounts } = await api.accounts();
  const demo = accounts.find((a) => a.clientId === "demo-client");
  expect(demo, "the control surface lists the default client's account").toBeDefined();
  alias = demo!.alias;
});
afterAll(async () => {
  await emu?.stop();
});
beforeEach(async () => {
  await api.reset();
});

const update = (body: unknown) => api.post("/v2/account", body);
const account = async () => {
  const r = await api.get("/v2/account");
  expect(r.status, r.text).toBe(200);
  return r.body;
};

function expect400Naming(
  r: { status: number; body: { message?: unknown } | undefined; text: string },
  field: string,
) {
  expect(r.status, r.text).toBe(400);
  expect(typeof r.body?.message, r.text).toBe("string");
  expect(r.body!.message as string).toContain(field);
}

describe("GET /v2/account (getAccount)", () => {
  it("returns the account shape of docs/api.md#account", async () => {
    const a = await account();
    expect(a.alias).toBe(alias);
    expect(typeof a.dateCreated).toBe("string");
    expect(Number.isNaN(Date.parse(a.dateCreated))).toBe(false);
    expect(typeof a.fileSizeLimit).toBe("number");
    expect(typeof a.cdnURL).toBe("string");
    expect(a.cdnURL, "cdnURL is a bare host name").not.toMatch(/^[a-z]+:\/\/|\//i);
    expect(a.cdnURL.length).toBeGreaterThan(0);
    expect(typeof a.cdnTempURL).toBe("string");
    expect(typeof a.fetching).toBe("object");
    expect(typeof a.fetching.enabled).toBe("boolean");
    expect(typeof a.fetching.maxFilesize).toBe("number");
    expect(typeof a.minify.enabled).toBe("boolean");
    expect(a.aliases).toBeTypeOf("object");
    expect(a.aliases).not.toBeNull();
    for (const entry of Object.values(a.aliases) as Record<string, unknown>[]) {
      expect(typeof entry.prefix).toBe("string");
      if (entry.cdn !== undefined) expect(typeof entry.cdn).toBe("boolean");
    }
    expect(typeof a.status.status).toBe("string");
    expect(a.status.details).toBeTypeOf("object");
    if (a.isPartner !== undefined) expect(typeof a.isPartner).toBe("boolean");
    if (a.customRedirectUrl !== undefined) expect(typeof a.customRedirectUrl).toBe("string");
  });
});

describe("POST /v2/account (updateAccount)", () => {
  it("applies a valid update and answers 200 with an empty body", async () => {
    const before = await account();
    const r = await update({ minify: { enabled: !before.minify.enabled } });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    expect((await account()).minify.enabled).toBe(!before.minify.enabled);
  });

  it("applies fetching over http with auth, and the password is write-only", async () => {
    const r = await update({
      fetching: {
        enabled: true,
        type: "http",
        http: {
          url: "https://origin.example.com/media/",
          auth: { enabled: true, username: "u1", password: "s3cr3t-pw" },
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    const res = await api.get("/v2/account");
    const a = res.body;
    expect(a.fetching.enabled).toBe(true);
    expect(a.fetching.type).toBe("http");
    expect(a.fetching.http.url).toBe("https://origin.example.com/media/");
    expect(a.fetching.http.auth.enabled).toBe(true);
    expect(a.fetching.http.auth.username).toBe("u1");
    expect(a.fetching.http.auth.password).toBe("");
    expect(res.text).not.toContain("s3cr3t-pw");
    // the secret was stored nonetheless: the control surface says it is set, masked
    // (docs/emulator-control.md; control-safety.test.ts)
    const stored = await api.state(alias);
    expect(stored.account.fetching.http.auth.password).toBe("[masked]");
    expect(JSON.stringify(stored)).not.toContain("s3cr3t-pw");
  });

  it("applies fetching over s3, and secretAccessKey is never returned", async () => {
    const r = await update({
      fetching: {
        enabled: true,
        type: "s3",
        s3: {
          accessKeyId: "AKIAEXAMPLE",
          secretAccessKey: "very-secret-key-123",
          bucket: "media-bucket",
          endpoint: "https://s3.example.com",
          prefix: "assets/",
          forcePathStyle: true,
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe("");
    const res = await api.get("/v2/account");
    expect(res.body.fetching.enabled).toBe(true);
    expect(res.body.fetching.type).toBe("s3");
    expect(res.text).not.toContain("very-secret-key-123");
    const stored = await api.state(alias);
    expect(stored.account.fetching.s3.secretAccessKey).toBe("[masked]");
    expect(JSON.stringify(stored)).not.toContain("very-secret-key-123");
  });

  it("accepts disabling fetching without a type", async () => {
    const r = await update({ fetching: { enabled: false } });
    expect(r.status, r.text).toBe(200);
    expect((await account()).fetching.enabled).toBe(false);
  });

  it("accepts http auth disabled without username and password", async () => {
    const r = await update({
      fetching: {
        enabled: true,
        type: "http",
        http: { url: "https://o.example.com/", auth: { enabled: false } },
      },
    });
    expect(r.status, r.text).toBe(200);
    const auth = (await account()).fetching.http.auth;
    expect(auth.enabled).toBe(false);
    // 2.2: username and password are returned as empty strings when unset
    expect(auth.username).toBe("");
    expect(auth.password).toBe("");
  });

  it("accepts an empty body (nothing to change)", async () => {
    const before = await account();
    const r = await update({});
    expect(r.status, r.text).toBe(200);
    expect((await account()).minify).toEqual(before.minify);
  });

  describe("rejects any property not listed in 4.2, at every level, with 400 naming it", () => {
    const http = { url: "https://o.example.com/" };
    const s3 = { accessKeyId: "a", secretAccessKey: "b", bucket: "c" };
    it.each([
      ["top level", { minify: { enabled: true }, bogusTop: 1 }, "bogusTop"],
      ["read-only top level field", { minify: { enabled: true }, fileSizeLimit: 5 }, "fileSizeLimit"],
      ["minify", { minify: { enabled: true, bogusMinify: 1 } }, "bogusMinify"],
      ["fetching", { fetching: { enabled: false, bogusFetching: 1 } }, "bogusFetching"],
      ["fetching.maxFilesize (read-only)", { fetching: { enabled: false, maxFilesize: 10 } }, "maxFilesize"],
      [
        "fetching.http",
        { fetching: { enabled: true, type: "http", http: { ...http, bogusHttp: 1 } } },
        "bogusHttp",
      ],
      [
        "fetching.http.auth",
        {
          fetching: {
            enabled: true,
            type: "http",
            http: { ...http, auth: { enabled: true, username: "u", password: "p", bogusAuth: 1 } },
          },
        },
        "bogusAuth",
      ],
      ["fetching.s3", { fetching: { enabled: true, type: "s3", s3: { ...s3, bogusS3: 1 } } }, "bogusS3"],
      ["aliases.<name>", { aliases: { media: { prefix: "/m", bogusAlias: 1 } } }, "bogusAlias"],
    ])("%s", async (_level, body, field) => {
      const before = await account();
      const r = await update(body);
      expect400Naming(r, field);
      // nothing of a rejected update is applied
      expect((await account()).minify).toEqual(before.minify);
    });
  });

  describe("enforces the conditional requirements of the account update body with 400 naming the field", () => {
    it.each([
      ["minify.enabled is required", { minify: {} }, "enabled"],
      [
        "fetching.enabled is required",
        { fetching: { type: "http", http: { url: "https://o.example.com/" } } },
        "enabled",
      ],
      ["type is required when enabled", { fetching: { enabled: true } }, "type"],
      ["http is required when type is http", { fetching: { enabled: true, type: "http" } }, "http"],
      ["s3 is required when type is s3", { fetching: { enabled: true, type: "s3" } }, "s3"],
      ["type is http or s3", { fetching: { enabled: true, type: "ftp" } }, "type"],
      ["http.url is required", { fetching: { enabled: true, type: "http", http: {} } }, "url"],
      ["http.url is a URI", { fetching: { enabled: true, type: "http", http: { url: "not a uri" } } }, "url"],
      [
        "auth.enabled is required in auth",
        {
          fetching: {
            enabled: true,
            type: "http",
            http: { url: "https://o.example.com/", auth: { username: "u" } },
          },
        },
        "enabled",
      ],
      [
        "username is required when auth.enabled",
        {
          fetching: {
            enabled: true,
            type: "http",
            http: { url: "https://o.example.com/", auth: { enabled: true, password: "p" } },
          },
        },
        "username",
      ],
      [
        "password is required when auth.enabled",
        {
          fetching: {
            enabled: true,
            type: "http",
            http: { url: "https://o.example.com/", auth: { enabled: true, username: "u" } },
          },
        },
        "password",
      ],
      [
        "s3.accessKeyId is required",
        { fetching: { enabled: true, type: "s3", s3: { secretAccessKey: "b", bucket: "c" } } },
        "accessKeyId",
      ],
      [
        "s3.secretAccessKey is required",
        { fetching: { enabled: true, type: "s3", s3: { accessKeyId: "a", bucket: "c" } } },
        "secretAccessKey",
      ],
      [
        "s3.bucket is required",
        { fetching: { enabled: true, type: "s3", s3: { accessKeyId: "a", secretAccessKey: "b" } } },
        "bucket",
      ],
      ["minify.enabled is a boolean", { minify: { enabled: "yes" } }, "enabled"],
      ["aliases.<name>.cdn is a boolean", { aliases: { media: { cdn: "yes" } } }, "cdn"],
    ])("%s", async (_rule, body, field) => {
      const before = await account();
      const r = await update(body);
      expect400Naming(r, field);
      expect((await account()).fetching.enabled).toBe(before.fetching.enabled);
    });
  });

  it("rejects a whole update when one part is invalid (the valid part is not applied)", async () => {
    const before = await account();
    const r = await update({ minify: { enabled: !before.minify.enabled }, fetching: { enabled: true } });
    expect(r.status).toBe(400);
    expect((await account()).minify.enabled).toBe(before.minify.enabled);
  });
});

describe("aliases in POST /v2/account", () => {
  it("merge by name by default: entries not given are untouched, an entry given replaces that entry", async () => {
    expect((await update({ aliases: { one: { prefix: "/one", cdn: true } } })).status).toBe(200);
    expect((await update({ aliases: { two: { prefix: "/two", defaultProfile: "thumbs" } } })).status).toBe(
      200,
    );
    let a = await account();
    expect(a.aliases.one).toMatchObject({ prefix: "/one", cdn: true });
    expect(a.aliases.two).toMatchObject({ prefix: "/two", defaultProfile: "thumbs" });
    expect((await update({ aliases: { one: { prefix: "/uno" } } })).status).toBe(200);
    a = await account();
    expect(a.aliases.one.prefix).toBe("/uno");
    expect(a.aliases.two).toMatchObject({ prefix: "/two", defaultProfile: "thumbs" });
  });

  it("replace the whole map once the control surface selects aliasesUpdate: replace", async () => {
    try {
      await api.behaviour({ aliasesUpdate: "replace" });
      expect((await update({ aliases: { one: { prefix: "/one" } } })).status).toBe(200);
      expect((await update({ aliases: { two: { prefix: "/two" } } })).status).toBe(200);
      const a = await account();
      expect(Object.keys(a.aliases)).toEqual(["two"]);
      expect(a.aliases.two.prefix).toBe("/two");
    } finally {
      await api.behaviour({ aliasesUpdate: "merge" });
    }
    // back to merge
    expect((await update({ aliases: { three: { prefix: "/three" } } })).status).toBe(200);
    expect(Object.keys((await account()).aliases).sort()).toEqual(["three", "two"]);
  });

  it("replace the whole map when the emulator is started with --aliases-update replace", async () => {
    const other = await setup(["--aliases-update", "replace"]);
    try {
      const c = other.api;
      expect((await c.post("/v2/account", { aliases: { one: { prefix: "/one" } } })).status).toBe(200);
      expect((await c.post("/v2/account", { aliases: { two: { prefix: "/two" } } })).status).toBe(200);
      const a = (await c.get("/v2/account")).body;
      expect(Object.keys(a.aliases)).toEqual(["two"]);
    } finally {
      await other.emu.stop();
    }
  });
});

describe("custom domain (addCustomDomain, removeCustomDomain)", () => {
  it("shows under aliases.<name>.customDomain and disappears when removed", async () => {
    expect((await update({ aliases: { media: { prefix: "/media", cdn: true } } })).status).toBe(200);
    const add = await api.post("/v2/account/custom-domain", { alias: "media", domain: "img.example.com" });
    expect(add.status, add.text).toBe(200);
    let a = await account();
    expect(a.aliases.media.customDomain).toBe("img.example.com");
    expect(a.aliases.media.prefix).toBe("/media");

    const del = await api.del("/v2/account/custom-domain", { alias: "media", domain: "img.example.com" });
    expect(del.status, del.text).toBe(200);
    a = await account();
    expect(a.aliases.media).toBeDefined();
    expect(a.aliases.media.customDomain).toBeUndefined();
  });

  it("the same domain again → 409; an unknown alias or a domain not set → 404", async () => {
    expect((await update({ aliases: { media: { prefix: "/media" } } })).status).toBe(200);
    const add = { alias: "media", domain: "img.example.com" };
    expect((await api.post("/v2/account/custom-domain", add)).status).toBe(200);
    expect((await api.post("/v2/account/custom-domain", add)).status).toBe(409);
    const unknown = await api.post("/v2/account/custom-domain", { alias: "nope", domain: "x.example.com" });
    expect(unknown.status).toBe(404);
    expect((await api.del("/v2/account/custom-domain", add)).status).toBe(200);
    expect((await api.del("/v2/account/custom-domain", add)).status).toBe(404);
  });

  it("DELETE requires alias and domain (400 naming the missing one)", async () => {
    const r1 = await api.del("/v2/account/custom-domain", { domain: "img.example.com" });
    expect400Naming(r1, "alias");
    const r2 = await api.del("/v2/account/custom-domain", { alias: "media" });
    expect400Naming(r2, "domain");
  });
});

describe("sub-accounts (createSubAccount, deleteSubAccount)", () => {
  it("creates with {alias} → 200 {alias}, deletes with ?alias= → 200", async () => {
    const c = await api.post("/v2/account/sub-account", { alias: "child-one" });
    expect(c.status, c.text).toBe(200);
    expect(c.body).toEqual({ alias: "child-one" });
    expect(JSON.stringify((await api.state(alias)).subAccounts)).toContain("child-one");

    const d = await api.del("/v2/account/sub-account", { alias: "child-one" });
    expect(d.status, d.text).toBe(200);
    expect(JSON.stringify((await api.state(alias)).subAccounts)).not.toContain("child-one");
  });

  it("409 tells this account's sub-account from a name another account holds", async () => {
    expect((await api.post("/v2/account/sub-account", { alias: "child-two" })).status).toBe(200);
    const again = await api.post("/v2/account/sub-account", { alias: "child-two" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      statusCode: 409,
      error: "Conflict",
      message: "Sub-account already exists: child-two",
    });
    const taken = await api.post("/v2/account/sub-account", { alias });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(`Alias already in use by another account: ${alias}`);
  });

  it("DELETE of a sub-account that is not there → 404", async () => {
    expect((await api.post("/v2/account/sub-account", { alias: "child-three" })).status).toBe(200);
    expect((await api.del("/v2/account/sub-account", { alias: "child-three" })).status).toBe(200);
    expect((await api.del("/v2/account/sub-account", { alias: "child-three" })).status).toBe(404);
  });

  it("DELETE requires alias (400)", async () => {
    const r = await api.del("/v2/account/sub-account");
    expect400Naming(r, "alias");
  });
});

describe("read-only account resources", () => {
  it("GET /v2/account/storage (getStorage) → storage of 2.3", async () => {
    const r = await api.get("/v2/account/storage");
    expect(r.status).toBe(200);
    for (const k of ["plan", "burstable", "extra", "used", "files"])
      expect(typeof r.body[k], k).toBe("number");
    expect(r.body.quotaExceededDate === null || typeof r.body.quotaExceededDate === "string").toBe(true);
  });

  it("GET /v2/account/users (listUsers) → [{userId, role}] and GET /v2/user (getUser) finds each", async () => {
    const r = await api.get("/v2/account/users");
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body.length).toBeGreaterThan(0);
    for (const u of r.body) {
      expect(typeof u.userId).toBe("string");
      expect(["primaryOwner", "owner", "admin", "contributor", "user", "viewer"]).toContain(u.role);
    }
    const user = await api.get("/v2/user", { userId: r.body[0].userId });
    expect(user.status, user.text).toBe(200);
    expect(user.body).toBeTypeOf("object");
    expect(typeof user.body.email).toBe("string");
  });

  it("GET /v2/user without userId → 400 naming userId", async () => {
    expect400Naming(await api.get("/v2/user"), "userId");
  });

  it("GET /v2/billing/plan (getBillingPlan) → plan of 2.5, without `description` as the live service answers", async () => {
    const r = await api.get("/v2/billing/plan");
    expect(r.status).toBe(200);
    const p = r.body;
    for (const k of ["dateActive", "id", "period", "name"]) expect(typeof p[k], k).toBe("string");
    expect(p).not.toHaveProperty("description");
    expect(Number.isNaN(Date.parse(p.dateActive))).toBe(false);
    for (const k of ["month", "year", "quarter"]) expect(typeof p.price[k], `price.${k}`).toBe("number");
    expect(typeof p.storage).toBe("number");
    expect(typeof p.burstableStorage).toBe("number");
  });

  it("events have the documented shape, and POST /v2/account/events/seen marks them seen", async () => {
    // a failed fetch is an event
    await api.post("/v2/files/fetch", [{ url: "http://127.0.0.1:9/none.jpg", filename: "/ev/none.jpg" }]);
    const r = await api.post("/v2/account/events/search", { module: "fetching" });
    expect(r.status, r.text).toBe(200);
    const [event] = r.body;
    expect(event).toMatchObject({
      _id: expect.any(String),
      _accountId: expect.any(String),
      _seen: false,
      module: "fetching",
      type: "fetch.failed",
      level: "error",
      filename: "/ev/none.jpg",
      initiator: { type: expect.any(String), remoteAddr: expect.any(String) },
      notify: expect.any(Boolean),
      fetching: { url: "http://127.0.0.1:9/none.jpg", statusCode: null, maxFilesize: expect.any(Number) },
    });
    expect(Number.isNaN(Date.parse(event._submitted))).toBe(false);
    expect(event.fetching.error).toMatch(/\w/);
    const seen = await api.post("/v2/account/events/seen", [event._id, "no-such-event"]);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.text).toBe("");
    expect((await api.post("/v2/account/events/search", { module: "fetching" })).body[0]._seen).toBe(true);
    expect((await api.post("/v2/account/events/seen", { ids: [event._id] })).status).toBe(400);
  });

  it("POST /v2/account/events/search (searchEvents) → 200 array", async () => {
    const r = await api.post("/v2/account/events/search", { module: "files" });
    expect(r.status, r.text).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    const all = await api.post("/v2/account/events/search", {});
    expect(all.status, all.text).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
  });
});
