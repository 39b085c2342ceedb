import { describe, expect, it } from "vitest";
import { MemoryBlobStore } from "../../blobs";
import { FsError } from "../../errors";
import { Limiter, WINDOW_SECONDS } from "../../limits";
import { RequestLog } from "../../requestlog";
import { parseQuery } from "../../search";
import { Tree } from "../../tree";

describe("rate-limit window", () => {
  it("counts requests for exactly 60 minutes and reports when the oldest leaves", () => {
    const l = new Limiter();
    l.consume(["rest:post:account"], 1000);
    l.consume(["rest:post:account"], 1500);
    expect(l.state("rest:post:account", 1500)).toEqual({
      count: 2,
      limit: 50,
      remaining: 48,
      reset: 1000 + WINDOW_SECONDS,
    });
    expect(l.state("rest:post:account", 1000 + WINDOW_SECONDS).count).toBe(1);
    expect(l.state("rest:post:account", 1500 + WINDOW_SECONDS)).toMatchObject({
      count: 0,
      reset: 1500 + WINDOW_SECONDS,
    });
  });

  it("refuses the request after the limit and names the counter", () => {
    const l = new Limiter();
    l.setUsed("rest:post:files:batch:delete", 24, 10);
    expect(l.exceeded(["rest:global", "rest:post:files:batch:delete"], 10)).toBeUndefined();
    l.consume(["rest:global", "rest:post:files:batch:delete"], 10);
    expect(l.exceeded(["rest:global", "rest:post:files:batch:delete"], 11)).toBe(
      "rest:post:files:batch:delete",
    );
    l.setLimit("rest:post:files:batch:delete", 100);
    expect(l.exceeded(["rest:post:files:batch:delete"], 11)).toBeUndefined();
  });

  it("keeps memory bounded under sustained traffic", () => {
    const l = new Limiter();
    l.setLimit("rest:global", Number.MAX_SAFE_INTEGER);
    for (let t = 0; t < 4 * WINDOW_SECONDS; t++) for (let i = 0; i < 3; i++) l.consume(["rest:global"], t);
    expect(l.state("rest:global", 4 * WINDOW_SECONDS - 1).count).toBe(3 * WINDOW_SECONDS);
  });
});

describe("file tree", () => {
  const content = (blob: string, size = 3) => ({
    blob,
    size,
    contentType: "text/plain",
    media: { width: null, height: null, duration: 0 },
  });
  const kind = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      return (e as FsError).kind;
    }
    return "ok";
  };

  it("checks every precondition before changing anything", () => {
    const blobs = new MemoryBlobStore();
    const tree = new Tree(blobs);
    tree.writeFile("/a/f.txt", content("h1"), 1);
    expect(kind(() => tree.writeFile("/a/f.txt/x", content("h2"), 2))).toBe("notDirectory");
    expect(kind(() => tree.writeFile("/a", content("h2"), 2))).toBe("isDirectory");
    expect(kind(() => tree.rename("/a", "/a/b"))).toBe("invalid");
    expect(kind(() => tree.remove("/"))).toBe("permission");
    expect(kind(() => tree.mkdir("/", 1))).toBe("exists");
    expect([...tree.walk()].map(([p]) => p)).toEqual(["/", "/a", "/a/f.txt"]);
    expect({ bytes: tree.bytes, files: tree.files }).toEqual({ bytes: 3, files: 1 });
  });

  it("counts storage through copies, overwrites and recursive deletes", () => {
    const tree = new Tree(new MemoryBlobStore());
    tree.writeFile("/d/one", content("h1", 10), 1);
    tree.copy("/d", "/e", 2);
    tree.writeFile("/e/one", content("h2", 4), 3);
    expect({ bytes: tree.bytes, files: tree.files }).toEqual({ bytes: 14, files: 2 });
    tree.removeRecursive("/d");
    expect({ bytes: tree.bytes, files: tree.files }).toEqual({ bytes: 4, files: 1 });
    expect(() => tree.remove("/e")).toThrow(FsError);
  });

  it("trashes a file to /.Trash + its path; a delete the trash cannot take is final", () => {
    const blobs = new MemoryBlobStore();
    const tree = new Tree(blobs);
    const paths = () => [...tree.walk()].map(([p]) => p);
    tree.writeFile("/a/f.txt", content("h1"), 1);
    expect(kind(() => tree.trash("/", true, 2))).toBe("permission");
    expect(kind(() => tree.trash("/a", false, 2))).toBe("notEmpty");
    expect(kind(() => tree.trash("/none", false, 2))).toBe("missing");
    tree.trash("/a/f.txt", false, 2);
    expect(paths()).toEqual(["/", "/.Trash", "/.Trash/a", "/.Trash/a/f.txt", "/a"]);
    expect({ bytes: tree.bytes, files: tree.files }).toEqual({ bytes: 3, files: 1 });
    // a file where the trash needs a folder: the delete is final
    tree.writeFile("/b", content("h2"), 3);
    tree.trash("/b", false, 4);
    tree.writeFile("/b/g.txt", content("h3"), 5);
    tree.trash("/b/g.txt", false, 6);
    expect(paths()).not.toContain("/b/g.txt");
    expect(paths().filter((p) => p.startsWith("/.Trash/b"))).toEqual(["/.Trash/b"]);
    expect(tree.trashPathOf("/b/g.txt")).toBeUndefined();
    // a folder at the tenth place: final too
    for (const n of ["c", "c.1", "c.2", "c.3", "c.4", "c.5", "c.6", "c.7", "c.8"])
      tree.writeFile(`/.Trash/${n}`, content("h4"), 7);
    tree.mkdir("/.Trash/c.9", 7);
    expect(tree.trashPathOf("/c")).toBeUndefined();
    // inside the trash: final
    tree.trash("/.Trash/a/f.txt", false, 8);
    expect(paths()).not.toContain("/.Trash/a/f.txt");
    // far too long for the API once in the trash
    expect(tree.trashPathOf(`/${"x".repeat(1020)}`)).toBeUndefined();
  });
});

