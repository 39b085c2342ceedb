// The bench's floors of the files and media programs (scripts/bench/report.ts) and the media table:
// every operation a floor names is one of the API's, each file adds exactly the calls its resources
// need, and the table shows where the calls made differ from the floor.
import { operations } from "mediahost-contract";
import { describe, expect, it } from "vitest";
import {
  type Calls,
  FILE_STEPS,
  filesFloor,
  MEDIA_STEPS,
  type MediaReport,
  mediaFloor,
  minimum,
  renderMedia,
  STEPS,
  total,
} from "../../scripts/bench/report";

/** What one more file adds to a floor (no listing page boundary crossed). */
function perFile(floor: Calls, oneMore: Calls): Calls {
  const out: Calls = {};
  for (const op of new Set([...Object.keys(floor), ...Object.keys(oneMore)])) {
    const d = (oneMore[op] ?? 0) - (floor[op] ?? 0);
    if (d !== 0) out[op] = d;
  }
  return out;
}

describe("the bench's floors", () => {
  it("name only operations of the API (the emulator's request log counts by these names)", () => {
    const floors = [
      ...STEPS.map((s) => minimum(s, 100)),
      ...FILE_STEPS.map((s) => filesFloor(s, 100)),
      ...MEDIA_STEPS.map((s) => mediaFloor(s, 100)),
    ];
    for (const floor of floors)
      for (const op of Object.keys(floor)) expect(Object.keys(operations)).toContain(op);
  });

  it("media: a refresh reads each file's meta and its points once, and the folder once", () => {
    for (const step of ["refresh", "previewRefresh"] as const) {
      expect(mediaFloor(step, 100)).toEqual({
        token: 1,
        getAccount: 1,
        stat: 1,
        readdir: 1,
        getMeta: 100,
        getPoi: 100,
      });
      expect(total(mediaFloor(step, 100))).toBe(204);
      // one listing page per 100 files
      expect(mediaFloor(step, 250).readdir).toBe(3);
      expect(mediaFloor(step, 1).readdir).toBe(1);
      // both points of a file come from one getPoi: one read per file, not per point
      expect(perFile(mediaFloor(step, 10), mediaFloor(step, 11))).toEqual({ getMeta: 1, getPoi: 1 });
    }
  });

  it("media: up writes each file, its meta in one setMeta and its tags, reads the approval's time, sets two points", () => {
    expect(perFile(mediaFloor("up", 10), mediaFloor("up", 11))).toEqual({
      upload: 1,
      setMeta: 1,
      addTags: 1,
      getApproval: 1,
      setPoi: 2,
    });
    // the run's own calls, once: token, account check, the folder and its listing
    expect(mediaFloor("up", 0)).toEqual({
      token: 1,
      getAccount: 1,
      mkdir: 1,
      readdir: 0,
      upload: 0,
      setMeta: 0,
      addTags: 0,
      getApproval: 0,
      setPoi: 0,
    });
    expect(total(mediaFloor("up", 100))).toBe(604);
  });

  it("media: destroy clears each file's meta and deletes its two points, then the files and the folder", () => {
    expect(perFile(mediaFloor("destroy", 10), mediaFloor("destroy", 11))).toEqual({
      setMeta: 1,
      removeTags: 1,
      deletePoi: 2,
      deleteFile: 1,
    });
    expect(mediaFloor("destroy", 100).deleteFile).toBe(101);
    expect(total(mediaFloor("destroy", 100))).toBe(503);
  });

  it("files: the media program's files part is the files program's floor", () => {
    const files = filesFloor("previewRefresh", 100);
    const media = mediaFloor("refresh", 100);
    for (const op of Object.keys(files)) expect(media[op]).toBe(files[op]);
  });
});

describe("the media table", () => {
  const n = 100;
  const report: MediaReport = {
    face: "ours",
    n,
    fileBytes: 1024,
    resources: 4 * n + 1,
    steps: {
      up: {
        ms: 25_500,
        calls: { ...mediaFloor("up", n), getMeta: 100, getPoi: 198 },
        floor: mediaFloor("up", n),
      },
      previewRefresh: {
        ms: 8_700,
        calls: mediaFloor("previewRefresh", n),
        floor: mediaFloor("previewRefresh", n),
      },
      refresh: {
        ms: 3_100,
        cpu: { engine: 1.5, program: 0, provider: 2.25 },
        calls: mediaFloor("refresh", n),
        floor: mediaFloor("refresh", n),
      },
      destroy: {
        ms: 17_500,
        calls: { ...mediaFloor("destroy", n), readdir: 1 },
        floor: mediaFloor("destroy", n),
      },
    },
    stateBytesPerResource: { File: 2111, FolderMeta: 2143, PointOfInterest: 2017 },
  };
  const text = renderMedia(report);
  const row = (label: string) => text.split("\n").find((l) => l.startsWith(`| ${label} `)) ?? "";
  const cells = (label: string) =>
    row(label)
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());

  it("shows each step's calls beside the floor, and the operations beyond it", () => {
    expect(cells("up")).toEqual(["up", "902", "604", "getMeta 100, getPoi 198", "25.5", "-"]);
    expect(cells("preview --refresh").slice(0, 4)).toEqual(["preview --refresh", "204", "204", "= minimum"]);
    expect(cells("refresh")).toEqual(["refresh", "204", "204", "= minimum", "3.1", "1.50/0.00/2.25"]);
    expect(cells("destroy").slice(0, 4)).toEqual(["destroy", "504", "503", "readdir 1"]);
  });

  it("lists every step's calls by operation, and the state per kind", () => {
    expect(text).toContain("Media (ours, the dynamic face): one Folder and 100 Files of 1 KB");
    expect(text).toContain("401 resources");
    expect(renderMedia({ ...report, face: "native" })).toContain("Media (the native face): one Folder");
    expect(text).toContain("  refresh: getAccount 1, getMeta 100, getPoi 100, readdir 1, stat 1, token 1\n");
    expect(text).toContain("state per resource: File 2111, FolderMeta 2143, PointOfInterest 2017 B");
  });
});
