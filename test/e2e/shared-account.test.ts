// Nothing lost when the provider is not alone, with the real CLI where the engine's ordering
// matters: two stacks writing one account at once while a person changes it in the console, a
// folder moved with its content, and an `account` rename that reaches the same account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { putFile } from "../integration/helpers/files";
import { DEMO_CLIENT, openProject, type Project } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const ALIASES = 24;

describe("two stacks on one account at the same time, and a person in the console", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let emulator: RunningEmulator;
  let a: Project;
  let b: Project;
  beforeAll(async () => {
    // the service replaces the alias map on update: every whole-map write from an old read loses aliases
    emulator = await startEmulator({ log: () => {}, aliasesUpdate: "replace", latencyMs: 150 });
    const api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
    await api.ops.mkdir({ query: { dirname: "/shared" } });
    const team = (name: string, option: string) => ({
      workDir: "test/e2e/programs/team",
      emulator,
      config: {
        team: { value: name },
        aliases: { value: String(ALIASES) },
        sharedFolder: { value: "/shared" },
        option: { value: option },
      },
    });
    a = await openProject(toolchain, team("a", "scanSpins"));
    b = await openProject(toolchain, team("b", "allowListing"));
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    await emulator?.stop();
  });

  it("both ups succeed and the account holds every alias, the person's too, and both options", async () => {
    const api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
    // a careful person: reads the map, adds an entry, writes the map back, and looks again
    const person = async () => {
      await new Promise((r) => setTimeout(r, 2_000));
      for (let i = 0; i < 10; i++) {
        const { aliases } = await api.ops.getAccount();
        const map = Object.fromEntries(
          Object.entries(aliases ?? {}).map(([n, e]) => [n, { prefix: e.prefix, cdn: e.cdn }]),
        );
        await api.ops.updateAccount({ body: { aliases: { ...map, console: { prefix: "/console" } } } });
        await new Promise((r) => setTimeout(r, 1_000));
        if ((await api.ops.getAccount()).aliases?.console) return i + 1;
      }
      return 10;
    };
    const [upA, upB, tries] = await Promise.all([
      a.stack.up(),
      new Promise((r) => setTimeout(r, 300)).then(() => b.stack.up()),
      person(),
    ]);
    expect(upA.summary.result).toBe("succeeded");
    expect(upB.summary.result).toBe("succeeded");
    const names = Object.keys(emulator.control.state().account.aliases);
    const expected = [
      "demo",
      "console",
      ...Array.from({ length: ALIASES }, (_, i) => [`a${i}`, `b${i}`]).flat(),
    ];
    expect(names.sort()).toEqual(expected.sort());
    expect(emulator.control.state().options["/shared"]).toEqual({ scanSpins: true, allowListing: true });
    console.log(`two stacks at once: ${names.length} aliases; the person wrote ${tries} time(s)`);
  });

  it("both stacks' refresh previews are clean", async () => {
    await a.stack.preview({ refresh: true, expectNoChanges: true });
    await b.stack.preview({ refresh: true, expectNoChanges: true });
  });
});

describe("a folder moved while it holds files, refused onto a taken path, and moved back", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "test/e2e/programs/gallery",
      emulator: { aliasesUpdate: "replace" },
    });
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
  });
  afterAll(() => p?.dispose());

  const paths = () => p.emulator.control.state().tree.map((e) => e.path);

  it("moves /gallery with its photo, options and meta to /archive/gallery: nothing deleted or uploaded", async () => {
    await putFile(p.api, "/gallery/photo.png", "png bytes");
    await p.stack.setConfig("galleryPath", { value: "/archive/gallery" });
    p.mark();
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 3, same: 2 });
    const calls = p.calls();
    expect(calls.rename).toBe(1);
    expect(calls.mkdir).toBe(1); // the new parent, /archive
    for (const op of ["deleteFile", "upload", "setMeta", "addTags", "setFolderOptions"])
      expect(calls[op] ?? 0, op).toBe(0);
    const s = p.emulator.control.state();
    expect(paths()).toEqual(expect.arrayContaining(["/archive/gallery", "/archive/gallery/photo.png"]));
    expect(paths().filter((x) => x.startsWith("/gallery"))).toEqual([]);
    expect(s.meta["/archive/gallery"]).toMatchObject({ title: "Gallery", tags: ["a", "b"] });
    expect(s.options["/archive/gallery"]).toEqual({ allowListing: true });
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 5 });
  });

  it("refuses, with nothing changed, a move onto a path that exists", async () => {
    await p.api.ops.mkdir({ query: { dirname: "/taken" } });
    await p.stack.setConfig("galleryPath", { value: "/taken" });
    const failed = await p.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(
      /cannot move \/archive\/gallery to \/taken: \/taken exists already \(a folder\); nothing was changed/,
    );
    expect(paths()).toEqual(expect.arrayContaining(["/archive/gallery/photo.png", "/taken"]));
    expect(p.emulator.control.state().meta["/archive/gallery"]).toMatchObject({ title: "Gallery" });
  });

  it("moves back when the path is set back, and a refresh is quiet", async () => {
    await p.stack.removeConfig("galleryPath");
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const s = p.emulator.control.state();
    expect(paths()).toEqual(expect.arrayContaining(["/gallery", "/gallery/photo.png"]));
    expect(paths().filter((x) => x.startsWith("/archive/"))).toEqual([]);
    expect(s.meta["/gallery"]).toMatchObject({ title: "Gallery", tags: ["a", "b"] });
    expect(s.options["/gallery"]).toEqual({ allowListing: true });
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 5 });
    await p.api.ops.deleteFile({ query: { filename: "/gallery/photo.png" } });
  });
});

describe("an account rename that reaches the same account", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  const writes = () =>
    Object.keys(p.calls()).filter(
      (op) => !["token", "getAccount", "stat", "getFolderOptions", "getMeta"].includes(op),
    );
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "test/e2e/programs/gallery",
      config: { forceDestroy: { value: "true" } },
    });
    await p.stack.up();
    await putFile(p.api, "/gallery/cover.jpg", "jpeg bytes");
  });
  afterAll(() => p?.dispose());

  it("with the same credentials under another name: nothing is replaced, and nothing is written", async () => {
    await p.stack.setConfig("mediahost:accounts", {
      value: JSON.stringify({ alt: DEMO_CLIENT }),
      secret: true,
    });
    await p.stack.setConfig("account", { value: "alt" });
    p.mark();
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 4 });
    expect(up.summary.resourceChanges?.replace ?? 0).toBe(0);
    expect(writes()).toEqual([]);
  });

  it("with another API client of the same account: replaced without deleting or blanking anything", async () => {
    await p.emulator.control.addClient({ alias: "demo", clientId: "ops-client", clientSecret: "ops-secret" });
    await p.stack.setConfig("mediahost:accounts", {
      value: JSON.stringify({
        alt: DEMO_CLIENT,
        ops: { clientId: "ops-client", clientSecret: "ops-secret" },
      }),
      secret: true,
    });
    await p.stack.setConfig("account", { value: "ops" });
    p.mark();
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 4 });
    expect(writes()).toEqual([]);
    const s = p.emulator.control.state();
    expect(s.tree.map((e) => e.path)).toEqual(expect.arrayContaining(["/gallery", "/gallery/cover.jpg"]));
    expect(s.meta["/gallery"]).toMatchObject({ title: "Gallery", tags: ["a", "b"] });
    expect(s.options["/gallery"]).toEqual({ allowListing: true });
    expect(s.subAccounts).toContain("gallery-team");
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  });
});
