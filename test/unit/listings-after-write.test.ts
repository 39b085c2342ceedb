// What a file just written looks like on the service (provider/account/listings.ts,
// `afterWrite`): files written together in one folder share one listing made after all their
// writes, where each used to be a `stat`; a lone file is a stat; and a listing that started
// before a write finished never answers for it.
import { describe, expect, it } from "vitest";
import { Listings } from "../../provider/account/listings";
import type { MediahostClient } from "../../provider/client";

/** A folder whose listing shows the files written so far, one page, with a call count. */
function folder() {
  const written = new Map<string, string>();
  const calls: string[] = [];
  const client = {
    ops: {
      async readdir({ query }: { query: { dirname: string } }) {
        calls.push(`readdir ${query.dirname}`);
        await new Promise((r) => setTimeout(r, 5));
        return {
          contents: [...written].map(([filename, mtime]) => ({
            filename,
            mtime,
            size: 1,
            isDirectory: false,
          })),
        };
      },
    },
  } as unknown as MediahostClient;
  return { client, calls, write: (name: string) => written.set(name, new Date().toISOString()) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Listings.afterWrite", () => {
  it("gives files written together one listing made after every one of their writes", async () => {
    const f = folder();
    const listings = new Listings(f.client);
    const one = async (name: string, takesMs: number) => {
      await listings.writing(`/g/${name}`, async () => {
        await sleep(takesMs);
        f.write(name);
      });
      return listings.afterWrite(`/g/${name}`);
    };
    const found = await Promise.all([one("a", 1), one("b", 30), one("c", 60)]);
    expect(found.map((e) => (e && e !== "stat" ? e.filename : e))).toEqual(["a", "b", "c"]);
    expect(f.calls).toEqual(["readdir /g"]);
  });

  it("leaves a lone file to its own stat", async () => {
    const f = folder();
    const listings = new Listings(f.client);
    await listings.writing("/g/a", async () => void f.write("a"));
    expect(await listings.afterWrite("/g/a")).toBe("stat");
    expect(f.calls).toEqual([]);
  });

  it("never answers a write with a listing that started before the write was asked about", async () => {
    const f = folder();
    const listings = new Listings(f.client);
    f.write("a");
    f.write("b");
    const first = Promise.all([listings.afterWrite("/g/a"), listings.afterWrite("/g/b")]);
    await sleep(8); // the first listing has started
    f.write("c");
    f.write("d");
    const second = Promise.all([listings.afterWrite("/g/c"), listings.afterWrite("/g/d")]);
    const [a, b] = await first;
    const [c, d] = await second;
    for (const [entry, name] of [
      [a, "a"],
      [b, "b"],
      [c, "c"],
      [d, "d"],
    ] as const)
      expect(entry && entry !== "stat" ? entry.filename : entry).toBe(name);
    expect(f.calls).toEqual(["readdir /g", "readdir /g"]);
  });
});
