// Reliability of the provider against the emulator, without the CLI: lost responses of creates,
// the journal that lets a run converge after an interrupted one, and rate-limit exhaustion.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OWNER_KEY } from "../../provider/hidden";
import { type Harness, type Props, startHarness } from "./helpers/harness";

let h: Harness;
let journalDir: string;
const OWNER = "organization/proj/dev";
const owned = (inputs: Props, owner = OWNER) => ({ ...inputs, [OWNER_KEY]: owner });

beforeAll(async () => {
  journalDir = await mkdtemp(join(tmpdir(), "mediahost-journal-"));
  process.env.MEDIAHOST_JOURNAL_DIR = journalDir;
  h = await startHarness();
});
afterAll(async () => {
  delete process.env.MEDIAHOST_JOURNAL_DIR;
  await h.stop();
  await rm(journalDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await h.emulator.control.reset();
  await rm(journalDir, { recursive: true, force: true });
  h.configure();
  h.mark();
});

const logged = () =>
  h.emulator.control.requests(0).requests as { operation: string | null; dropped?: boolean }[];

describe("a create whose response is lost is retried to success, once", () => {
  it("mkdir (Folder)", async () => {
    await h.emulator.control.setFaults({ dropAfterApply: { operation: "mkdir", count: 1 } });
    const { id } = await h.create("Folder", owned({ path: "/lost/folder" }));
    expect(id).toBe("/lost/folder");
    const mkdirs = logged().filter((r) => r.operation === "mkdir");
    expect(mkdirs.some((r) => r.dropped)).toBe(true);
    const tree = (await h.state()).tree.map((e) => e.path);
    expect(tree.filter((p) => p === "/lost/folder")).toHaveLength(1);
  });

  it("addCustomDomain (CustomDomain)", async () => {
    await h.create("Alias", owned({ name: "web", prefix: "/", cdn: true }));
    await h.emulator.control.setFaults({ dropAfterApply: { operation: "addCustomDomain", count: 1 } });
    const { id } = await h.create("CustomDomain", owned({ alias: "web", domain: "img.example.com" }));
    expect(id).toBe("web/img.example.com");
    const adds = logged().filter((r) => r.operation === "addCustomDomain");
    expect(adds.length).toBeGreaterThanOrEqual(2);
    expect(adds[0]?.dropped).toBe(true);
    const aliases = (await h.state()).account.aliases;
    expect(aliases.web?.customDomain).toBe("img.example.com");
  });

  it("createSubAccount (SubAccount)", async () => {
    await h.emulator.control.setFaults({ dropAfterApply: { operation: "createSubAccount", count: 1 } });
    const { id } = await h.create("SubAccount", owned({ alias: "team-a" }));
    expect(id).toBe("team-a");
    expect(logged().filter((r) => r.operation === "createSubAccount")[0]?.dropped).toBe(true);
    expect((await h.state()).subAccounts.filter((s) => s === "team-a")).toHaveLength(1);
  });

  it("updateAccount (Alias and AccountSettings)", async () => {
    await h.emulator.control.setFaults({ dropAfterApply: { operation: "updateAccount", count: 2 } });
    await Promise.all([
      h.create("Alias", owned({ name: "cdn1", prefix: "/a", cdn: true })),
      h.create("AccountSettings", { minify: { enabled: true } }),
    ]);
    const updates = logged().filter((r) => r.operation === "updateAccount");
    expect(updates.filter((r) => r.dropped)).toHaveLength(2);
    const account = (await h.state()).account;
    expect(account.aliases.cdn1).toMatchObject({ prefix: "/a", cdn: true });
    expect(account.minify).toMatchObject({ enabled: true });
  });
});

describe("after a run killed between the service's create and the state's save", () => {
  // each case: the object is created (its result never recorded), a new provider process starts
  const cases: [string, Props, () => Promise<unknown>][] = [
    ["Folder", { path: "/run-a" }, () => h.api().ops.mkdir({ query: { dirname: "/run-a" } })],
    [
      "Alias",
      { name: "web", prefix: "/w", cdn: true },
      () => h.api().ops.updateAccount({ body: { aliases: { web: { prefix: "/w" } } } }),
    ],
    ["SubAccount", { alias: "team-b" }, () => h.api().ops.createSubAccount({ body: { alias: "team-b" } })],
  ];

  it.each(cases)("%s: the same stack takes its own object over", async (kind, inputs) => {
    await h.create(kind, owned(inputs)); // created; the engine never saved it
    h.configure(); // the next run: a new provider process
    h.mark();
    const again = await h.create(kind, owned(inputs));
    expect(again.outs).toMatchObject(inputs);
    // nothing was created twice
    expect(h.calls().createSubAccount ?? 0).toBeLessThanOrEqual(1);
  });

  it.each(cases)("%s: another stack, or no journal, still gets the adopt hint", async (kind, inputs) => {
    await h.create(kind, owned(inputs));
    h.configure();
    await expect(h.create(kind, owned(inputs, "organization/proj/prod"))).rejects.toThrow(
      /already exists .*set `adopt: true`/s,
    );
    await expect(h.create(kind, inputs)).rejects.toThrow(/already exists/);
  });

  it.each(cases)("%s: an object made out of band is someone else's", async (kind, inputs, outOfBand) => {
    await outOfBand();
    h.configure();
    // the hint names both ways: adopt, or the one command that takes in what a killed run made
    await expect(h.create(kind, owned(inputs))).rejects.toThrow(
      /already exists .*set `adopt: true`.*run `npx mediahost-recover` once before `pulumi up`/s,
    );
    // the refused create left no note behind: a later attempt is refused too
    h.configure();
    await expect(h.create(kind, owned(inputs))).rejects.toThrow(/already exists/);
  });

  it("CustomDomain: the same stack takes its own domain over", async () => {
    await h.create("Alias", owned({ name: "web", prefix: "/" }));
    await h.create("CustomDomain", owned({ alias: "web", domain: "cdn.example.com" }));
    h.configure();
    const again = await h.create("CustomDomain", owned({ alias: "web", domain: "cdn.example.com" }));
    expect(again.id).toBe("web/cdn.example.com");
    h.configure();
    await expect(
      h.create("CustomDomain", owned({ alias: "web", domain: "cdn.example.com" }, "o/p/other")),
    ).rejects.toThrow(/already exists/);
  });

  it("once the object is in the state (a diff saw it), its note is gone", async () => {
    const { id, outs } = await h.create("Folder", owned({ path: "/run/b" }));
    h.configure();
    const { diff } = await import("../../provider");
    await diff("Folder", id, outs, owned({ path: "/run/b" }));
    // e.g. `pulumi state delete` and a new declaration: now it is not ours to take silently
    h.configure();
    await expect(h.create("Folder", owned({ path: "/run/b" }))).rejects.toThrow(/already exists/);
  });
});

describe("rate limits", () => {
  it("near the account-update limit, changes that arrive staggered still share one or two writes", async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.create("Alias", owned({ name: `s${i}`, prefix: `/s${i}` }))),
    );
    await h.emulator.control.setLimit({ counter: "rest:post:account", limit: 50, used: 46 });
    h.configure();
    // a first write tells the provider how few updates are left
    await h.create("AccountSettings", { minify: { enabled: true } });
    h.mark();
    // the engine starts the updates of one run spread over time (more so on a busy machine)
    const updates = Array.from({ length: 10 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 150));
      const olds = { name: `s${i}`, prefix: `/s${i}`, accountAlias: "demo", [OWNER_KEY]: OWNER };
      return h.update("Alias", `s${i}`, olds, owned({ name: `s${i}`, prefix: `/t${i}` }));
    });
    await Promise.all(updates);
    expect(h.calls().updateAccount).toBeLessThanOrEqual(2);
    const aliases = (await h.state()).account.aliases;
    for (let i = 0; i < 10; i++) expect(aliases[`s${i}`]?.prefix).toBe(`/t${i}`);
    expect(h.emulator.control.requests(0).requests.filter((r) => r.status === 429)).toEqual([]);
  });

  it("an exhausted account-update counter fails naming the counter and reset; the next run finishes", async () => {
    h.configure({ "mediahost:maxRateLimitWaitSeconds": "5" });
    await h.emulator.control.setLimit({ counter: "rest:post:account", limit: 50, used: 50 });
    const failed = await h.create("Alias", owned({ name: "late", prefix: "/l" })).catch((e: Error) => e);
    expect(String(failed)).toMatch(
      /rate limit exceeded for counter rest:post:account; it resets at \d{4}-\d\d-\d\dT[\d:.]+Z/,
    );
    expect((await h.state()).account.aliases).not.toHaveProperty("late");
    // the window moves on (here: the limit is raised); the next run creates it
    await h.emulator.control.setLimit({ counter: "rest:post:account", limit: 100 });
    h.configure();
    await h.create("Alias", owned({ name: "late", prefix: "/l" }));
    expect((await h.state()).account.aliases).toHaveProperty("late");
  });

  it("mediahost:maxRateLimitWaitSeconds must be a number", async () => {
    expect(() => h.configure({ "mediahost:maxRateLimitWaitSeconds": "soon" })).toThrow(
      /mediahost:maxRateLimitWaitSeconds: must be a number of seconds >= 0/,
    );
  });
});
