// The journal of creates in flight (provider/journal.ts): notes survive the process (a new
// provider process reads them back), are kept per stack and account, and go away when forgotten.
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreateJournal, journalFor, resetJournals } from "../../provider/journal";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mediahost-journal-unit-"));
  process.env.MEDIAHOST_JOURNAL_DIR = join(dir, "journal");
  resetJournals();
});
afterEach(async () => {
  delete process.env.MEDIAHOST_JOURNAL_DIR;
  resetJournals();
  await rm(dir, { recursive: true, force: true });
});

describe("create journal", () => {
  it("tells a later process that an earlier one began the same create", () => {
    const first = new CreateJournal("org/proj/dev", "http://127.0.0.1:1", "demo");
    expect(first.begin("Folder", "/a")).toBe(false);
    expect(first.begin("Folder", "/a")).toBe(true);
    const later = new CreateJournal("org/proj/dev", "http://127.0.0.1:1", "demo");
    expect(later.has("Folder", "/a")).toBe(true);
    expect(later.begin("Folder", "/a")).toBe(true);
    later.forget("Folder", "/a");
    expect(new CreateJournal("org/proj/dev", "http://127.0.0.1:1", "demo").has("Folder", "/a")).toBe(false);
  });

  it("keeps stacks, accounts and kinds apart", () => {
    new CreateJournal("org/proj/dev", "http://127.0.0.1:1", "demo").begin("Alias", "web");
    expect(new CreateJournal("org/proj/prod", "http://127.0.0.1:1", "demo").has("Alias", "web")).toBe(false);
    expect(new CreateJournal("org/proj/dev", "http://127.0.0.1:1", "other").has("Alias", "web")).toBe(false);
    expect(new CreateJournal("org/proj/dev", "http://127.0.0.1:2", "demo").has("Alias", "web")).toBe(false);
    expect(new CreateJournal("org/proj/dev", "http://127.0.0.1:1", "demo").has("SubAccount", "web")).toBe(
      false,
    );
  });

  it("is private to the user and leaves no temporary file", async () => {
    new CreateJournal("o/p/s", "http://127.0.0.1:1", "demo").begin("Folder", "/x");
    const files = await readdir(join(dir, "journal"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.json$/);
    expect((await stat(join(dir, "journal", files[0]!))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "journal"))).mode & 0o777).toBe(0o700);
  });

  it("needs an owner: without one (an older SDK) there is no journal", () => {
    expect(journalFor(undefined, "http://127.0.0.1:1", "demo")).toBeUndefined();
    expect(journalFor("o/p/s", "http://127.0.0.1:1", "demo")).toBe(
      journalFor("o/p/s", "http://127.0.0.1:1", "demo"),
    );
  });
});
