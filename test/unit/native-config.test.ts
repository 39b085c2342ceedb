// The native face's CheckConfig (provider/native/server.ts `configFailures`): a provider's
// configuration is judged at preview, key by key, before anything runs.
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/diff";
import { configFailures } from "../../provider/native/server";

const good = { baseUrl: "https://api.example.com", clientId: "id", clientSecret: "s3cr3t-value" };

describe("the native provider's configuration check", () => {
  it("accepts complete credentials, top-level or under accounts only", () => {
    expect(configFailures(good)).toEqual([]);
    expect(configFailures({ accounts: JSON.stringify({ eu: good }) })).toEqual([]);
  });

  it("names an unknown key", () => {
    expect(configFailures({ ...good, clientSecrett: "x" })).toEqual([
      {
        property: "clientSecrett",
        reason: expect.stringMatching(/^unknown configuration key mediahost:clientSecrett/),
      },
    ]);
  });

  it("refuses a configuration that reaches no account, naming what is missing", () => {
    const failures = configFailures({ baseUrl: "https://api.example.com" });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("clientId");
    expect(failures[0]?.reason).toMatch(/mediahost\.clientId, mediahost\.clientSecret: not set/);
  });

  it("names the key of a bad setting and of a bad account entry, never a secret", () => {
    expect(configFailures({ ...good, operationTimeoutSeconds: "soon" })).toEqual([
      { property: "operationTimeoutSeconds", reason: expect.stringContaining("must be a number of seconds") },
    ]);
    const plainHttp = configFailures({ ...good, baseUrl: "http://api.example.com" });
    expect(plainHttp.map((f) => f.property)).toEqual(["baseUrl"]);
    const entry = configFailures({ ...good, accounts: JSON.stringify({ eu: { clientId: "eu-id" } }) });
    expect(entry).toEqual([
      { property: "accounts", reason: expect.stringContaining("mediahost:accounts.eu.clientSecret") },
    ]);
    for (const f of [...plainHttp, ...entry]) expect(f.reason).not.toContain(good.clientSecret);
  });

  it("leaves values still unknown at preview to Configure", () => {
    expect(configFailures({ ...good, baseUrl: UNKNOWN })).toEqual([]);
    expect(configFailures({ baseUrl: UNKNOWN, clientId: UNKNOWN, clientSecret: UNKNOWN })).toEqual([]);
  });
});
