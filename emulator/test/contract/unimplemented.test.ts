// Operations the emulator cannot perform (image background removal, 3D conversion, marketplace
// exports: docs/api.md#what-this-project-leaves-out) answer 501 with a message, after the
// usual authentication (every operation but token requires a bearer token, docs/api.md#authentication-and-tokens).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, type Emulator, setup } from "./helpers/emulator";
import { type OperationName, route, samples } from "./helpers/samples";

let emu: Emulator;
let api: Client;

beforeAll(async () => {
  ({ emu, api } = await setup());
});
afterAll(async () => {
  await emu?.stop();
});

const UNIMPLEMENTED: OperationName[] = [
  "startRemoveBackground",
  "getRemoveBackgroundJob",
  "startModel2Glb",
  "getModel2GlbJob",
  "spin2marketplaceA360",
  "spin2marketplaceB360",
];

describe("operations the emulator cannot perform", () => {
  it.each(UNIMPLEMENTED)("%s → 501 with a message", async (name) => {
    const { method, path } = route(name);
    const s = samples[name];
    const r = await api.call(method, path, { query: s.query, body: s.body });
    expect(r.status, r.text).toBe(501);
    expect(typeof r.body?.message).toBe("string");
    expect(r.body.message.length).toBeGreaterThan(0);
  });

  it.each(UNIMPLEMENTED)("%s without a token → 401, not 501", async (name) => {
    const { method, path } = route(name);
    const s = samples[name];
    const r = await api.call(method, path, { query: s.query, body: s.body, token: null });
    expect(r.status).toBe(401);
  });

  it("the request log names them", async () => {
    await api.clearRequests();
    const { method, path } = route("startModel2Glb");
    await api.call(method, path, { body: samples.startModel2Glb.body });
    const ops = (await api.requests(0)).requests.map((r) => [r.operation, r.status]);
    expect(ops).toContainEqual(["startModel2Glb", 501]);
  });
});
