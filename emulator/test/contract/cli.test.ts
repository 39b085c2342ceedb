// emulator/README.md (the first section): once ready, `listening on http://HOST:PORT` on stdout,
// first and on a line of its own, then `console: <URL>` (and `control token: <token>` beyond
// loopback: control-safety.test.ts); clean stop on SIGTERM; default client demo-client /
// demo-secret, overridable.
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { VARIANT_NAMES } from "../../variants";
import { CLI, Client, startEmulator } from "./helpers/emulator";

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

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

  it("--help lists every variant with a line each; --variant plays them, and refuses an unknown one", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const name of VARIANT_NAMES) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    const bad = await cli(["--variant", "no-such-variant"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--variant must be one of token-scope-string, .*; got "no-such-variant"/);
    const emu = await startEmulator(["--variant", "subaccount-empty", "--variant", "aliases-replace"]);
    try {
      const api = new Client(emu.url);
      const created = await api.call("POST", "/v2/account/sub-account", { body: { alias: "cli-sub" } });
      expect(created.status).toBe(200);
      expect(created.text).toBe("");
      expect((await api.call("GET", "/_emulator/variants", { token: null })).body).toEqual({
        variants: ["aliases-replace", "subaccount-empty"],
      });
    } finally {
      await emu.stop();
    }
  });

  it("--real-account N seeds the account with N files beside the system folders, and refuses what is not a count", async () => {
    const bad = await cli(["--real-account", "1.5"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--real-account must be a whole number of files/);
    const emu = await startEmulator(["--real-account", "250"]);
    try {
      const storage = await new Client(emu.url).call("GET", "/v2/account/storage");
      // the system folders hold 5 files of their own
      expect(storage.body).toEqual(expect.objectContaining({ files: 255 }));
    } finally {
      await emu.stop();
    }
  });
});
