// emulator/README.md (the first section): once ready, `listening on http://HOST:PORT` on stdout,
// first and on a line of its own, then `console: <URL>` (and `control token: <token>` beyond
// loopback: control-safety.test.ts); clean stop on SIGTERM; default client demo-client /
// demo-secret, overridable.
import { describe, expect, it } from "vitest";
import { Client, startEmulator } from "./helpers/emulator";

describe("emulator command line", () => {
  it("prints the listening line first, then the console's URL; serves /v2, and exits 0 on SIGTERM", async () => {
    const emu = await startEmulator();
    try {
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const api = new Client(emu.url);
      expect((await api.get("/v2/account")).status).toBe(200);
    } finally {
      const code = await emu.stop();
      expect(code).toBe(0);
    }
    expect(emu.stdout().trimEnd().split("\n")).toEqual([
      `listening on ${emu.url}`,
      `console: ${emu.url}/_emulator/console`,
    ]);
  });

  it("--client-id / --client-secret replace the default client", async () => {
    const emu = await startEmulator(["--client-id", "ci-client", "--client-secret", "ci-secret"]);
    try {
      const custom = new Client(emu.url, "ci-client", "ci-secret");
      expect((await custom.get("/v2/account")).status).toBe(200);
      const r = await custom.call("POST", "/v2/token", {
        token: null,
        body: { clientId: "demo-client", clientSecret: "demo-secret" },
      });
      expect(r.status).toBe(401);
    } finally {
      await emu.stop();
    }
  });
});
