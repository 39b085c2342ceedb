// Nothing lost when the provider is not alone (docs/reliability.md): other writers of the same
// account at the same time, a folder moved with everything in it, an `account` rename that reaches the same
// account, and objects that are someone else's. Each provider process is a Lifecycle of its own
// (provider/dynamic.ts), driven here the way the engine drives it: check, diff, create, read,
// update, delete.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient, sharedTokenCache } from "../../provider/client";
import { readConfiguration } from "../../provider/config";
import { DynamicFace } from "../../provider/dynamic";
import { Face } from "../../provider/face";
import { OWNER_KEY } from "../../provider/hidden";
import { journalFor, resetJournals } from "../../provider/journal";
import { putFile } from "./helpers/files";

type Props = Record<string, unknown>;
const PROVIDER = { __provider: "shim" };

let emulator: RunningEmulator;
let api: MediahostClient;
let journalDir: string;

beforeAll(async () => {
  emulator = await startEmulator({ log: () => {} });
  api = new MediahostClient({ baseUrl: emulator.url, clientId: "demo-client", clientSecret: "demo-secret" });
  journalDir = await mkdtemp(join(tmpdir(), "mediahost-shared-"));
  process.env.MEDIAHOST_JOURNAL_DIR = journalDir;
});
afterAll(async () => {
  delete process.env.MEDIAHOST_JOURNAL_DIR;
  await emulator.stop();
  await rm(journalDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await emulator.control.reset();
  await emulator.control.setFaults({ latencyMs: 0 });
  await emulator.control.setBehaviour({ aliasesUpdate: "merge" });
  await rm(journalDir, { recursive: true, force: true });
  resetJournals();
  sharedTokenCache.clear();
});

/** A new provider process of the stack `owner` (a `pulumi` command), with the stack's config. */
function run(config: Record<string, string> = {}, owner = "org/proj/dev") {
  resetJournals();
  const all: Record<string, string> = {
    "mediahost:baseUrl": emulator.url,
    "mediahost:clientId": "demo-client",
    "mediahost:clientSecret": "demo-secret",
    ...config,
  };
  const lc = new DynamicFace(
    new Face(readConfiguration({ config: (k) => all[k], env: { MEDIAHOST_JOURNAL_DIR: journalDir } })),
  );
  const withOwner = (p: Props) => ({ ...PROVIDER, ...p, [OWNER_KEY]: owner });
  return {
    async create(kind: string, inputs: Props) {
      const checked = await lc.check(kind, {}, withOwner(inputs));
      if (checked.failures.length) throw new Error(JSON.stringify(checked.failures));
      return lc.create(kind, checked.inputs);
    },
    async diff(kind: string, id: string, outs: Props, inputs: Props) {
      const checked = await lc.check(kind, outs, withOwner(inputs));
      return lc.diff(kind, id, outs, checked.inputs);
    },
    /** check of new inputs against the old ones, as the engine runs it before a diff. */
    diffCheck: (kind: string, outs: Props, inputs: Props) => lc.check(kind, outs, withOwner(inputs)),
    read: (kind: string, id: string, outs: Props) => lc.read(kind, id, outs),
    async update(kind: string, id: string, outs: Props, inputs: Props) {
      const checked = await lc.check(kind, outs, withOwner(inputs));
      return (await lc.update(kind, id, outs, checked.inputs)).outs;
    },
    remove: (kind: string, id: string, outs: Props) => lc.remove(kind, id, outs),
  };
}

const state = () => emulator.control.state();
const aliasNames = () => Object.keys(state().account.aliases).sort();

describe("two writers of one account at the same time", () => {
  it("two stacks writing aliases while a person adds one: every alias stays (the service replaces the map)", async () => {
    await emulator.control.setBehaviour({ aliasesUpdate: "replace" });
    await emulator.control.setFaults({ latencyMs: 40 });
    const a = run({}, "org/proj/a");
    const b = run({}, "org/proj/b");
    // a careful person in the console: reads the map, adds an entry, writes the map, and looks again
    const person = async () => {
      await new Promise((r) => setTimeout(r, 120));
      for (let i = 0; i < 5; i++) {
        const { aliases } = await api.ops.getAccount();
        const map = Object.fromEntries(
          Object.entries(aliases ?? {}).map(([n, e]) => [n, { prefix: e.prefix, cdn: e.cdn }]),
        );
        await api.ops.updateAccount({ body: { aliases: { ...map, console: { prefix: "/console" } } } });
        await new Promise((r) => setTimeout(r, 150));
        if ((await api.ops.getAccount()).aliases?.console) return;
      }
    };
    const wave = (r: ReturnType<typeof run>, prefix: string) =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          new Promise((res) => setTimeout(res, i * 15)).then(() =>
            r.create("Alias", { name: `${prefix}${i}`, prefix: `/${prefix}/${i}` }),
          ),
        ),
      );
    const [madeA, madeB] = await Promise.all([
      wave(a, "a"),
      new Promise((r) => setTimeout(r, 60)).then(() => wave(b, "b")),
      person(),
    ]);
    const expected = ["console", "demo", ...Array.from({ length: 12 }, (_, i) => [`a${i}`, `b${i}`]).flat()];
    expect(aliasNames()).toEqual(expected.sort());
    // each stack's refresh is clean
    for (const [r, made] of [
      [run({}, "org/proj/a"), madeA],
      [run({}, "org/proj/b"), madeB],
    ] as const) {
      for (const m of made as { id: string; outs: Props }[]) {
        const read = await r.read("Alias", m.id, m.outs);
        expect(read.id).toBe(m.id);
        expect(read.props).toMatchObject({ prefix: m.outs.prefix });
      }
    }
  });

  it("two stacks writing aliases while a person changes an existing one: nothing reverted (the service merges the map)", async () => {
    await emulator.control.setBehaviour({ aliasesUpdate: "merge" });
    await emulator.control.setFaults({ latencyMs: 40 });
    await api.ops.updateAccount({ body: { aliases: { legacy: { prefix: "/old", cdn: false } } } });
    const a = run({}, "org/proj/a");
    const b = run({}, "org/proj/b");
    // the person changes one field of an alias neither stack manages; a whole-map write made from
    // an older read would put the old value back
    const person = async () => {
      await new Promise((r) => setTimeout(r, 120));
      await api.ops.updateAccount({ body: { aliases: { legacy: { prefix: "/new", cdn: false } } } });
    };
    const wave = (r: ReturnType<typeof run>, prefix: string) =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          new Promise((res) => setTimeout(res, i * 15)).then(() =>
            r.create("Alias", { name: `${prefix}${i}`, prefix: `/${prefix}/${i}` }),
          ),
        ),
      );
    await Promise.all([
      wave(a, "a"),
      new Promise((r) => setTimeout(r, 60)).then(() => wave(b, "b")),
      person(),
    ]);
    const expected = ["demo", "legacy", ...Array.from({ length: 12 }, (_, i) => [`a${i}`, `b${i}`]).flat()];
    expect(aliasNames()).toEqual(expected.sort());
    expect(state().account.aliases.legacy).toMatchObject({ prefix: "/new" });
  });

  it("two FolderOptions of one program on one folder keep both options", async () => {
    const r = run();
    await r.create("Folder", { path: "/spins" });
    await Promise.all([
      r.create("FolderOptions", { path: "/spins", scanSpins: true }),
      r.create("FolderOptions", { path: "/spins", allowListing: true }),
    ]);
    expect(state().options["/spins"]).toEqual({ scanSpins: true, allowListing: true });
  });

  it("two stacks writing options of one folder at once keep both, and both refresh clean", async () => {
    await api.ops.mkdir({ query: { dirname: "/shared" } });
    await emulator.control.setFaults({ latencyMs: 40 });
    const [a, b] = [run({}, "org/proj/a"), run({}, "org/proj/b")];
    const [ma, mb] = await Promise.all([
      a.create("FolderOptions", { path: "/shared", scanSpins: true }),
      b.create("FolderOptions", { path: "/shared", allowListing: false }),
    ]);
    expect(state().options["/shared"]).toEqual({ scanSpins: true, allowListing: false });
    expect((await run().read("FolderOptions", ma.id, ma.outs)).props).toMatchObject({ scanSpins: true });
    expect((await run().read("FolderOptions", mb.id, mb.outs)).props).toMatchObject({ allowListing: false });
  });
});

