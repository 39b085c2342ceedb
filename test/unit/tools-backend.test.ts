// How mediahost-drift and mediahost-recover name the backend they act on: the URL as given, with
// the credentials a URL can carry masked.
import { describe, expect, it } from "vitest";
import { describeBackend } from "../../tools/lib/backend";

describe("describeBackend", () => {
  it("shows object-store, cloud and file URLs as they are", () => {
    for (const url of [
      "s3://state/team?endpoint=http://127.0.0.1:9000&s3ForcePathStyle=true&region=us-east-1",
      "azblob://state?storage_account=acme",
      "gs://acme-state/mediahost",
      "https://api.pulumi.com",
      "file:///var/lib/pulumi",
    ])
      expect(describeBackend(url)).toBe(url);
  });

  it("masks a password in the URL and secret-looking query values", () => {
    const shown = describeBackend("postgres://pulumi:hunter2@db:5432/state?sslmode=disable&sas_token=abc");
    expect(shown).not.toMatch(/hunter2|abc/);
    expect(shown).toContain("pulumi:****@db:5432/state");
    expect(shown).toContain("sslmode=disable");
    expect(shown).toContain("sas_token=****");
  });

  it("returns what it cannot parse unchanged", () => {
    expect(describeBackend("not a url")).toBe("not a url");
  });
});
