// The stack journal (provider/journal.ts): notes survive the process (a new provider process
// reads them back), are kept per stack and account, say what they are about (a create in flight,
// an object kept, an object taken over), and go away when their reason does.
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalFor, resetJournals, StackJournal } from "../../provider/journal";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mediahost-journal-unit-"));
  resetJournals();
});
afterEach(async () => {
  resetJournals();
  await rm(dir, { recursive: true, force: true });
});

/** The end of the current turn of the event loop, when the journal writes its drops. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
const journal = (owner = "org/proj/dev", baseUrl = "http://127.0.0.1:1", alias = "demo") =>
  new StackJournal(join(dir, "journal"), owner, baseUrl, alias);

describe("stack journal", () => {
  it("tells a later process that an earlier one began the same create", async () => {
    const first = journal();
    expect(first.beginCreate("Folder", "/a")).toBe(false);
    expect(first.beginCreate("Folder", "/a")).toBe(true);
    const later = journal();
    expect(later.note("Folder", "/a")?.state).toBe("creating");
    expect(later.beginCreate("Folder", "/a")).toBe(true);
    later.created("Folder", "/a");
    await turn();
    expect(journal().note("Folder", "/a")).toBeUndefined();
  });

  it("writes a note before the caller goes on, and the drops of one turn of the event loop together", async () => {
    const j = journal();
    for (let i = 0; i < 3; i++) j.beginCreate("Folder", `/n${i}`);
    // on disk at once: another process sees them
    for (let i = 0; i < 3; i++) expect(journal().note("Folder", `/n${i}`)?.state).toBe("creating");
    for (let i = 0; i < 3; i++) j.created("Folder", `/n${i}`);
    expect(j.note("Folder", "/n0")).toBeUndefined();
    expect(journal().note("Folder", "/n0")?.state).toBe("creating");
    await turn();
    for (let i = 0; i < 3; i++) expect(journal().note("Folder", `/n${i}`)).toBeUndefined();
    // a note written after drops goes after them: the order of the log is the order of changes
    j.beginCreate("Folder", "/n1");
    j.created("Folder", "/n1");
    j.beginCreate("Folder", "/n1");
    expect(journal().note("Folder", "/n1")?.state).toBe("creating");
  });

  it("keeps an object kept or taken over until its reason goes, whatever reads of it say", async () => {
    const j = journal();
    j.keep("Folder", "/gallery", "not empty");
    // a refresh of the pending-delete resource sees the object in the state: the note stays
    j.created("Folder", "/gallery");
    expect(journal().note("Folder", "/gallery")).toMatchObject({ state: "kept", reason: "not empty" });
    j.claim("Folder", "/gallery", "token-1");
    expect(journal().note("Folder", "/gallery")).toMatchObject({ state: "claimed", token: "token-1" });
    j.forget("Folder", "/gallery");
    await turn();
    expect(journal().note("Folder", "/gallery")).toBeUndefined();
  });

  it("reads the notes releases up to 0.2.0 wrote (one JSON object; 0.1.0's as creates in flight) and moves them into the log", async () => {
    const j = journal();
    j.beginCreate("Alias", "x"); // names the file; the older releases' file has the same name, .json
    const [log] = await readdir(join(dir, "journal"));
    const legacy = join(dir, "journal", log!.replace(/\.jsonl$/, ".json"));
    await rm(join(dir, "journal", log!));
    await writeFile(
      legacy,
      JSON.stringify({
        "Folder /old": { startedAt: "2026-11-20T00:00:00Z" },
        "Folder /kept": { state: "kept", at: "2026-11-24T00:00:00Z", reason: "not empty" },
      }),
    );
    resetJournals();
    expect(journal().note("Folder", "/old")).toEqual({ state: "creating", at: "2026-11-20T00:00:00Z" });
    expect(journal().note("Folder", "/kept")).toMatchObject({ state: "kept", reason: "not empty" });
    expect(journal().beginCreate("Folder", "/old")).toBe(true);
    expect(await readdir(join(dir, "journal"))).toEqual([log]);
    expect(journal().note("Folder", "/kept")).toMatchObject({ state: "kept" });
  });

  it("costs one appended line per change, skips a line torn by a crash, and compacts a long log", async () => {
    const j = journal();
    for (let i = 0; i < 300; i++) j.beginCreate("Folder", `/f${i}`);
    const [log] = await readdir(join(dir, "journal"));
    const file = join(dir, "journal", log!);
    const lines = async () => (await readFile(file, "utf8")).split("\n").filter(Boolean);
    expect(await lines()).toHaveLength(300);
    // a crash in the middle of a write leaves half a line
    await appendFile(file, '["Folder /torn", {"state":"crea');
    resetJournals();
    const later = journal();
    expect(later.note("Folder", "/f299")?.state).toBe("creating");
    expect(later.note("Folder", "/torn")).toBeUndefined();
    // the notes go one by one as the state takes the objects in; the log is rewritten on the way
    for (let i = 0; i < 300; i++) later.created("Folder", `/f${i}`);
    await turn();
    expect((await lines()).length).toBeLessThan(300);
    resetJournals();
    for (let i = 0; i < 300; i++) expect(journal().note("Folder", `/f${i}`)).toBeUndefined();
  });

  it("keeps stacks, accounts and kinds apart", () => {
    journal().beginCreate("Alias", "web");
    expect(journal("org/proj/prod").note("Alias", "web")).toBeUndefined();
    expect(journal(undefined, undefined, "other").note("Alias", "web")).toBeUndefined();
    expect(journal(undefined, "http://127.0.0.1:2").note("Alias", "web")).toBeUndefined();
    expect(journal().note("SubAccount", "web")).toBeUndefined();
  });

  it("is private to the user and leaves no temporary file", async () => {
    await mkdir(join(dir, "other"));
    journal("o/p/s").beginCreate("Folder", "/x");
    const files = await readdir(join(dir, "journal"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.jsonl$/);
    expect((await stat(join(dir, "journal", files[0]!))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "journal"))).mode & 0o777).toBe(0o700);
  });

  it("needs an owner: without one (an older SDK) there is no journal", () => {
    expect(journalFor(dir, undefined, "http://127.0.0.1:1", "demo")).toBeUndefined();
    expect(journalFor(dir, "o/p/s", "http://127.0.0.1:1", "demo")).toBe(
      journalFor(dir, "o/p/s", "http://127.0.0.1:1", "demo"),
    );
  });
});