describe("request log", () => {
  it("is a ring: old entries go, sequence numbers keep growing", () => {
    const log = new RequestLog(3);
    const entry = {
      time: "",
      method: "GET",
      path: "/v2/account",
      operation: "getAccount",
      status: 200,
      account: "demo",
      counter: null,
      latencyMs: 1,
    };
    for (let i = 0; i < 5; i++) log.push(entry);
    expect(log.since(0).requests.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.since(4)).toMatchObject({ next: 5 });
    log.clear();
    log.push(entry);
    expect(log.since(5).requests.map((e) => e.seq)).toEqual([6]);
  });
});

describe("search queries (query-string syntax through the lucene parser)", () => {
  const doc = (path: string, size: number, tags: string[] = []) => ({
    path,
    node: {
      kind: "file" as const,
      ctime: Date.parse("2024-05-01T00:00:00Z"),
      mtime: Date.parse("2024-05-02T00:00:00Z"),
      meta: { tags, title: "Red Shoe" },
      size,
      contentType: path.endsWith(".jpg") ? "image/jpeg" : "text/plain",
      blob: "",
      media: { width: 10, height: 20, duration: 0 },
      poi: {},
    },
  });

  it("combines fields, globs, comparisons, quoting and negation", () => {
    const q = (s: string) =>
      [doc("/a/x.jpg", 100, ["sale"]), doc("/a/b/y.txt", 5)].filter(parseQuery(s)).map((d) => d.path);
    expect(q("*")).toEqual(["/a/x.jpg", "/a/b/y.txt"]);
    expect(q("basename:*.jpg")).toEqual(["/a/x.jpg"]);
    expect(q("contentType:image\\/* AND size:>=100")).toEqual(["/a/x.jpg"]);
    expect(q('meta.title:"red shoe" -meta.tags:sale')).toEqual(["/a/b/y.txt"]);
    expect(q("mtime:[2024-05-01 TO 2024-05-03} AND size:[1 TO 10]")).toEqual(["/a/b/y.txt"]);
    expect(q("NOT extension:.txt")).toEqual(["/a/x.jpg"]);
    expect(q("b\\/y")).toEqual(["/a/b/y.txt"]);
    expect(() => parseQuery("size:>big")).toThrow(/size: "big" is not a number/);
    expect(() => parseQuery("title:x")).toThrow(/unsupported field "title"/);
  });
});
