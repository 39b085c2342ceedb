// The drift tool's property-level diff over engine events, and its table.
import { describe, expect, it } from "vitest";
import {
  cell,
  driftOfStep,
  propertyDiffs,
  redact,
  renderTable,
  rowsOf,
  SECRET_SIG,
  type StepMetadata,
} from "../../tools/lib/diff";

const secret = { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" };
const URN = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/mediahost:AccountSettings::settings";
const TYPE = "pulumi-nodejs:dynamic/mediahost:AccountSettings";

describe("propertyDiffs", () => {
  it("names nested leaves by dotted path, with both values", () => {
    const state = {
      minify: { enabled: true },
      fetching: { enabled: true, http: { url: "https://a", auth: { enabled: true } } },
    };
    const account = {
      minify: { enabled: false },
      fetching: { enabled: true, http: { url: "https://b", auth: { enabled: true } } },
    };
    expect(propertyDiffs(state, account)).toEqual([
      { property: "fetching.http.url", state: "https://a", account: "https://b" },
      { property: "minify.enabled", state: true, account: false },
    ]);
  });

  it("treats arrays as one value, and ignores key order in objects", () => {
    expect(propertyDiffs({ tags: ["a", "b"] }, { tags: ["a", "b", "c"] })).toEqual([
      { property: "tags", state: ["a", "b"], account: ["a", "b", "c"] },
    ]);
    expect(propertyDiffs({ x: { a: 1, b: 2 } }, { x: { b: 2, a: 1 } })).toEqual([]);
  });

  it("reports a property present on one side only", () => {
    expect(propertyDiffs({ scanSpins: true, path: "/a" }, { path: "/a" })).toEqual([
      { property: "scanSpins", state: true, account: undefined },
    ]);
  });

  it("skips the machinery's top-level keys, not user keys that look alike deeper down", () => {
    expect(propertyDiffs({ __provider: "old code", __owner: "x" }, { __provider: "new code" })).toEqual([]);
    expect(propertyDiffs({ a: { __b: 1 } }, { a: { __b: 2 } })).toHaveLength(1);
  });

  it("cannot compare two secrets and does not print one", () => {
    expect(propertyDiffs({ fetchingSecrets: secret }, { fetchingSecrets: secret })).toEqual([]);
    expect(propertyDiffs({ fetchingSecrets: secret }, { fetchingSecrets: undefined })).toEqual([
      { property: "fetchingSecrets", state: "[secret]", account: undefined },
    ]);
    expect(redact({ a: [secret], b: 1 })).toEqual({ a: ["[secret]"], b: 1 });
  });
});

describe("driftOfStep", () => {
  const step = (op: string, oldOut: object | null, newOut: object | null): StepMetadata => ({
    op,
    urn: URN,
    type: TYPE,
    old: oldOut && { inputs: oldOut as Record<string, unknown>, outputs: oldOut as Record<string, unknown> },
    new: newOut && { inputs: newOut as Record<string, unknown>, outputs: newOut as Record<string, unknown> },
  });

  it("gives property drift for an update, none for same, and 'gone' for a delete", () => {
    expect(
      driftOfStep(step("update", { minify: { enabled: true } }, { minify: { enabled: false } })),
    ).toEqual({
      urn: URN,
      name: "settings",
      type: TYPE,
      kind: "changed",
      properties: [{ property: "minify.enabled", state: true, account: false }],
    });
    expect(driftOfStep(step("same", { a: 1 }, { a: 1 }))).toBeUndefined();
    expect(driftOfStep(step("delete", { a: 1 }, null))).toMatchObject({ kind: "gone", name: "settings" });
  });

  it("ignores an update whose only change is the provider's own code", () => {
    expect(
      driftOfStep(step("update", { __provider: "v1", a: 1 }, { __provider: "v2", a: 1 })),
    ).toBeUndefined();
  });

  it("leaves out a file's observations: a new content is drift of contentSha256 alone", () => {
    const fileStep = (news: object): StepMetadata => {
      const olds = { path: "/a.txt", contentSha256: "h1", sha256: "h1", size: 2, mtime: "t1" };
      const now = { ...olds, ...news } as Record<string, unknown>;
      return {
        op: "update",
        urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/mediahost:File::profile",
        type: "pulumi-nodejs:dynamic/mediahost:File",
        old: { inputs: olds, outputs: olds },
        new: { inputs: now, outputs: now },
      };
    };
    expect(driftOfStep(fileStep({ mtime: "t2" }))).toBeUndefined();
    expect(
      driftOfStep(fileStep({ contentSha256: "h2", sha256: "h2", size: 3, mtime: "t2" }))?.properties,
    ).toEqual([{ property: "contentSha256", state: "h1", account: "h2" }]);
  });

  it("reports an approval changed elsewhere as approval, not as the time the service stamped", () => {
    const olds = { path: "/a.jpg", approval: { approved: true }, approvalDatetime: "t1" };
    const now = { ...olds, approval: { approved: false }, approvalDatetime: "t2" };
    const drift = driftOfStep({
      op: "update",
      urn: "urn:pulumi:s::p::mediahost:index:FolderMeta::meta",
      type: "mediahost:index:FolderMeta",
      old: { inputs: olds, outputs: olds },
      new: { inputs: now, outputs: now },
    });
    expect(drift?.properties.map((p) => p.property)).toEqual(["approval.approved"]);
  });

  it("ignores the stack and provider resources", () => {
    expect(
      driftOfStep({
        op: "delete",
        urn: "urn:x::pulumi:pulumi:Stack::s",
        type: "pulumi:pulumi:Stack",
        old: {},
      }),
    ).toBeUndefined();
  });
});

describe("the table", () => {
  it("has one row per drifted property or gone resource, columns aligned", () => {
    const rows = rowsOf([
      {
        urn: URN,
        name: "settings",
        type: TYPE,
        kind: "changed",
        properties: [{ property: "minify.enabled", state: true, account: false }],
      },
      {
        urn: "u2",
        name: "bags",
        type: "pulumi-nodejs:dynamic/mediahost:Folder",
        kind: "gone",
        properties: [],
      },
    ]);
    expect(renderTable(rows)).toBe(
      [
        "RESOURCE                  PROPERTY        IN STATE  IN ACCOUNT",
        "AccountSettings settings  minify.enabled  true      false",
        "Folder bags               (resource)      exists    gone",
      ].join("\n"),
    );
  });

  it("shows absent and empty values distinctly", () => {
    expect(cell(undefined)).toBe("(absent)");
    expect(cell("")).toBe('""');
    expect(cell(["a"])).toBe('["a"]');
  });
});