describe("a folder's path change moves it, with everything in it", () => {
  async function gallery() {
    const r = run();
    const folder = await r.create("Folder", { path: "/gallery" });
    const options = await r.create("FolderOptions", { path: "/gallery", allowListing: true });
    const meta = await r.create("FolderMeta", { path: "/gallery", title: "Gallery", tags: ["a"] });
    const file = await r.create("File", { path: "/gallery/photo.jpg", content: "jpeg bytes" });
    return { folder, options, meta, file };
  }
  type Made = { id: string; outs: Props };

  /**
   * The engine's steps of a path change as `pulumi up` runs them, the folder first (its children
   * name its path): diff each, then update each. Returns the diffs and the updated outputs.
   */
  async function moveTo(r: ReturnType<typeof run>, from: Awaited<ReturnType<typeof gallery>>, to: string) {
    const steps: [string, Made, Props][] = [
      ["Folder", from.folder, { path: to }],
      ["FolderOptions", from.options, { path: to, allowListing: true }],
      ["FolderMeta", from.meta, { path: to, title: "Gallery", tags: ["a"] }],
      ["File", from.file, { path: `${to}/photo.jpg`, content: "jpeg bytes" }],
    ];
    const diffs = [];
    for (const [kind, made, inputs] of steps) diffs.push(await r.diff(kind, made.id, made.outs, inputs));
    // the followers' updates start at once and wait for the folder's move
    const outs = await Promise.all(
      steps.map(([kind, made, inputs]) => r.update(kind, made.id, made.outs, inputs)),
    );
    return { diffs, outs };
  }

  it("renames the folder once; its options, meta and file follow without adopt or any write", async () => {
    const before = await gallery();
    emulator.control.clearRequests();
    const r = run();
    const { diffs, outs } = await moveTo(r, before, "/archive/gallery");
    for (const d of diffs) expect(d).toMatchObject({ changes: true, replaces: [] });
    const ops = emulator.control.requests(0).requests.map((x) => x.operation);
    expect(ops.filter((op) => op === "rename")).toHaveLength(1);
    expect(
      ops.filter((op) => !["token", "getAccount", "stat", "mkdir", "rename"].includes(op ?? "")),
    ).toEqual([]);
    const s = state();
    const paths = s.tree.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["/archive/gallery", "/archive/gallery/photo.jpg"]));
    expect(paths.filter((x) => x.startsWith("/gallery"))).toEqual([]);
    expect(s.options["/archive/gallery"]).toEqual({ allowListing: true });
    expect(s.meta["/archive/gallery"]).toMatchObject({ title: "Gallery", tags: ["a"] });
    expect(outs.map((o) => o.path)).toEqual([
      "/archive/gallery",
      "/archive/gallery",
      "/archive/gallery",
      "/archive/gallery/photo.jpg",
    ]);
    // each resource reads back clean where it is now
    const later = run();
    for (const [kind, made, o] of [
      ["Folder", before.folder, outs[0]],
      ["FolderOptions", before.options, outs[1]],
      ["FolderMeta", before.meta, outs[2]],
      ["File", before.file, outs[3]],
    ] as const) {
      const read = await later.read(kind, made.id, o as Props);
      expect(read.id, kind).toBe(made.id);
      const d = await later.diff(kind, made.id, read.props, read.inputs as Props);
      expect(d.changes, kind).toBe(false);
    }
  });

  it("refuses, changing nothing, to move onto a path that exists, and at check into itself", async () => {
    const before = await gallery();
    await api.ops.mkdir({ query: { dirname: "/taken" } });
    const r = run();
    await expect(
      r.update("Folder", before.folder.id, before.folder.outs, { path: "/taken" }),
    ).rejects.toThrow(
      /cannot move \/gallery to \/taken: \/taken exists already \(a folder\); nothing was changed/,
    );
    const checked = await r.diffCheck("Folder", before.folder.outs, { path: "/gallery/inner" });
    expect(checked.failures).toEqual([
      {
        property: "path",
        reason:
          "cannot move /gallery to /gallery/inner, which is inside it (a folder cannot be moved into itself)",
      },
    ]);
    const s = state();
    expect(s.tree.map((e) => e.path)).toEqual(expect.arrayContaining(["/gallery", "/gallery/photo.jpg"]));
    expect(s.options["/gallery"]).toEqual({ allowListing: true });
  });

  it("moving it back undoes the move the same way", async () => {
    const first = await gallery();
    const r = run();
    const there = await moveTo(r, first, "/archive/gallery");
    const made = (i: number) => ({
      id: [first.folder, first.options, first.meta, first.file][i]!.id,
      outs: there.outs[i]!,
    });
    const back = await moveTo(
      run(),
      { folder: made(0), options: made(1), meta: made(2), file: made(3) },
      "/gallery",
    );
    for (const d of back.diffs) expect(d.replaces).toEqual([]);
    const s = state();
    const paths = s.tree.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["/gallery", "/gallery/photo.jpg", "/archive"]));
    expect(paths.filter((x) => x.startsWith("/archive/"))).toEqual([]);
    expect(s.options["/gallery"]).toEqual({ allowListing: true });
    expect(s.meta["/gallery"]).toMatchObject({ title: "Gallery", tags: ["a"] });
  });

  it("a follower whose folder failed to move fails too, saying so, and nothing moves", async () => {
    const before = await gallery();
    await api.ops.mkdir({ query: { dirname: "/taken" } });
    const r = run();
    await r.diff("Folder", before.folder.id, before.folder.outs, { path: "/taken" });
    await r.diff("FolderMeta", before.meta.id, before.meta.outs, {
      path: "/taken",
      title: "Gallery",
      tags: ["a"],
    });
    const [folder, meta] = await Promise.allSettled([
      r.update("Folder", before.folder.id, before.folder.outs, { path: "/taken" }),
      r.update("FolderMeta", before.meta.id, before.meta.outs, {
        path: "/taken",
        title: "Gallery",
        tags: ["a"],
      }),
    ]);
    expect(folder.status).toBe("rejected");
    expect(meta.status === "rejected" && String(meta.reason)).toMatch(
      /FolderMeta \/gallery: \/gallery did not move: the folder holding it failed to move/,
    );
    expect(state().meta["/gallery"]).toMatchObject({ title: "Gallery" });
  });
});

