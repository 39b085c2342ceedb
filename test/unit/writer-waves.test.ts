// The account writer and the engine's waves (provider/account/writer.ts): the engine runs a few
// steps at a time (`--parallel`), and sends the next account change only when one of its steps
// returns. The writer gathers what the check's read frees, so each write carries a whole wave:
// 21 alias changes at 8 at a time are 3 writes, not one per change that trickles in.
import { describe, expect, it, vi } from "vitest";
import { AccountWriter } from "../../provider/account/writer";
import type { MediahostClient } from "../../provider/client";

const LATENCY = 5;

/** The service; `counterKnown`: an earlier account update told the client how many are left. */
function service(counterKnown = true) {
  let aliases: Record<string, { prefix?: string }> = {};
  let minify: { enabled?: boolean } | undefined;
  const calls: string[] = [];
  /** When each call went out (ms since the epoch, the fake clock's under fake timers). */
  const times: number[] = [];
  const later = () => new Promise((r) => setTimeout(r, LATENCY));
  // as the real client's: every call waits for the run's token, minted once (a round trip)
  let token: Promise<void> | undefined;
  const tokenTimes: number[] = [];
  const ready = () => {
    if (!token) tokenTimes.push(Date.now());
    token ??= later().then(() => {});
    return token;
  };
  const client = {
    ready,
    counters: new Map(
      counterKnown
        ? [["rest:post:account", { limit: 50, remaining: 40, reset: Date.now() / 1000 + 3600 }]]
        : [],
    ),
    roundTripMs: LATENCY,
    ops: {
      async getAccount() {
        await ready();
        calls.push("getAccount");
        times.push(Date.now());
        await later();
        return { alias: "demo", aliases: structuredClone(aliases), minify };
      },
      async updateAccount({ body }: { body: { aliases?: typeof aliases; minify?: typeof minify } }) {
        await ready();
        calls.push("updateAccount");
        times.push(Date.now());
        await later();
        if (body.aliases) aliases = { ...aliases, ...structuredClone(body.aliases) };
        if (body.minify) minify = structuredClone(body.minify);
        return {};
      },
    },
  } as unknown as MediahostClient;
  return { client, calls, times, tokenTimes, aliases: () => aliases };
}

/** The engine: `total` alias creates, at most `parallel` under way, the next started when one returns. */
async function engine(writer: AccountWriter, total: number, parallel: number, underWay: { n: number }) {
  let next = 0;
  const slot = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      underWay.n++;
      // the engine's own turnaround before the step reaches the provider
      await new Promise((r) => setTimeout(r, 1));
      try {
        await writer.submit({
          alias: { name: `a${i}`, fields: { prefix: `/a${i}` } },
          resource: `Alias a${i}`,
        });
      } finally {
        underWay.n--;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, slot));
}

/**
 * The engine running `steps` in order, at most `parallel` at a time, the next started when one
 * returns: "alias" steps submit a change, "other" steps (a folder) take `otherMs`.
 */
