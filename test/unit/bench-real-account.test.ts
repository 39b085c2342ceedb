// The real-account bench's pure parts (scripts/bench/real-account.ts): the census of an account,
// each step's floor, which rate-limit counters calls count against, and their share of the hourly
// budgets.
import { operations } from "mediahost-contract";
import { describe, expect, it } from "vitest";
import {
  budgetShares,
  censusOf,
  countersOf,
  importCensusOf,
  pagesOf,
  REAL_STEPS,
  type RealAccountReport,
  realFloor,
  renderBaseline,
} from "../../scripts/bench/real-account";

const dir = (path: string) => ({ path, isDirectory: true });
const file = (path: string) => ({ path, isDirectory: false });

/** A small account: 150 files in /big (two pages), one in /small, an empty folder, system folders. */
function smallAccount() {
  const tree = [
    dir("/.Trash"),
    file("/.Trash/old.jpg"),
    dir("/Profiles"),
    file("/Profiles/Default.profile"),
    file("/Profiles/notes.txt"),
    dir("/big"),
    ...Array.from({ length: 150 }, (_, i) => file(`/big/f${i}.jpg`)),
    dir("/big/empty"),
    dir("/small"),
    file("/small/a.png"),
  ];
  const meta = {
    "/big/f1.jpg": { title: "t" },
    "/small": { tags: ["x"] },
    "/.Trash/old.jpg": { title: "gone" },
  };
  const options = { "/big": { scanSpins: true }, "/Profiles": { allowListing: true } };
  return censusOf({ tree, meta, options }, { "/big/f2.jpg": 2, "/small/a.png": 1, "/big/f3.jpg": 0 });
}

describe("the real account's census", () => {
  it("counts the account's own folders, files, meta, options and points, not the system folders'", () => {
    const c = smallAccount();
    expect(c.entries).toEqual({ "/": 4, "/big": 151, "/big/empty": 0, "/small": 1 });
    expect(c.files).toBe(151);
    expect(c.profiles).toBe(1);
    expect([c.metaFiles, c.metaFolders, c.optionFolders]).toEqual([1, 1, 1]);
    expect([c.pointFiles, c.points]).toEqual([2, 3]);
  });
});

describe("the real account's floors", () => {
  const c = smallAccount();

  it("name only operations of the API", () => {
    for (const step of REAL_STEPS)
      for (const op of Object.keys(realFloor(step, c, importCensusOf([]))))
        expect(operations).toHaveProperty(op);
  });

  it("generate lists every folder (a page per 100, one for an empty one) and reads every file's meta, points and bytes", () => {
    expect(realFloor("generate", c)).toEqual({
      token: 1,
      getAccount: 1,
      // / 1, /big 2, /big/empty 1, /small 1, /Profiles 1
      readdir: 6,
      getFolderOptions: 4,
      getMeta: 4 + 151 + 1,
      getPoi: 152,
      download: 152,
      getLimits: 1,
    });
  });

  it("a refresh lists only folders holding something and reads only the meta, options and points there are", () => {
    const floor = realFloor("previewRefresh", c);
    expect(floor).toEqual({
      token: 1,
      getAccount: 1,
      readdir: 5,
      getFolderOptions: 1,
      getMeta: 2,
      getPoi: 2,
    });
    // the drift tool's plan and its count of what the check cost: the counters read twice
    expect(realFloor("drift", c)).toEqual({ ...floor, token: 2, getLimits: 2 });
  });

  it("adopting reads what a refresh reads, and every file's bytes", () => {
    expect(realFloor("up", c)).toEqual({ ...realFloor("previewRefresh", c), download: 152 });
  });

  it("an import lists each imported folder's and file's parent once, and reads points once per file", () => {
    const imported = importCensusOf([
      { type: "mediahost:index:AccountSettings", id: "demo" },
      { type: "mediahost:index:Folder", id: "/big" },
      { type: "mediahost:index:Folder", id: "/big/empty" },
      { type: "mediahost:index:File", id: "/small/a.png" },
      { type: "mediahost:index:FolderMeta", id: "/small" },
      { type: "mediahost:index:PointOfInterest", id: "/big/f2.jpg#face" },
      { type: "mediahost:index:PointOfInterest", id: "/big/f2.jpg#logo" },
    ]);
    expect(imported.parents).toEqual(["/", "/big", "/small"]);
    expect(realFloor("import", c, imported)).toEqual({
      token: 1,
      getAccount: 1,
      readdir: 1 + 2 + 1,
      download: 1,
      getFolderOptions: 0,
      getMeta: 1,
      getPoi: 1,
    });
  });

  it("pages a listing by 100 entries", () => {
    expect([0, 1, 100, 101, 250].map(pagesOf)).toEqual([1, 1, 1, 2, 3]);
  });
});

describe("rate-limit counters", () => {
  it("count every authenticated call on rest:global and the operation's own counters besides; the token on none", () => {
    expect(countersOf({ token: 1, readdir: 3, upload: 2, search: 1, updateAccount: 1 })).toEqual({
      "rest:global": 7,
      "rest:post:files:upload": 2,
      "rest:post:files:search": 1,
      "rest:post:account": 1,
    });
  });

  it("set each counter's calls against its hourly limit", () => {
    const shares = budgetShares({ "rest:global": 20302, "rest:post:account": 1, "not-a-counter": 5 });
    expect(shares["rest:global"]).toBeCloseTo(20302 / 7000);
    expect(shares["rest:post:account"]).toBeCloseTo(1 / 50);
    expect(shares).not.toHaveProperty("not-a-counter");
  });
});

describe("the baseline line", () => {
  it("sets each face's time against the trivial resources' of the same size", () => {
    const step = (ms: number) => ({ ms, providerRssBytes: 0 });
    const face = (name: "ours" | "native", up: number, refresh: number) =>
      ({
        face: name,
        steps: { up: { ...step(up) }, previewRefresh: { ...step(refresh) } },
      }) as unknown as RealAccountReport;
    const line = renderBaseline({ resources: 9735, up: step(100_000), previewRefresh: step(50_000) }, [
      face("ours", 200_000, 100_000),
      face("native", 150_000, 75_000),
    ]);
    expect(line).toContain("9735 of them: up 100.0 s (against it: ours 2.00, native 1.50)");
    expect(line).toContain("preview --refresh 50.0 s (ours 2.00, native 1.50)");
  });
});
