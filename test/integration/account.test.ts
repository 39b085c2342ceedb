// AccountSettings, Alias, CustomDomain and SubAccount against the emulator over HTTP, under
// both rules the service may follow for the aliases map.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./helpers/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    accounts: [{ alias: "other", clientId: "other-client", clientSecret: "other-secret" }],
  });
});
afterAll(() => h.stop());
beforeEach(async () => {
  await h.emulator.control.reset();
  await h.emulator.control.setBehaviour({ aliasesUpdate: "merge" });
  h.configure();
  h.mark();
});

const aliases = async () => (await h.state()).account.aliases;

describe.each(["merge", "replace"] as const)("Alias, when the service %ss the map", (rule) => {
  beforeEach(async () => {
    await h.emulator.control.setBehaviour({ aliasesUpdate: rule });
  });

  it("coalesces 12 concurrent alias creations into one or two account updates, keeping unmanaged aliases", async () => {
    await h.api().ops.updateAccount({ body: { aliases: { legacy: { prefix: "/old", cdn: false } } } });
    h.configure();
    h.mark();
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.create("Alias", { name: `web${i}`, prefix: `/w${i}`, cdn: true }),
      ),
    );
    expect(created.map((c) => c.id)).toEqual(Array.from({ length: 12 }, (_, i) => `web${i}`));
    const calls = h.calls();
    expect(calls.updateAccount).toBeGreaterThanOrEqual(1);
    expect(calls.updateAccount).toBeLessThanOrEqual(2);
    // each write is built on a read just before it, and checked on the read after it
    expect(calls.getAccount).toBe(calls.updateAccount! + 1);
    const live = await aliases();
    expect(live.legacy).toMatchObject({ prefix: "/old", cdn: false });
    expect(live.web11).toMatchObject({ prefix: "/w11", cdn: true });
  });

  it("refreshes 100 aliases with one account read and no changes", async () => {
    const program = (i: number) => ({ name: `a${i}`, prefix: `/p${i}` });
    const made = await Promise.all(Array.from({ length: 100 }, (_, i) => h.create("Alias", program(i))));
    h.configure(); // a new run: a fresh provider process
    h.mark();
    const refreshed = await Promise.all(made.map((m, i) => h.refresh("Alias", m.id, m.outs, program(i))));
    expect(refreshed.every((r) => !r.gone && r.changes.length === 0)).toBe(true);
    expect(h.calls()).toEqual({ token: 1, getAccount: 1 });
  });

  it("sees an alias changed out of band and puts it back", async () => {
    const program = { name: "cdn", prefix: "/media", cdn: true };
    const { id, outs } = await h.create("Alias", program);
    await h.api().ops.updateAccount({
      body: { aliases: { ...(await aliases()), cdn: { prefix: "/other", cdn: true } } },
    });
    h.configure();
    const drift = await h.refresh("Alias", id, outs, program);
    expect(drift.changes).toEqual(["prefix"]);
    expect(drift.outs.prefix).toBe("/other");
    await h.update("Alias", id, drift.outs, program);
    expect((await aliases()).cdn).toMatchObject({ prefix: "/media", cdn: true });
  });

  it("refuses to take over an existing alias without adopt, and adopts it with adopt", async () => {
    await h
      .api()
      .ops.updateAccount({ body: { aliases: { taken: { prefix: "/t", defaultProfile: "thumb" } } } });
    h.configure();
    await expect(h.create("Alias", { name: "taken", cdn: true })).rejects.toThrow(
      /Alias taken: the alias already exists in account "demo". To manage the existing one, set `adopt: true`/,
    );
    await h.create("Alias", { name: "taken", cdn: true, adopt: true });
    expect((await aliases()).taken).toMatchObject({ prefix: "/t", defaultProfile: "thumb", cdn: true });
  });
});

describe("Alias delete", () => {
  it("removes the alias when the service replaces the map", async () => {
    await h.emulator.control.setBehaviour({ aliasesUpdate: "replace" });
    const { id, outs } = await h.create("Alias", { name: "gone", prefix: "/g" });
    await h.create("Alias", { name: "stays", prefix: "/s" });
    await h.destroy("Alias", id, outs);
    const left = Object.keys(await aliases());
    expect(left).toContain("stays");
    expect(left).not.toContain("gone");
  });

  it("leaves the state with a warning when the service keeps it", async () => {
    const { id, outs } = await h.create("Alias", { name: "sticky", prefix: "/s" });
    // the provider's warnings go to stderr, which the CLI shows under the stack
    const warnings: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      warnings.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      await expect(h.destroy("Alias", id, outs)).resolves.toBeUndefined();
    } finally {
      process.stderr.write = original;
    }
    expect((await aliases()).sticky).toBeDefined();
    expect(warnings.join("\n")).toMatch(/Alias sticky: the service kept the alias/);
  });
});

