// The native face's CheckConfig (`configFailures`, provider/config.ts): a provider's
// configuration is judged at preview, key by key, before anything runs.
import { describe, expect, it } from "vitest";
import { configFailures } from "../../provider/config";
import { UNKNOWN } from "../../provider/diff";
import { engineFailure } from "../../provider/native/server";

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

describe("the native provider's check failures, as the engine shows them", () => {
  it("keeps a top-level property, whose value the CLI prints beside it", () => {
    const f = { property: "title", reason: "must be at most 256 characters" };
    expect(engineFailure(f, { path: "/p", title: "x".repeat(300) })).toEqual(f);
  });

  it("moves a nested path into the reason, where the CLI would print {<nil>} for its value", () => {
    const news = { path: "/p", product: { id: "x".repeat(300) } };
    expect(engineFailure({ property: "product.id", reason: "must be at most 256 characters" }, news)).toEqual(
      {
        property: "",
        reason: "product.id: must be at most 256 characters",
      },
    );
    expect(engineFailure({ property: "(inputs)", reason: "set at least one of title" }, news)).toEqual({
      property: "",
      reason: "set at least one of title",
    });
  });
});
