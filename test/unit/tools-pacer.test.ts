// generate's pacer when the account's counters cannot be read: the reads go as they always did,
// with one warning, instead of failing the whole generation.
import { describe, expect, it } from "vitest";
import type { MediahostClient } from "../../provider/client";
import { runPaced } from "../../tools/lib/pacer";

describe("runPaced without the counters", () => {
  it("warns once and runs every read", async () => {
    // a service whose limits call fails (a unit test's stand-in for the client)
    const client = {
      ops: { getLimits: () => Promise.reject(new Error("getLimits: HTTP 501 Not Implemented")) },
    } as unknown as MediahostClient;
    const ran: number[] = [];
    const lines: string[] = [];
    const work = [1, 2, 3].map((i) => ({ calls: 2, run: async () => void ran.push(i) }));
    await runPaced(client, work, { concurrency: 2, wait: false, say: (l) => lines.push(l) });
    expect(ran.sort()).toEqual([1, 2, 3]);
    expect(lines).toEqual([
      "warning: the account's rate-limit counters could not be read (getLimits: HTTP 501 Not Implemented)",
    ]);
  });
});
