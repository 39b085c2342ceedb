// The account writer's pacing rules (provider/account/pacing.ts), one situation each: when a
// gather stops and the writer writes. Pure functions of one look at the process: no clock, no
// service. The writer's behaviour with them is test/unit/writer-waves.test.ts's.
import { describe, expect, it } from "vitest";
import {
  firstRemovalGoes,
  followMs,
  fullSlotsGo,
  type Gathering,
  gatherStep,
  isScarce,
  nextArrivalGap,
  type Peak,
  paceMs,
  quietMs,
  runOfDeletesGoes,
} from "../../provider/account/pacing";

const RTT = 20;
const NOW = 1_000_000;

/** One look of a gather that started 10 ms ago, with a change arriving just now, and no one else at work. */
function look(over: Partial<Gathering> = {}): Gathering {
  return {
    now: NOW,
    started: NOW - 10,
    scarce: false,
    lastChangeAt: NOW,
    resolvedAt: 0,
    lastOperationEnd: 0,
    underWay: 1,
    othersAtWork: 0,
    queued: 1,
    wroteBefore: true,
    removalRule: "honoured",
    learnsRemovalRule: false,
    onlyDeletes: false,
    roundTripMs: RTT,
    coalesceMs: 150,
    arrivalGapMs: 4,
    counterKnown: true,
    ...over,
  };
}

const peak = (underWay: number, since = NOW - 1_000): Peak => ({ underWay, since });

describe("the pace the writer measures", () => {
  it("smooths the gap between changes arriving together, and starts a new burst after a long one", () => {
    expect(nextArrivalGap(undefined, NOW - 6, NOW, 150)).toBe(6);
    expect(nextArrivalGap(6, NOW - 2, NOW, 150)).toBe(4);
    expect(nextArrivalGap(6, NOW - 500, NOW, 150)).toBe(6);
    expect(nextArrivalGap(undefined, 0, NOW, 150)).toBeUndefined();
  });

  it("waits a few gaps for the next change, within the shortest and the longest quiet spell", () => {
    expect(paceMs(10, 150)).toBe(30);
    expect(paceMs(1, 150)).toBe(25);
    expect(paceMs(100, 150)).toBe(150);
  });

  it("gathers a first wave whole until a write has told how many account updates are left", () => {
    expect(quietMs(look({ counterKnown: false }))).toBe(150);
    expect(quietMs(look({ arrivalGapMs: undefined }))).toBe(150);
    expect(quietMs(look({ arrivalGapMs: 10 }))).toBe(30);
    expect(quietMs(look({ scarce: true }))).toBe(400);
  });

  it("counts the hour's account updates as scarce at ten left, until the counter resets", () => {
    expect(isScarce({ remaining: 10, reset: NOW / 1000 + 60 }, NOW)).toBe(true);
    expect(isScarce({ remaining: 11, reset: NOW / 1000 + 60 }, NOW)).toBe(false);
    expect(isScarce({ remaining: 0, reset: NOW / 1000 - 1 }, NOW)).toBe(false);
    expect(isScarce(undefined, NOW)).toBe(false);
  });
});

