// Planning a drift check against the hour's rate budget (tools/lib/budget.ts): what a refresh of a
// stack's resources costs by counter, what may be spent, and which resources fit.
import { describe, expect, it } from "vitest";
import {
  allowanceOf,
  type Checked,
  callsOf,
  checkedOf,
  countersOf,
  reserveOf,
  select,
} from "../../tools/lib/budget";
import { exitCode, render, type StackReport, spendLine, totalCalls } from "../../tools/lib/reports";

const urn = (kind: string, name: string) => `urn:pulumi:prod::site::mediahost:index:${kind}::${name}`;
const state = (kind: string, name: string, outputs: Record<string, unknown>) => ({
  urn: urn(kind, name),
  type: `mediahost:index:${kind}`,
  outputs,
});

/** A folder of `files` files, each with a FolderMeta, and two points on the first file. */
function catalog(folder: string, files: number) {
  return [
    state("Folder", folder, { path: `/${folder}` }),
    ...Array.from({ length: files }, (_, i) => [
      state("File", `${folder}-${i}`, { path: `/${folder}/f${i}.jpg` }),
      state("FolderMeta", `${folder}-${i}-meta`, { path: `/${folder}/f${i}.jpg`, title: "t" }),
    ]).flat(),
    state("PointOfInterest", `${folder}-face`, { path: `/${folder}/f0.jpg`, name: "face" }),
    state("PointOfInterest", `${folder}-logo`, { path: `/${folder}/f0.jpg`, name: "logo" }),
  ];
}

describe("the calls of a refresh", () => {
  it("counts shared reads once a batch: a listing page per 100 siblings, one account read, the points of a file once", () => {
    const resources = checkedOf([
      ...catalog("shoes", 250),
      state("Alias", "thumbs", { name: "thumbs" }),
      state("AccountSettings", "settings", {}),
      // not ours: the stack and the provider cost nothing
      { urn: "urn:pulumi:prod::site::pulumi:pulumi:Stack::site-prod", type: "pulumi:pulumi:Stack" },
    ]);
    const calls = callsOf(resources).get("default");
    // 1 getAccount, 1 readdir of / (the folder), 3 readdir pages of /shoes (250 files), 250 getMeta, 1 getPoi
    expect(calls).toEqual({ "rest:global": 1 + 1 + 3 + 250 + 1 });
  });

  it("keeps accounts apart, and names every counter an operation counts", () => {
    const resources = checkedOf([
      state("FolderMeta", "a", { path: "/a", title: "t" }),
      state("FolderMeta", "b", { path: "/b", title: "t", account: "eu" }),
    ]);
    const calls = callsOf(resources);
    expect(calls.get("default")).toEqual({ "rest:global": 2 });
    expect(calls.get("eu")).toEqual({ "rest:global": 2 });
    expect(countersOf("getMeta")).toEqual(["rest:global"]);
    expect(countersOf("search")).toEqual(["rest:global", "rest:post:files:search"]);
  });
});

describe("what may be spent", () => {
  const counters = {
    "rest:global": { count: 6000, limit: 7000, remaining: 1000, reset: 1_800_000_000 },
    "rest:post:files:search": { count: 0, limit: 1000, remaining: 1000, reset: 1_800_000_000 },
  };

  it("is what is left, less a reserve; with a budget, no more than its share less what the run spent", () => {
    expect(reserveOf(7000)).toBe(75);
    expect(allowanceOf(counters)).toEqual({ "rest:global": 925, "rest:post:files:search": 985 });
    // 10% of 7,000 is 700, of which 200 were spent by an earlier stack of the run
    expect(allowanceOf(counters, 10, { "rest:global": 200 })).toEqual({
      "rest:global": 500,
      "rest:post:files:search": 100,
    });
    expect(allowanceOf(counters, 1, { "rest:global": 200 })["rest:global"]).toBe(0);
  });

  it("takes the resources that fit, in order, and leaves the rest", () => {
    const resources: Checked[] = checkedOf(catalog("shoes", 30));
    // 1 getAccount + 1 readdir of / + 1 readdir of /shoes + a getMeta per FolderMeta + 1 getPoi
    const chosen = select(resources, new Map([["default", { "rest:global": 13 }]]));
    expect(chosen.calls.get("default")).toEqual({ "rest:global": 13 });
    const metas = chosen.now.filter((u) => u.includes("FolderMeta"));
    expect(metas).toHaveLength(10);
    // every File shares the listing page already paid for, and the points the getPoi: they all fit
    expect(chosen.now.filter((u) => u.includes("::mediahost:index:File::"))).toHaveLength(30);
    // the points' getPoi no longer fits once the metas have taken the rest
    expect(chosen.left.filter((u) => u.includes("FolderMeta"))).toHaveLength(20);
    expect(chosen.left.filter((u) => u.includes("PointOfInterest"))).toHaveLength(2);
    expect(chosen.now.length + chosen.left.length).toBe(resources.length);
  });
});

describe("the report of what a check cost", () => {
  const report: StackReport = {
    stack: "prod",
    checked: 40,
    drift: false,
    resources: [],
    calls: { "demo at api.example.com": { "rest:global": { calls: 2412, limit: 7000 } } },
    left: ["FolderMeta a", "FolderMeta b"],
    resumeAfter: "2026-11-29T00:41:00Z",
  };

  it("shows each counter's calls and share of the hour, and what was left, in every format", () => {
    expect(spendLine(report.calls!)).toBe("rest:global 2,412 (34.5% of the hour's 7,000)");
    // several accounts: each named, its counters after it
    const two = { ...report.calls!, "eu at api.example.com": { "rest:global": { calls: 70, limit: 7000 } } };
    expect(spendLine(two)).toBe(
      "demo at api.example.com: rest:global 2,412 (34.5% of the hour's 7,000); eu at api.example.com: rest:global 70 (1.0% of the hour's 7,000)",
    );
    expect(spendLine(totalCalls([report, report, { calls: two }]))).toBe(
      "demo at api.example.com: rest:global 7,236 (103.4% of the hour's 7,000); eu at api.example.com: rest:global 70 (1.0% of the hour's 7,000)",
    );
    expect(render("table", [report])).toContain("Calls: rest:global 2,412 (34.5% of the hour's 7,000).");
    expect(render("table", [report])).toContain(
      "2 resources left for the next run (--budget); the counter frees up at 2026-11-29T00:41:00Z.",
    );
    expect(render("junit", [report])).toContain(
      '<property name="calls rest:global" value="2412 of 7000 an hour (34.5%)"/>',
    );
    expect(render("markdown", [report])).toContain(
      "| prod | ⏸ part checked | 40 | 0 | rest:global 2,412 (34.5% of the hour's 7,000) |",
    );
    expect(JSON.parse(render("json", [report]))).toMatchObject({ calls: report.calls, left: report.left });
  });

  it("exits 3 when a budget left resources and what was checked is clean; drift and errors still win", () => {
    expect(exitCode([report])).toBe(3);
    expect(exitCode([report, { ...report, left: [] }])).toBe(3);
    expect(exitCode([{ ...report, left: [] }])).toBe(0);
    expect(exitCode([report, { ...report, drift: true }])).toBe(2);
    expect(exitCode([report, { ...report, error: "x" }])).toBe(1);
  });
});