describe("Alias deletes in one run", () => {
  it.each(["merge", "replace"] as const)(
    "cost one account update and one read-back for 10 aliases when the service %ss the map",
    async (rule) => {
      await h.emulator.control.setBehaviour({ aliasesUpdate: rule });
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) => h.create("Alias", { name: `d${i}` })),
      );
      h.configure(); // a new run, as `pulumi destroy` starts a new provider process
      h.mark();
      await Promise.all(made.map((m) => h.destroy("Alias", m.id, m.outs)));
      // one read just before the write (which also checks the account), one after it that tells
      // whether the service honoured the removals
      expect(h.calls()).toEqual({ token: 1, getAccount: 2, updateAccount: 1 });
      const left = Object.keys(await aliases()).filter((name) => /^d\d$/.test(name));
      expect(left).toHaveLength(rule === "merge" ? 10 : 0);
    },
  );
});

describe("CustomDomain", () => {
  it("adds a domain to an alias, reads it back from the alias entry, and removes it", async () => {
    await h.create("Alias", { name: "img", prefix: "/" });
    const program = { alias: "img", domain: "img.example.com" };
    const { id, outs } = await h.create("CustomDomain", program);
    expect(id).toBe("img/img.example.com");
    expect((await aliases()).img).toMatchObject({ customDomain: "img.example.com" });
    expect((await h.refresh("CustomDomain", id, outs, program)).changes).toEqual([]);
    const moved = await h.refresh("CustomDomain", id, outs, { alias: "img", domain: "cdn.example.com" });
    expect(moved.replaces).toEqual(["domain"]);
    await h.destroy("CustomDomain", id, outs);
    expect((await aliases()).img?.customDomain).toBeUndefined();
    h.configure();
    expect((await h.refresh("CustomDomain", id, outs, program)).gone).toBe(true);
  });

  it("explains a missing alias and a domain that is already there", async () => {
    await expect(h.create("CustomDomain", { alias: "nope", domain: "a.example.com" })).rejects.toThrow(
      /alias "nope" does not exist in account "demo"; create it first/,
    );
    await h.create("Alias", { name: "x", prefix: "/" });
    await h.api().ops.addCustomDomain({ body: { alias: "x", domain: "x.example.com" } });
    h.configure();
    await expect(h.create("CustomDomain", { alias: "x", domain: "x.example.com" })).rejects.toThrow(
      /set `adopt: true`/,
    );
    await expect(
      h.create("CustomDomain", { alias: "x", domain: "x.example.com", adopt: true }),
    ).resolves.toBeDefined();
  });
});

describe("SubAccount", () => {
  it("creates, refuses a duplicate without adopt, and deletes", async () => {
    const { id, outs } = await h.create("SubAccount", { alias: "shop" });
    expect((await h.state()).subAccounts).toEqual(["shop"]);
    await expect(h.create("SubAccount", { alias: "shop" })).rejects.toThrow(
      /SubAccount shop: the sub-account already exists.*adopt: true/,
    );
    await h.destroy("SubAccount", id, outs);
    expect((await h.state()).subAccounts).toEqual([]);
    await expect(h.destroy("SubAccount", id, outs)).resolves.toBeUndefined();
  });

  it("adopts one of this account with adopt, and leaves it as it found it on delete", async () => {
    await h.api().ops.createSubAccount({ body: { alias: "legacy" } });
    h.configure();
    const adopted = await h.create("SubAccount", { alias: "legacy", adopt: true });
    expect(adopted.outs.__adopted).toBeDefined();
    await h.destroy("SubAccount", adopted.id, adopted.outs);
    expect((await h.state()).subAccounts).toEqual(["legacy"]);
  });

  it("refuses a name another account holds, even with adopt, and takes nothing over", async () => {
    for (const adopt of [false, true]) {
      await expect(h.create("SubAccount", { alias: "demo", adopt })).rejects.toThrow(
        /SubAccount demo: the alias "demo" is held by another account .*choose another alias/,
      );
    }
    expect((await h.state()).subAccounts).toEqual([]);
  });
});

