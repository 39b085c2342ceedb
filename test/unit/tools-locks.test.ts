// mediahost-recover's judgement of a DIY stack's locks (tools/lib/locks.ts): released only when its
// holder is shown dead (this host, its process gone) or nothing moved for the bound; and the
// directory store (tools/lib/diy-store.ts) that lists, reads and deletes them one by one.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diyStore } from "../../tools/lib/diy-store";
import { judge, lockDir, parseLock } from "../../tools/lib/locks";

const now = new Date("2026-11-28T12:00:00Z");
const minutes = (n: number) => new Date(now.getTime() - n * 60_000);
const lockOf = (fields: Record<string, unknown>) => parseLock("k.json", JSON.stringify(fields));
const seen = (over: Partial<Parameters<typeof judge>[1]> = {}) => ({
  now,
  host: "runner-1",
  alive: (pid: number) => pid === 100,
  boundMs: 60 * 60_000,
  ...over,
});

describe("which lock recover may release", () => {
  it("reads the holder Pulumi's DIY backend writes (pid, username, hostname, timestamp)", () => {
    const lock = parseLock(
      "a.json",
      '{"pid":42,"username":"ci","hostname":"runner-1","timestamp":"2026-11-28T11:58:00.123Z"}',
    );
    expect(lock).toEqual({
      key: "a.json",
      pid: 42,
      username: "ci",
      hostname: "runner-1",
      takenAt: new Date("2026-11-28T11:58:00.123Z"),
    });
    expect(parseLock("b.json", "not json")).toEqual({ key: "b.json" });
    expect(lockDir("proj", "organization/proj/ci")).toBe(".pulumi/locks/organization/proj/ci/");
  });

  it("releases the lock of a process of this host that is gone: an interrupted update's", () => {
    const v = judge(lockOf({ pid: 7, username: "ci", hostname: "runner-1", timestamp: minutes(2) }), seen());
    expect(v).toEqual({
      release: true,
      why: "dead",
      text: "by ci@runner-1 (pid 7), taken 2 min ago: its process is gone",
    });
  });

  it("keeps a live holder's lock however old, until nothing moved for the bound", () => {
    const young = judge(
      lockOf({ pid: 100, username: "ci", hostname: "runner-1", timestamp: minutes(3) }),
      seen(),
    );
    expect(young).toEqual({
      release: false,
      text: "by ci@runner-1 (pid 100), alive on this host, taken 3 min ago",
    });
    // another host's holder cannot be shown dead: only the bound releases it
    const other = lockOf({ pid: 7, username: "ci", hostname: "runner-2", timestamp: minutes(90) });
    expect(judge(other, seen({ savedAt: minutes(5) }))).toEqual({
      release: false,
      text: "by ci@runner-2 (pid 7), on another host, taken 90 min ago, the state saved 5 min ago",
    });
    expect(judge(other, seen({ savedAt: minutes(70) }))).toMatchObject({ release: true, why: "stale" });
    expect(judge(other, seen()).text).toBe(
      "by ci@runner-2 (pid 7), taken 90 min ago: quiet for 90 min, past --lock-timeout (60 min); its holder was not shown dead",
    );
  });

  it("a save of the state before the lock was taken is no sign of its holder's life", () => {
    const lock = lockOf({ pid: 7, username: "ci", hostname: "runner-2", timestamp: minutes(61) });
    expect(judge(lock, seen({ savedAt: minutes(120) }))).toMatchObject({ release: true, why: "stale" });
  });

  it("a lock whose time cannot be read is never released by the bound", () => {
    expect(judge(parseLock("x.json", "{}"), seen())).toMatchObject({ release: false });
  });
});

describe("a file backend's locks", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists, reads and deletes one lock of the stack (with its attributes file), leaving the others", async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-locks-"));
    const locks = join(dir, ".pulumi/locks/organization/proj/ci");
    await mkdir(locks, { recursive: true });
    await writeFile(join(locks, "a.json"), '{"pid":1}');
    await writeFile(join(locks, "a.json.attrs"), "{}");
    await writeFile(join(locks, "b.json"), '{"pid":2}');
    const store = diyStore(`file://${dir}`);
    if (!store) throw new Error("a file backend has a store");
    const keys = await store.list(lockDir("proj", "ci"));
    expect(keys.sort()).toEqual([
      ".pulumi/locks/organization/proj/ci/a.json",
      ".pulumi/locks/organization/proj/ci/a.json.attrs",
      ".pulumi/locks/organization/proj/ci/b.json",
    ]);
    expect(await store.read(keys[0] as string)).toBe('{"pid":1}');
    await store.remove(keys[0] as string);
    expect(await readdir(locks)).toEqual(["b.json"]);
    expect(await store.list(lockDir("proj", "other"))).toEqual([]);
    expect(diyStore("https://api.pulumi.com")).toBeUndefined();
    expect(diyStore("s3://bucket/p", {})).toBeUndefined();
  });
});
