// The configuration module (provider/config.ts): stack config first, then the MEDIAHOST_*
// environment, checked once; a bad setting names its key (or variable) and the rule.
import { describe, expect, it } from "vitest";
import { readConfiguration, uploadResumeFile } from "../../provider/config";

const read = (config: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  readConfiguration({ config: (k) => config[k], env });

describe("the configuration", () => {
  it("takes each key from the stack config, else from its MEDIAHOST_* variable", () => {
    const env = {
      MEDIAHOST_BASE_URL: "http://127.0.0.1:1",
      MEDIAHOST_CLIENT_ID: "env-id",
      MEDIAHOST_CLIENT_SECRET: "env-secret",
      MEDIAHOST_OPERATION_TIMEOUT_SECONDS: "12",
      MEDIAHOST_MAX_RATE_LIMIT_WAIT_SECONDS: "0",
    };
    const fromEnv = read({}, env);
    expect(fromEnv.accounts.get("default")).toEqual({
      baseUrl: "http://127.0.0.1:1",
      clientId: "env-id",
      clientSecret: "env-secret",
    });
    expect(fromEnv.client).toMatchObject({ deadlineMs: 12_000, maxRateLimitWaitMs: 0 });
    const fromConfig = read(
      { "mediahost:clientId": "config-id", "mediahost:operationTimeoutSeconds": "5" },
      env,
    );
    expect(fromConfig.accounts.get("default")).toMatchObject({ clientId: "config-id" });
    expect(fromConfig.client).toMatchObject({ deadlineMs: 5_000, maxRateLimitWaitMs: 0 });
    // the digest tells configurations apart, the environment's part included
    expect(read({}, { ...env, MEDIAHOST_OPERATION_TIMEOUT_SECONDS: "13" }).digest).not.toBe(fromEnv.digest);
  });

  it("refuses a bad number of seconds, naming where it came from", () => {
    expect(() => read({ "mediahost:operationTimeoutSeconds": "soon" })).toThrow(
      'mediahost:operationTimeoutSeconds: must be a number of seconds >= 1, got "soon"',
    );
    expect(() => read({}, { MEDIAHOST_MAX_RATE_LIMIT_WAIT_SECONDS: "-1" })).toThrow(
      'MEDIAHOST_MAX_RATE_LIMIT_WAIT_SECONDS: must be a number of seconds >= 0, got "-1"',
    );
  });

  it("takes a run's share of the rate budget as a percent, and refuses one out of range", () => {
    expect(read({ "mediahost:rateBudgetPercent": "25" }).client.rateBudgetPercent).toBe(25);
    expect(read({}, { MEDIAHOST_RATE_BUDGET_PERCENT: "2.5" }).client.rateBudgetPercent).toBe(2.5);
    expect(read({}).client.rateBudgetPercent).toBeUndefined();
    expect(() => read({ "mediahost:rateBudgetPercent": "0" })).toThrow(
      'mediahost:rateBudgetPercent: must be a percent above 0 and at most 100, got "0"',
    );
    expect(() => read({}, { MEDIAHOST_RATE_BUDGET_PERCENT: "150" })).toThrow(
      'MEDIAHOST_RATE_BUDGET_PERCENT: must be a percent above 0 and at most 100, got "150"',
    );
  });

  it("says where large uploads keep what resumes them, from XDG_CACHE_HOME", () => {
    expect(read({}, { XDG_CACHE_HOME: "/tmp/cache" }).client.uploadResumeFile).toBe(
      "/tmp/cache/pulumi-mediahost/tus-uploads.json",
    );
    expect(uploadResumeFile({ HOME: "/h" })).toMatch(/\/\.cache\/pulumi-mediahost\/tus-uploads\.json$/);
  });
});