describe("an account rename that reaches the same account", () => {
  const alt = {
    "mediahost:accounts": JSON.stringify({ alt: { clientId: "demo-client", clientSecret: "demo-secret" } }),
  };

  it("with the same credentials: an update, not a replace, and the service is not touched", async () => {
    const r = run(alt);
    const { id, outs } = await r.create("Folder", { path: "/kept", forceDestroy: true });
    emulator.control.clearRequests();
    const d = await r.diff("Folder", id, outs, { path: "/kept", forceDestroy: true, account: "alt" });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const updated = await r.update("Folder", id, outs, { path: "/kept", forceDestroy: true, account: "alt" });
    expect(updated.account).toBe("alt");
    expect(emulator.control.requests(0).requests.map((x) => x.operation)).toEqual([]);
  });

  it("with other credentials of the same account: replaced without touching the service or losing anything", async () => {
    // a second API client of the same account: the provider cannot know it is the same account until it reads
    await emulator.control.addClient({ alias: "demo", clientId: "ops-client", clientSecret: "ops-secret" });
    const other = {
      "mediahost:accounts": JSON.stringify({ alt: { clientId: "ops-client", clientSecret: "ops-secret" } }),
    };
    const r0 = run(other);
    const folder = await r0.create("Folder", { path: "/media", forceDestroy: true });
    await putFile(api, "/media/a.txt", "a");
    const meta = await r0.create("FolderMeta", { path: "/media", title: "Media" });
    const sub = await r0.create("SubAccount", { alias: "team" });
    await r0.create("Alias", { name: "shop", prefix: "/shop" });
    const domain = await r0.create("CustomDomain", { alias: "shop", domain: "img.shop.example" });

    const r = run(other);
    for (const [kind, made, inputs] of [
      ["Folder", folder, { path: "/media", forceDestroy: true, account: "alt" }],
      ["FolderMeta", meta, { path: "/media", title: "Media", account: "alt" }],
      ["SubAccount", sub, { alias: "team", account: "alt" }],
      ["CustomDomain", domain, { alias: "shop", domain: "img.shop.example", account: "alt" }],
    ] as const) {
      const d = await r.diff(kind, made.id, made.outs, inputs);
      expect(d.replaces, kind).toEqual(["account"]);
      // CustomDomain replaces delete first for its own properties, not for an account name
      expect(d.deleteBeforeReplace, kind).toBe(false);
    }
    // the replacement, create before delete
    await r.create("Folder", { path: "/media", forceDestroy: true, account: "alt" });
    await r.create("FolderMeta", { path: "/media", title: "Media", account: "alt" });
    await r.create("SubAccount", { alias: "team", account: "alt" });
    await r.create("CustomDomain", { alias: "shop", domain: "img.shop.example", account: "alt" });
    await r.remove("FolderMeta", meta.id, meta.outs);
    await r.remove("SubAccount", sub.id, sub.outs);
    await r.remove("Folder", folder.id, folder.outs);
    await r.remove("CustomDomain", domain.id, domain.outs);
    const s = state();
    expect(s.tree.map((e) => e.path)).toEqual(expect.arrayContaining(["/media", "/media/a.txt"]));
    expect(s.meta["/media"]?.title).toBe("Media");
    expect(s.subAccounts).toContain("team");
    expect(s.account.aliases.shop?.customDomain).toBe("img.shop.example");
  });
});

