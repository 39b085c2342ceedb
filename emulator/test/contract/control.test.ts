// docs/emulator-control.md: what the fault settings of `POST /_emulator/faults` (token lifetime,
// lost responses, seeded faults) and `POST /_emulator/reset` do to the /v2 API. The limits and the
// request log are in limits-and-headers.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, type Emulator, setup, sleep } from "./helpers/emulator";

let emu: Emulator;
let api: Client;

beforeAll(async () => {
  ({ emu, api } = await setup());
});
afterAll(async () => {
  await emu?.stop();
});
beforeEach(async () => {
  await api.reset();
});
// a reset keeps the fault settings: each test lifts its own
afterEach(async () => {
  await api.faults({
    faultRate: 0,
    dropRate: 0,
    latencyMs: 0,
    tokenTtlSeconds: null,
    seed: 1,
    unavailable: { seconds: 0 },
  });
});

describe("POST /_emulator/faults", () => {
  it("tokenTtlSeconds sets the lifetime of every token issued from then on; null lifts it", async () => {
    await api.faults({ tokenTtlSeconds: 1 });
    const r = await api.call("POST", "/v2/token", {
      token: null,
      body: { clientId: "demo-client", clientSecret: "demo-secret", expiresIn: 60 },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.expiresIn).toBe(1);
    const shortLived = r.body.token as string;
    expect((await api.get("/v2/account", undefined, { token: shortLived })).status).toBe(200);
    await sleep(2_100);
    expect((await api.get("/v2/account", undefined, { token: shortLived })).status).toBe(401);
    await api.faults({ tokenTtlSeconds: null });
    const again = await api.call("POST", "/v2/token", {
      token: null,
      body: { clientId: "demo-client", clientSecret: "demo-secret" },
    });
    expect(again.body.expiresIn).toBe(1200);
  });

  it("dropAfterApply applies the call, then loses its response", async () => {
    const token = await api.token();
    await api.faults({ dropAfterApply: { operation: "mkdir", count: 1 } });
    await expect(api.post("/v2/files/mkdir", undefined, { dirname: "/lost" }, { token })).rejects.toThrow();
    // applied: the repeat finds the folder there
    const again = await api.post("/v2/files/mkdir", undefined, { dirname: "/lost" }, { token });
    expect(again.body).toEqual({ name: "RiakFsError", message: "Path already exists: /lost" });
  });

  it("badGateway answers the next calls of an operation with a gateway's 502 page, before the service sees them", async () => {
    const token = await api.token();
    await api.faults({ badGateway: { operation: "mkdir", count: 1 } });
    const bad = await api.post("/v2/files/mkdir", undefined, { dirname: "/gw" }, { token });
    expect(bad.status).toBe(502);
    expect(bad.text).toContain("502 Bad Gateway");
    const tree = (await api.state("demo")).tree as { path: string }[];
    expect(tree.map((e) => e.path)).not.toContain("/gw");
    expect((await api.post("/v2/files/mkdir", undefined, { dirname: "/gw" }, { token })).status).toBe(200);
  });

  it("unavailable refuses every call with 503 and a Retry-After for its window, opening on the next write", async () => {
    const token = await api.token();
    await api.faults({ unavailable: { seconds: 2, on: "write" } });
    // reads go through until a write opens the window
    expect((await api.get("/v2/account", undefined, { token })).status).toBe(200);
    const refused = await api.post("/v2/files/mkdir", undefined, { dirname: "/later" }, { token });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(2);
    expect((await api.get("/v2/account", undefined, { token })).status).toBe(503);
    // refused before the service saw it: nothing was made
    const tree = (await api.state("demo")).tree as { path: string }[];
    expect(tree.map((e) => e.path)).not.toContain("/later");
    await sleep(2_100);
    expect((await api.post("/v2/files/mkdir", undefined, { dirname: "/later" }, { token })).status).toBe(200);
  });

  it("unavailable's Retry-After may be an HTTP date, or absent", async () => {
    const token = await api.token();
    await api.faults({ unavailable: { seconds: 3, retryAfter: "date" } });
    const dated = await api.get("/v2/account", undefined, { token });
    expect(dated.status).toBe(503);
    const at = Date.parse(dated.headers.get("retry-after") ?? "");
    expect(at - Date.now()).toBeGreaterThan(1_000);
    expect(at - Date.now()).toBeLessThanOrEqual(3_000);
    await api.faults({ unavailable: { seconds: 1, retryAfter: "none" } });
    const bare = await api.get("/v2/account", undefined, { token });
    expect(bare.status).toBe(503);
    expect(bare.headers.get("retry-after")).toBeNull();
    await api.faults({ unavailable: { seconds: 0 } });
    expect((await api.get("/v2/account", undefined, { token })).status).toBe(200);
  });

  it("faultRate answers 500, 503 or drops the connection, the same way again for the same seed", async () => {
    const token = await api.token();
    const outcomes = async () => {
      await api.faults({ faultRate: 0.5, seed: 7 });
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        seen.push(
          await api.get("/v2/account", undefined, { token }).then(
            (r) => String(r.status),
            () => "drop",
          ),
        );
      }
      await api.faults({ faultRate: 0 });
      return seen;
    };
    const first = await outcomes();
    expect(new Set(first)).toEqual(new Set(["200", "500", "503", "drop"]));
    expect(await outcomes()).toEqual(first);
  });
});

describe("POST /_emulator/reset", () => {
  it("removes the accounts added at run time: their tokens and credentials → 401", async () => {
    await api.addAccount("second-acct", "second-client", "second-secret");
    const other = new Client(emu.url, "second-client", "second-secret");
    const token = await other.token();
    expect((await other.get("/v2/account", undefined, { token })).body.alias).toBe("second-acct");
    await api.reset();
    expect((await other.get("/v2/account", undefined, { token })).status).toBe(401);
    await expect(other.token()).rejects.toThrow(/401/);
  });
});