describe("AccountSettings", () => {
  const password = "origin-password-9f2c";
  const program = {
    minify: { enabled: true },
    fetching: {
      enabled: true,
      type: "http",
      http: {
        url: "https://origin.example.com/media",
        auth: { enabled: true, username: "fetcher", password },
      },
    },
  };

  it("writes the managed groups, keeps the write-only password from the state on refresh, and sees drift", async () => {
    const { id, outs } = await h.create("AccountSettings", program);
    expect(id).toBe("demo");
    const live = (await h.state()).account;
    expect(live.fetching.http?.auth?.password).toBe(password);

    h.configure();
    const clean = await h.refresh("AccountSettings", id, outs, program);
    expect(clean.changes).toEqual([]);
    // a password given inside `fetching` travels in `fetchingSecrets` (a secret of its own)
    expect((clean.outs.fetchingSecrets as { httpPassword: string }).httpPassword).toBe(password);
    expect(JSON.stringify(clean.outs.fetching)).not.toContain(password);

    await h.api().ops.updateAccount({ body: { minify: { enabled: false } } });
    h.configure();
    const drift = await h.refresh("AccountSettings", id, outs, program);
    expect(drift.changes).toEqual(["minify"]);
    h.mark();
    await h.update("AccountSettings", id, drift.outs, program);
    // the write is built on a read just before it and checked on the read after it
    expect(h.calls()).toEqual({ getAccount: 2, updateAccount: 1 });
    expect((await h.state()).account.minify).toEqual({ enabled: true });
  });

  it("takes the secrets in their own property, as the SDK sends them, and writes a changed password", async () => {
    const split = {
      fetching: {
        enabled: true,
        type: "http",
        http: { url: "https://o.example.com", auth: { enabled: true, username: "u" } },
      },
      fetchingSecrets: { httpPassword: "first-password" },
    };
    const { id, outs } = await h.create("AccountSettings", split);
    const password = async () => (await h.state()).account.fetching.http?.auth?.password;
    expect(await password()).toBe("first-password");
    h.configure();
    expect((await h.refresh("AccountSettings", id, outs, split)).changes).toEqual([]);
    const rotated = { ...split, fetchingSecrets: { httpPassword: "second-password" } };
    const seen = await h.refresh("AccountSettings", id, outs, rotated);
    expect(seen.changes).toEqual(["fetchingSecrets"]);
    h.mark();
    await h.update("AccountSettings", id, outs, rotated);
    expect(h.calls()).toEqual({ getAccount: 2, updateAccount: 1 });
    expect(await password()).toBe("second-password");
  });

  it("merges settings and alias changes of one run into one account update", async () => {
    await Promise.all([
      h.create("AccountSettings", { minify: { enabled: true } }),
      h.create("Alias", { name: "one", prefix: "/1" }),
      h.create("Alias", { name: "two", prefix: "/2" }),
    ]);
    expect(h.calls().updateAccount).toBe(1);
  });

  it("leaves the account as it is on delete, unless resetOnDelete", async () => {
    const kept = await h.create("AccountSettings", program);
    await h.destroy("AccountSettings", kept.id, kept.outs);
    expect((await h.state()).account.minify).toEqual({ enabled: true });
    const reset = await h.create("AccountSettings", { ...program, resetOnDelete: true });
    await h.destroy("AccountSettings", reset.id, reset.outs);
    const account = (await h.state()).account;
    expect(account.minify).toEqual({ enabled: false });
    expect(account.fetching.enabled).toBe(false);
  });
});

describe("account identity", () => {
  it("refuses to touch a resource whose credentials now reach another account", async () => {
    const { id, outs } = await h.create("Folder", { path: "/mine" });
    h.configure({ "mediahost:clientId": "other-client", "mediahost:clientSecret": "other-secret" });
    h.mark();
    const refused =
      /Folder \/mine: refusing to act: it belongs to account "demo" but the credentials for account name "default" now reach account "other"/;
    await expect(h.refresh("Folder", id, outs, { path: "/mine" })).rejects.toThrow(refused);
    // a read changes nothing: it runs alongside the account check, and its answer is thrown away
    expect(Object.keys(h.calls()).sort()).toEqual(["getAccount", "stat", "token"]);
    h.mark();
    // a delete is not even tried
    await expect(h.destroy("Folder", id, outs)).rejects.toThrow(refused);
    expect(h.calls()).toEqual({});
    expect((await h.state()).tree.map((e) => e.path)).toContain("/mine");
  });

  it("a refresh reads while it checks the account: its read does not wait a round trip for the check", async () => {
    const { id, outs } = await h.create("Folder", { path: "/mine" });
    h.configure();
    const latencyMs = 200;
    await h.emulator.control.setFaults({ latencyMs });
    try {
      h.mark();
      const since = h.emulator.control.requests(0).next;
      expect((await h.refresh("Folder", id, outs, { path: "/mine" })).gone).toBe(false);
      // the log's time is the answer's: a read sent after the check's answer would be a latency later
      const answered = (operation: string) =>
        Date.parse(h.emulator.control.requests(since).requests.find((r) => r.operation === operation)!.time);
      expect(answered("stat") - answered("getAccount")).toBeLessThan(latencyMs / 2);
    } finally {
      await h.emulator.control.setFaults({ latencyMs: 0 });
    }
  });

  it("uses named accounts from mediahost:accounts", async () => {
    h.configure({
      "mediahost:accounts": JSON.stringify({
        second: { clientId: "other-client", clientSecret: "other-secret" },
      }),
    });
    const { outs } = await h.create("Folder", { path: "/theirs", account: "second" });
    expect(outs.accountAlias).toBe("other");
    expect((await h.state("other")).tree.map((e) => e.path)).toContain("/theirs");
    // an unknown account name is a check failure: reported at preview, before any API call
    await expect(h.create("Folder", { path: "/x", account: "third" })).rejects.toThrow(
      /"property":"account","reason":"account: \\"third\\" is not configured under mediahost:accounts \(configured: second\)"/,
    );
  });
});
