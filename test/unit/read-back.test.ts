// The account writer (and FolderOptions, which writes a folder's option set whole) against a
// competing writer whose read came just before our write: its write, made from that older read,
// lands a little after ours and undoes it. The writer must read back late enough to see that, and
// write again. A scripted service on fake timers makes the order
// exact: every request takes LATENCY ms before it reads or applies.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountWriter } from "../../provider/account/writer";
import type { MediahostClient } from "../../provider/client";
import { folderOptions } from "../../provider/resources/folder-options";
import type { KindContext } from "../../provider/resources/kind";

const LATENCY = 100;
type Aliases = Record<string, { prefix?: string }>;

/** A service that replaces the alias map on update; `onWrite` sees each applied write. */
function scriptedService(onWrite: (aliases: Aliases, by: "us" | "them") => void) {
  let aliases: Aliases = { demo: { prefix: "/" } };
  const later = () => new Promise((r) => setTimeout(r, LATENCY));
  const account = () => ({ alias: "demo", aliases: structuredClone(aliases) });
  const client = {
    counters: new Map(),
    ready: async () => {},
    ops: {
      async getAccount() {
        await later();
        return account();
      },
      async updateAccount({ body }: { body: { aliases?: Aliases } }) {
        await later();
        if (body.aliases) aliases = structuredClone(body.aliases);
        onWrite(aliases, "us");
        return account();
      },
    },
  } as unknown as MediahostClient;
  return {
    client,
    aliases: () => aliases,
    /** Another writer's whole-map write, applied now. */
    theirWrite(map: Aliases) {
      aliases = structuredClone(map);
      onWrite(aliases, "them");
    },
  };
}

describe("AccountWriter and a writer whose read came just before our write", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("reads back after the other write has landed, and writes again what it undid", async () => {
    // the other writer read the map just before our write; its write lands 1.5 latencies after ours
    const before: Aliases = { demo: { prefix: "/" } };
    let ourFirstWrite = true;
    const service = scriptedService((_aliases, by) => {
      if (by !== "us" || !ourFirstWrite) return;
      ourFirstWrite = false;
      setTimeout(() => service.theirWrite({ ...before, theirs: { prefix: "/theirs" } }), LATENCY * 1.5);
    });
    const writer = new AccountWriter("default", service.client, () => {}, { coalesceMs: 10 });
    const done = writer.submit({
      alias: { name: "ours", fields: { prefix: "/ours" } },
      resource: "Alias ours",
    });
    await vi.advanceTimersByTimeAsync(10_000);
    const result = await done;
    expect(result.account.aliases?.ours).toMatchObject({ prefix: "/ours" });
    // both writers' aliases are there: ours written again on top of theirs
    expect(Object.keys(service.aliases()).sort()).toEqual(["demo", "ours", "theirs"]);
  });

  it("writes again on a fresh read: what a third writer wrote during the pause is kept", async () => {
    const before: Aliases = { demo: { prefix: "/" } };
    let ourWrites = 0;
    const service = scriptedService((_aliases, by) => {
      if (by !== "us" || ++ourWrites !== 1) return;
      // the other writer undoes our first write; later, while we step aside, a third adds its own
      setTimeout(() => service.theirWrite({ ...before, theirs: { prefix: "/theirs" } }), LATENCY * 1.5);
      setTimeout(
        () => service.theirWrite({ ...service.aliases(), late: { prefix: "/late" } }),
        LATENCY * 4.5,
      );
    });
    // the pause after finding the loss: 50 + 0.5 × 250 ms, so the third write lands inside it
    const writer = new AccountWriter("default", service.client, () => {}, {
      coalesceMs: 10,
      random: () => 0.5,
    });
    const done = writer.submit({
      alias: { name: "ours", fields: { prefix: "/ours" } },
      resource: "Alias ours",
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(ourWrites).toBe(2);
    expect(Object.keys(service.aliases()).sort()).toEqual(["demo", "late", "ours", "theirs"]);
  });

  it("pauses one write's round trip before reading a write back, and no more", async () => {
    const applied: number[] = [];
    const service = scriptedService(() => applied.push(Date.now()));
    const reads: number[] = [];
    const getAccount = service.client.ops.getAccount;
    (service.client.ops as { getAccount: () => Promise<unknown> }).getAccount = () => {
      reads.push(Date.now());
      return getAccount();
    };
    const writer = new AccountWriter("default", service.client, () => {}, { coalesceMs: 10 });
    const done = writer.submit({
      alias: { name: "ours", fields: { prefix: "/ours" } },
      resource: "Alias ours",
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(reads).toHaveLength(2);
    const writeReturned = applied[0] as number;
    expect((reads[1] as number) - writeReturned).toBe(LATENCY);
  });
});

describe("FolderOptions and a writer whose read came just before our write", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("reads the options back after the other write has landed, and writes again what it undid", async () => {
    // the service replaces the set on POST; the other writer read {} and sets scanSpins from it
    let options: Record<string, boolean> = {};
    let ourFirstWrite = true;
    const later = () => new Promise((r) => setTimeout(r, LATENCY));
    const client = {
      ops: {
        async getFolderOptions() {
          await later();
          return { ...options };
        },
        async setFolderOptions({ body }: { body: Record<string, boolean> }) {
          await later();
          options = { ...body };
          if (ourFirstWrite) {
            ourFirstWrite = false;
            setTimeout(() => (options = { scanSpins: true }), LATENCY * 1.5);
          }
          return {};
        },
      },
    } as unknown as MediahostClient;
    const ctx = {
      client,
      account: { serial: <T>(_key: string, task: () => Promise<T>) => task() },
      accountAlias: "demo",
      info: () => {},
      warn: () => {},
    } as unknown as KindContext;
    const done = folderOptions.update(
      ctx,
      { path: "/f", accountAlias: "demo" } as never,
      { path: "/f", allowListing: true } as never,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(options).toEqual({ scanSpins: true, allowListing: true });
  });
});
