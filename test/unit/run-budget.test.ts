// mediahost:rateBudgetPercent against the emulator over loopback: a run stops at its share of a
// counter's hourly limit, with one line, before the call goes out; the account never counts it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { TokenCache } from "../../provider/client/tokens";

const DEMO = { clientId: "demo-client", clientSecret: "demo-secret" };

describe("a run's share of the rate budget", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    // a small counter, so that 5% of it is a handful of calls
    emulator.control.setLimit({ counter: "rest:global", limit: 200 });
  });
  afterAll(() => emulator?.stop());

  it("sends no call past it, and says which counter, what was spent and when it frees up", async () => {
    const client = new MediahostClient({
      baseUrl: emulator.url,
      ...DEMO,
      rateBudgetPercent: 5,
      tokenCache: new TokenCache(),
    });
    const read = () => client.ops.getMeta({ query: { filename: "/" } });
    for (let i = 0; i < 10; i++) await read();
    const refused = await read().then(
      () => "sent",
      (err: Error) => err.message,
    );
    expect(refused).toMatch(
      /^getMeta \/: not sent: this run has spent 10 rest:global calls, the 5% of the hour's 200 that mediahost:rateBudgetPercent allows \(190 left on the account until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/,
    );
    expect(emulator.control.limits()["rest:global"]?.count).toBe(10);
    // another run (another process, another client) has its own share
    const next = new MediahostClient({ baseUrl: emulator.url, ...DEMO, rateBudgetPercent: 5 });
    await expect(next.ops.getMeta({ query: { filename: "/" } })).resolves.toBeDefined();
  });
});