describe("what the stack journal noted under a folder", () => {
  it("is forgotten once the folder is deleted: a later create there needs adopt again", async () => {
    const r = run();
    const folder = await r.create("Folder", { path: "/moved" });
    // a failed move left the folder's meta in place as this stack's (docs/reliability.md)
    journalFor(journalDir, "org/proj/dev", emulator.url, "demo")?.keep(
      "FolderMeta",
      "/moved",
      "its folder was moving away",
    );
    await r.remove("Folder", folder.id, folder.outs);
    // someone else makes the path again, with meta of their own
    await api.ops.mkdir({ query: { dirname: "/moved" } });
    await api.ops.setMeta({ query: { filename: "/moved" }, body: { title: "Theirs" } });
    await expect(run().create("FolderMeta", { path: "/moved", title: "Ours" })).rejects.toThrow(
      /adopt: true/,
    );
    expect(state().meta["/moved"]).toMatchObject({ title: "Theirs" });
  });
});

describe("nothing is taken over without adopt", () => {
  it("FolderMeta on a folder that has meta: refused; adopted, it puts back what it found on delete", async () => {
    await api.ops.mkdir({ query: { dirname: "/old" } });
    await api.ops.setMeta({ query: { filename: "/old" }, body: { title: "Theirs" } });
    await api.ops.addTags({ query: { filename: "/old" }, body: { tags: ["keep"] } });
    const r = run();
    await expect(r.create("FolderMeta", { path: "/old", title: "Ours", tags: ["new"] })).rejects.toThrow(
      /FolderMeta \/old: its meta \(title, tags\) already exists .*adopt: true/s,
    );
    expect(state().meta["/old"]).toMatchObject({ title: "Theirs", tags: ["keep"] });
    const adopted = await r.create("FolderMeta", { path: "/old", title: "Ours", tags: ["new"], adopt: true });
    expect(state().meta["/old"]).toMatchObject({ title: "Ours", tags: ["new"] });
    await r.remove("FolderMeta", adopted.id, adopted.outs);
    expect(state().meta["/old"]).toMatchObject({ title: "Theirs", tags: ["keep"] });
  });

  it("CustomDomain on an alias that has another domain: refused naming it; adopted, it puts that domain back", async () => {
    await api.ops.updateAccount({ body: { aliases: { web: { prefix: "/" } } } });
    await api.ops.addCustomDomain({ body: { alias: "web", domain: "old.example.com" } });
    const r = run();
    await expect(r.create("CustomDomain", { alias: "web", domain: "new.example.com" })).rejects.toThrow(
      /CustomDomain web\/new\.example\.com: alias "web" with the custom domain old\.example\.com already exists .*adopt: true/s,
    );
    expect(state().account.aliases.web?.customDomain).toBe("old.example.com");
    const adopted = await r.create("CustomDomain", { alias: "web", domain: "new.example.com", adopt: true });
    expect(state().account.aliases.web?.customDomain).toBe("new.example.com");
    await r.remove("CustomDomain", adopted.id, adopted.outs);
    expect(state().account.aliases.web?.customDomain).toBe("old.example.com");
  });

  it("FolderOptions set already: refused; adopted, they are put back on delete", async () => {
    await api.ops.mkdir({ query: { dirname: "/opts" } });
    await api.ops.setFolderOptions({ query: { filename: "/opts" }, body: { scanSpins: false } });
    const r = run();
    await expect(r.create("FolderOptions", { path: "/opts", scanSpins: true })).rejects.toThrow(
      /FolderOptions \/opts: its options \(scanSpins\) already exists/,
    );
    const adopted = await r.create("FolderOptions", { path: "/opts", scanSpins: true, adopt: true });
    expect(state().options["/opts"]).toEqual({ scanSpins: true });
    await r.remove("FolderOptions", adopted.id, adopted.outs);
    expect(state().options["/opts"]).toEqual({ scanSpins: false });
  });

  it("Alias adopted is put back as found on delete", async () => {
    await api.ops.updateAccount({ body: { aliases: { legacy: { prefix: "/legacy", cdn: false } } } });
    const r = run();
    await expect(r.create("Alias", { name: "legacy", prefix: "/new" })).rejects.toThrow(/already exists/);
    const adopted = await r.create("Alias", {
      name: "legacy",
      prefix: "/new",
      defaultProfile: "p",
      adopt: true,
    });
    expect(state().account.aliases.legacy).toMatchObject({ prefix: "/new", defaultProfile: "p" });
    await run().remove("Alias", adopted.id, adopted.outs);
    expect(state().account.aliases.legacy).toEqual({ prefix: "/legacy", cdn: false });
  });
});
