// Existence from a parent's listing (provider/account/listings.ts): siblings read in one run share
// one page; a lone child is a `stat`. The first lookup waits half a round trip for its siblings.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Listings } from "../../provider/account/listings";
import type { MediahostClient } from "../../provider/client";

const ROUND_TRIP = 50;

/** The service; `tokenMs`: how long the run's token takes to come (0: in hand already). */
function service(names: string[], tokenMs = 0) {
  const calls: string[] = [];
  const token = tokenMs > 0 ? new Promise<void>((r) => setTimeout(r, tokenMs)) : Promise.resolve();
  const client = {
    roundTripMs: ROUND_TRIP,
    ready: () => token,
    ops: {
      async readdir({ query }: { query: { dirname: string } }) {
        calls.push(`readdir ${query.dirname}`);
        await new Promise((r) => setTimeout(r, ROUND_TRIP));
        return {
          contents: names.map((filename) => ({ filename, isDirectory: true, size: 0, mtime: 0 })),
        };
      },
    },
  } as unknown as MediahostClient;
  return { client, calls };
}

/** Looks up each path `at` ms after the start, as the engine's reads arrive. */
function lookups(listings: Listings, asks: { path: string; at: number }[]) {
  return Promise.all(
    asks.map(async ({ path, at }) => {
      await new Promise((r) => setTimeout(r, at));
      return listings.lookup(path);
    }),
  );
}

describe("Listings", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lists once for siblings that ask within half a round trip of the first, with no stat", async () => {
    const s = service(["a", "b", "c"]);
    const found = lookups(new Listings(s.client), [
      { path: "/a", at: 0 },
      // a busy machine: the engine's next reads come 12 ms later, past the old fixed 5 ms
      { path: "/b", at: 12 },
      { path: "/c", at: 14 },
    ]);
    await vi.advanceTimersByTimeAsync(500);
    const entries = await found;
    expect(entries.map((e) => (e === "stat" || e === undefined ? e : e.filename))).toEqual(["a", "b", "c"]);
    expect(s.calls).toEqual(["readdir /"]);
  });

  it("counts the wait for siblings from when a call can go out: the run's token in hand", async () => {
    // a refresh's first read starts with the run, and the next comes while the token is fetched
    const s = service(["a", "b"], ROUND_TRIP);
    const found = lookups(new Listings(s.client), [
      { path: "/a", at: 0 },
      { path: "/b", at: 40 },
    ]);
    await vi.advanceTimersByTimeAsync(500);
    const entries = await found;
    expect(entries.map((e) => (e === "stat" || e === undefined ? e : e.filename))).toEqual(["a", "b"]);
    expect(s.calls).toEqual(["readdir /"]);
  });

  it("waits for siblings as long as the engine's pace needs, however fast the service", async () => {
    const s = service(["a", "b"]);
    const fast = { ...s.client, roundTripMs: 4 } as unknown as MediahostClient;
    const found = lookups(new Listings(fast), [
      { path: "/a", at: 0 },
      { path: "/b", at: 12 },
    ]);
    await vi.advanceTimersByTimeAsync(500);
    expect((await found).map((e) => (e === "stat" || e === undefined ? e : e.filename))).toEqual(["a", "b"]);
    expect(s.calls).toEqual(["readdir /"]);
  });

  it("reads a lone child with stat, once it has waited for siblings", async () => {
    const s = service(["a"]);
    const found = lookups(new Listings(s.client), [{ path: "/a", at: 0 }]);
    await vi.advanceTimersByTimeAsync(ROUND_TRIP / 2 - 1);
    let settled = false;
    void found.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await found).toEqual(["stat"]);
    expect(s.calls).toEqual([]);
  });

  it("answers a child the complete listing does not name as absent", async () => {
    const s = service(["a"]);
    const found = lookups(new Listings(s.client), [
      { path: "/a", at: 0 },
      { path: "/gone", at: 1 },
    ]);
    await vi.advanceTimersByTimeAsync(500);
    const [a, gone] = await found;
    expect(a).toMatchObject({ filename: "a" });
    expect(gone).toBeUndefined();
    expect(s.calls).toEqual(["readdir /"]);
  });
});