describe("the rules that end a gather", () => {
  it("a lone removal: the run's first goes as soon as those that came with it stop coming", () => {
    const removal = look({ removalRule: "unknown", learnsRemovalRule: true });
    expect(firstRemovalGoes({ ...removal, lastChangeAt: NOW - 25 })).toBe(true);
    // a change 10 ms ago: more of its kind may come with it
    expect(firstRemovalGoes({ ...removal, lastChangeAt: NOW - 10 })).toBe(false);
    // once the rule is known no removal teaches it: the wave is gathered whole
    expect(firstRemovalGoes({ ...look({ lastChangeAt: NOW - 25 }) })).toBe(false);
    expect(firstRemovalGoes({ ...removal, lastChangeAt: NOW - 25, scarce: true })).toBe(false);
  });

  it("a run of deletes: once removals need no write, a settings reset goes at the engine's pace", () => {
    const destroy = look({ removalRule: "ignored", onlyDeletes: true, arrivalGapMs: 10 });
    expect(runOfDeletesGoes({ ...destroy, lastChangeAt: NOW - 30 })).toBe(true);
    expect(runOfDeletesGoes({ ...destroy, lastChangeAt: NOW - 20 })).toBe(false);
    // a run that creates or updates too: its next steps may be account changes worth waiting for
    expect(runOfDeletesGoes({ ...destroy, lastChangeAt: NOW - 30, onlyDeletes: false })).toBe(false);
    // removals that still need a write (the service honours them): no shortcut
    expect(runOfDeletesGoes({ ...destroy, lastChangeAt: NOW - 30, removalRule: "honoured" })).toBe(false);
  });

  it("full slots: every slot of the engine waits for a writer, a most that has held a while", () => {
    const full = look({ underWay: 8, lastChangeAt: NOW - 30, arrivalGapMs: 10 });
    expect(fullSlotsGo(full, peak(8))).toBe(true);
    // a wave still arriving: the most was first seen just now
    expect(fullSlotsGo(full, peak(8, NOW - 100))).toBe(false);
    // fewer under way than the engine's slots, or some of them at other work: more may come
    expect(fullSlotsGo({ ...full, underWay: 6 }, peak(8))).toBe(false);
    expect(fullSlotsGo({ ...full, othersAtWork: 1 }, peak(8))).toBe(false);
    // a slot freed just now is being filled: the engine's own pace is waited for
    expect(fullSlotsGo({ ...full, lastOperationEnd: NOW - 5 }, peak(8))).toBe(false);
  });

  it("the first wave: for eight round trips the end of another operation counts as a change coming", () => {
    const many = { queued: 8, underWay: 8 };
    expect(followMs(look({ ...many, wroteBefore: false }), peak(8))).toBe(8 * RTT);
    expect(followMs(look({ ...many, wroteBefore: true }), peak(8))).toBe(3 * RTT);
    // others at work within the window: no write yet, however quiet the writer's own queue
    const first = look({ ...many, wroteBefore: false, lastChangeAt: NOW - 100, othersAtWork: 2 });
    expect(gatherStep({ ...first, started: NOW - 100 }, peak(10)).next).not.toBe("write");
  });

  it("a lone change among many slots waits as long as a first wave; with no one else at work it goes when quiet", () => {
    expect(followMs(look({ queued: 1 }), peak(8))).toBe(8 * RTT);
    expect(followMs(look({ queued: 5 }), peak(8))).toBe(3 * RTT);
    // nothing else under way: the quiet spell (three gaps of 4 ms, at least 25 ms) ends the gather
    const alone = look({ queued: 1, underWay: 1, started: NOW - 200 });
    expect(gatherStep({ ...alone, lastChangeAt: NOW - 25 }, peak(1, NOW)).next).toBe("write");
    expect(gatherStep({ ...alone, lastChangeAt: NOW - 10 }, peak(1, NOW)).next).toBe(10);
  });

  it("never gathers longer than 2 s, or 4 s when account updates are scarce", () => {
    const busy = look({ othersAtWork: 3, underWay: 4 });
    expect(gatherStep({ ...busy, started: NOW - 2_000 }, peak(4)).next).toBe("write");
    expect(gatherStep({ ...busy, started: NOW - 1_995 }, peak(4)).next).toBe(5);
    expect(gatherStep({ ...busy, scarce: true, started: NOW - 2_000 }, peak(4)).next).not.toBe("write");
  });

  it("keeps the most seen under way, from the look that first saw it", () => {
    expect(gatherStep(look({ underWay: 3, othersAtWork: 2 }), peak(2)).peak).toEqual({
      underWay: 3,
      since: NOW,
    });
    expect(gatherStep(look({ underWay: 1 }), peak(2)).peak).toEqual(peak(2));
  });
});