async function mixedEngine(
  writer: AccountWriter,
  steps: ("alias" | "other")[],
  parallel: number,
  work: { underWay: number; endedAt: number },
  otherMs: number,
) {
  let next = 0;
  const slot = async (): Promise<void> => {
    while (next < steps.length) {
      const i = next++;
      work.underWay++;
      await new Promise((r) => setTimeout(r, 1));
      try {
        if (steps[i] === "other") await new Promise((r) => setTimeout(r, otherMs));
        else
          await writer.submit({
            alias: { name: `a${i}`, fields: { prefix: `/a${i}` } },
            resource: `Alias a${i}`,
          });
      } finally {
        work.underWay--;
        work.endedAt = Date.now();
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, slot));
}

describe("AccountWriter under the engine's --parallel", () => {
  /**
   * Runs `steps` through the engine at 8 a time against a service of 50 ms round trips, where a
   * folder ("other") takes four of them: the aliases written, and the account updates made.
   */
  async function wavesOf(steps: ("alias" | "other")[], counterKnown: boolean) {
    vi.useFakeTimers();
    try {
      const s = service(counterKnown);
      (s.client as { roundTripMs: number }).roundTripMs = 50;
      const work = { underWay: 0, endedAt: 0 };
      const writer = new AccountWriter("default", s.client, () => {}, {
        operationsUnderWay: () => work.underWay,
        lastOperationEnd: () => work.endedAt,
      });
      const started = Date.now();
      const done = mixedEngine(writer, steps, 8, work, 200);
      await vi.advanceTimersByTimeAsync(10_000);
      await done;
      return {
        aliases: Object.keys(s.aliases()).length,
        updates: s.calls.filter((c) => c === "updateAccount").length,
        firstReadAt: s.times[0]! - started,
      };
    } finally {
      vi.useRealTimers();
    }
  }
  const times = (n: number, step: "alias" | "other") => Array.from({ length: n }, () => step);

  it("waits, in a run's first wave, for the steps that take the slots other operations free", async () => {
    // the engine starts two alias changes and six folders, then the other 19 alias changes as
    // slots free: 21 changes, 8 at a time, are still 3 writes
    const waves = await wavesOf([...times(2, "alias"), ...times(6, "other"), ...times(19, "alias")], false);
    expect(waves).toMatchObject({ aliases: 21, updates: 3 });
    // the folders end at about 200 ms, and their slots go to alias changes: every slot then waits
    // for the writer, so nothing more can come and it reads at once (not after a 150 ms quiet spell)
    expect(waves.firstReadAt).toBeGreaterThanOrEqual(200);
    expect(waves.firstReadAt).toBeLessThan(200 + 60);
  });

  it("does not take a wave still arriving for the engine's full slots", async () => {
    vi.useFakeTimers();
    try {
      // twelve changes 15 ms apart, each under way until its check: as many under way as ever
      // seen, all waiting for the writer, at every arrival. The first write still waits for the
      // quiet spell of a first wave (the account-update counter unknown): 150 ms after the last
      const s = service(false);
      const underWay = { n: 0 };
      const writer = new AccountWriter("default", s.client, () => {}, {
        operationsUnderWay: () => underWay.n,
      });
      const started = Date.now();
      const done = Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          await new Promise((r) => setTimeout(r, i * 15));
          underWay.n++;
          try {
            await writer.submit({
              alias: { name: `a${i}`, fields: { prefix: "/" } },
              resource: `Alias a${i}`,
            });
          } finally {
            underWay.n--;
          }
        }),
      );
      await vi.advanceTimersByTimeAsync(2_000);
      await done;
      expect(s.calls.filter((c) => c === "updateAccount")).toHaveLength(1);
      expect(s.times[0]! - started).toBeGreaterThanOrEqual(11 * 15 + 150);
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits longer with a wave of few changes among the engine's other steps: the next account steps may be behind them", async () => {
    // after the first wave the engine's queue holds one alias change, then seven folders, then
    // seven more alias changes: the lone change waits for them (8, then 8: not 8, 1 and 7)
    const waves = await wavesOf([...times(9, "alias"), ...times(7, "other"), ...times(7, "alias")], true);
    expect(waves).toMatchObject({ aliases: 16, updates: 2 });
  });

  it("mints the run's token while it gathers the first wave, not after", async () => {
    vi.useFakeTimers();
    try {
      const s = service(false);
      (s.client as { roundTripMs: number }).roundTripMs = 50;
      const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => 1 });
      const started = Date.now();
      const change = writer.submit({ alias: { name: "a", fields: { prefix: "/a" } }, resource: "Alias a" });
      await vi.advanceTimersByTimeAsync(1_000);
      await change;
      expect(s.tokenTimes).toEqual([started]);
      // the read goes out when the first wave's 150 ms quiet spell ends, the token already in hand
      expect(s.times[0]! - started).toBeGreaterThanOrEqual(150);
      expect(s.times[0]! - started).toBeLessThan(150 + LATENCY);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    { onlyDeletes: true, when: "in a run of deletes only (a destroy), at the engine's pace" },
    { onlyDeletes: false, when: "in a run that also creates, after the steps at work" },
  ])("writes a settings reset $when", async ({ onlyDeletes }) => {
    vi.useFakeTimers();
    try {
      const s = service();
      (s.client as { roundTripMs: number }).roundTripMs = 50;
      // four other steps (folder deletes) always at work, one ending every 20 ms
      const work = { underWay: 4, endedAt: 0 };
      const ending = setInterval(() => (work.endedAt = Date.now()), 20);
      const writer: AccountWriter = new AccountWriter("default", s.client, () => {}, {
        operationsUnderWay: (): number => work.underWay + writer.waiting,
        lastOperationEnd: () => work.endedAt,
        onlyDeletes: () => onlyDeletes,
      });
      const settled = async (p: Promise<unknown>) => {
        await vi.advanceTimersByTimeAsync(2_000);
        await p;
      };
      await settled(writer.submit({ alias: { name: "a", fields: { prefix: "/a" } }, resource: "Alias a" }));
      // the service keeps the removed alias (it merges the map): removals need no write from now on
      await settled(writer.submit({ alias: { name: "a", fields: null }, resource: "Alias a" }));
      const writes = s.calls.filter((c) => c === "updateAccount").length;
      const resetAt = Date.now();
      const reset = writer.submit({ settings: { minify: { enabled: false } }, resource: "AccountSettings" });
      await settled(reset);
      clearInterval(ending);
      const written = s.times[s.calls.lastIndexOf("updateAccount")]! - resetAt;
      expect(s.calls.filter((c) => c === "updateAccount")).toHaveLength(writes + 1);
      // three round trips while others are at work, or the pace alone (25 ms, no gap seen yet)
      if (onlyDeletes) expect(written).toBeLessThan(50);
      else expect(written).toBeGreaterThanOrEqual(150);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers an account check from its next read only once gathering is over", async () => {
    vi.useFakeTimers();
    try {
      const s = service();
      const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => 1 });
      const change = writer.submit({ alias: { name: "a", fields: { prefix: "/a" } }, resource: "Alias a" });
      // gathering: a resource that only needs the account reads it itself, at once
      expect(writer.nextRead()).toBeUndefined();
      await vi.advanceTimersByTimeAsync(150 + 1);
      // reading before the write: that read answers
      const next = writer.nextRead();
      expect(next).toBeInstanceOf(Promise);
      await vi.advanceTimersByTimeAsync(1_000);
      await change;
      expect((await next)?.alias).toBe("demo");
    } finally {
      vi.useRealTimers();
    }
  });

  it("writes once per wave of account steps: 21 changes, 8 at a time, are 3 writes", async () => {
    const s = service();
    const underWay = { n: 0 };
    const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => underWay.n });
    await engine(writer, 21, 8, underWay);
    expect(Object.keys(s.aliases())).toHaveLength(21);
    expect(s.calls.filter((c) => c === "updateAccount")).toHaveLength(3);
    // each write is checked by a read after it; a read before it only when the check's read had aged
    const reads = s.calls.filter((c) => c === "getAccount").length;
    expect(reads).toBeLessThanOrEqual(2 * 3 + 1);
  });

  it("waits for other operations under way, whose end lets the engine send more account steps", async () => {
    const s = service();
    const underWay = { n: 0 };
    const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => underWay.n });
    // one slot does other work (a folder) for a while, then an alias change; the others are aliases
    const other = (async () => {
      underWay.n++;
      await new Promise((r) => setTimeout(r, 3 * LATENCY));
      underWay.n--;
      underWay.n++;
      try {
        await writer.submit({ alias: { name: "late", fields: { prefix: "/late" } }, resource: "Alias late" });
      } finally {
        underWay.n--;
      }
    })();
    await Promise.all([engine(writer, 3, 3, underWay), other]);
    expect(Object.keys(s.aliases())).toHaveLength(4);
    expect(s.calls.filter((c) => c === "updateAccount")).toHaveLength(1);
  });

  it("writes changes that came together once they stop coming, not after a fixed 150 ms", async () => {
    vi.useFakeTimers();
    try {
      const s = service();
      const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => 3 });
      const done = Promise.all(
        [0, 2, 4].map(async (at, i) => {
          await new Promise((r) => setTimeout(r, at));
          return writer.submit({
            alias: { name: `a${i}`, fields: { prefix: "/" } },
            resource: `Alias a${i}`,
          });
        }),
      );
      // three changes 2 ms apart: the quiet spell is 25 ms after the last, then a read and the write
      await vi.advanceTimersByTimeAsync(4 + 25 + LATENCY + 1);
      expect(s.calls).toEqual(["getAccount", "updateAccount"]);
      await vi.advanceTimersByTimeAsync(1_000);
      await done;
    } finally {
      vi.useRealTimers();
    }
  });

  it("gathers the first write whole while the account-update counter is unknown: it may be the hour's last", async () => {
    vi.useFakeTimers();
    try {
      const s = service(false);
      const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => 0 });
      // the first two come together, the third 60 ms later: still the same write
      const done = Promise.all(
        [0, 2, 62].map(async (at, i) => {
          await new Promise((r) => setTimeout(r, at));
          return writer.submit({
            alias: { name: `a${i}`, fields: { prefix: "/" } },
            resource: `Alias a${i}`,
          });
        }),
      );
      await vi.advanceTimersByTimeAsync(1_000);
      await done;
      expect(s.calls.filter((c) => c === "updateAccount")).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not count another account's writer's waiters as work that may free the engine's slots", async () => {
    vi.useFakeTimers();
    try {
      const [a, b] = [service(), service()];
      for (const x of [a, b]) (x.client as { roundTripMs: number }).roundTripMs = 100;
      const writers: AccountWriter[] = [];
      const options = {
        operationsUnderWay: () => 2,
        waitingOnWriters: () => writers.reduce((n, w) => n + w.waiting, 0),
      };
      writers.push(new AccountWriter("a", a.client, () => {}, options));
      writers.push(new AccountWriter("b", b.client, () => {}, options));
      const done = Promise.all(
        writers.map((w, i) =>
          w.submit({ alias: { name: `x${i}`, fields: { prefix: "/" } }, resource: `Alias x${i}` }),
        ),
      );
      // both write after their quiet spell, not three round trips (300 ms) later for each other's sake
      await vi.advanceTimersByTimeAsync(150 + 6 * LATENCY);
      expect(a.calls).toContain("updateAccount");
      expect(b.calls).toContain("updateAccount");
      await vi.advanceTimersByTimeAsync(2_000);
      await done;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("AccountWriter: what a write needs to know first", () => {
  it("writes a run's first alias removal early, and needs no other write once the service shows it keeps removed aliases", async () => {
    const s = service(false);
    (s.client as { roundTripMs: number }).roundTripMs = 50;
    await s.client.ops.updateAccount({
      body: { aliases: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`a${i}`, { prefix: "/" }])) },
    });
    vi.useFakeTimers();
    try {
      const work = { underWay: 0, endedAt: 0 };
      const writer = new AccountWriter("default", s.client, () => {}, {
        operationsUnderWay: () => work.underWay,
        lastOperationEnd: () => work.endedAt,
      });
      const writes: number[] = [];
      const update = s.client.ops.updateAccount;
      s.client.ops.updateAccount = (args) => {
        writes.push(Date.now());
        return update(args);
      };
      const start = Date.now();
      // `destroy`: folders (40 ms each) in four slots, eight removals through the other four
      let next = 0;
      const kept: (boolean | undefined)[] = [];
      let lastDone = 0;
      const slot = async (kind: "folder" | "removal") => {
        for (;;) {
          const i = next++;
          if (i >= 8) return;
          work.underWay++;
          try {
            if (kind === "folder") await new Promise((r) => setTimeout(r, 40));
            const result = await writer.submit({
              alias: { name: `a${i}`, fields: null },
              resource: `Alias a${i}`,
            });
            kept.push(result.aliasKept);
            lastDone = Date.now() - start;
          } finally {
            work.underWay--;
            work.endedAt = Date.now();
          }
        }
      };
      const done = Promise.all([
        ...Array.from({ length: 4 }, () => slot("removal")),
        ...Array.from({ length: 4 }, () => slot("folder")),
      ]);
      await vi.advanceTimersByTimeAsync(5_000);
      await done;
      // one write, made while the folders were still at work (a first wave otherwise gathers
      // while other operations are under way, then a 150 ms quiet spell)
      expect(writes).toHaveLength(1);
      expect((writes[0] ?? Number.POSITIVE_INFINITY) - start).toBeLessThan(40);
      expect(kept).toEqual(Array(8).fill(true));
      // the removals that came during that write returned with its check (at about 95 ms), not
      // after a gather of their own
      expect(lastDone).toBeLessThan(150);
    } finally {
      vi.useRealTimers();
    }
  });

  it("writes settings alone on the last read: no read before the write, the read after it still checks it", async () => {
    vi.useFakeTimers();
    try {
      const s = service();
      const writer = new AccountWriter("default", s.client, () => {}, { operationsUnderWay: () => 0 });
      const first = writer.submit({ alias: { name: "a", fields: { prefix: "/a" } }, resource: "Alias a" });
      await vi.advanceTimersByTimeAsync(1_000);
      await first;
      expect(s.calls).toEqual(["getAccount", "updateAccount", "getAccount"]);
      s.calls.length = 0;
      const settings = writer.submit({
        settings: { minify: { enabled: false } },
        expectedAlias: "demo",
        resource: "AccountSettings",
      });
      await vi.advanceTimersByTimeAsync(1_000);
      await settings;
      expect(s.calls).toEqual(["updateAccount", "getAccount"]);
      // a settings change that must see the account first (a create) still reads before
      s.calls.length = 0;
      const create = writer.submit({
        settings: { minify: { enabled: true } },
        resource: "AccountSettings",
        prepare: () => undefined,
      });
      await vi.advanceTimersByTimeAsync(1_000);
      await create;
      expect(s.calls).toEqual(["getAccount", "updateAccount", "getAccount"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
