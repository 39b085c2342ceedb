// mediahost-doctor's pieces: the walk that finds fields nobody documents, the filter that keeps
// secrets out of its output, and the table's wrapped cells.
import { schemas } from "mediahost-contract";
import { describe, expect, it } from "vitest";
import { undocumentedKeys } from "../../tools/lib/doctor-keys";
import { renderTable, Secrets } from "../../tools/lib/doctor-report";

describe("undocumentedKeys", () => {
  it("names new fields at every level, but not the entries of maps keyed by data", () => {
    const account = {
      alias: "a",
      extra: 1,
      fetching: {
        enabled: false,
        http: { url: "u", auth: { enabled: false, pin: "x" } },
        s3: { bucket: "b", region: "r" },
      },
      aliases: { demo: { prefix: "/", note: "n" }, other: { cdn: true } },
      status: { status: "active", details: { anything: 1 } },
    };
    expect(undocumentedKeys(account, schemas.Account, { "fetching.s3": schemas.FetchingS3 }).sort()).toEqual([
      "aliases.*.note",
      "extra",
      "fetching.http.auth.pin",
      "fetching.s3.region",
    ]);
  });

  it("walks arrays, and unions of an array or a string", () => {
    const page = {
      contents: [{ filename: "f", mtime: "m", size: 0, isDirectory: true, meta: { depth: 1 } }],
    };
    expect(undocumentedKeys(page, schemas.ReaddirPage)).toEqual(["contents.[].meta.depth"]);
    expect(undocumentedKeys({ token: "t", expiresIn: 1, scope: "a b" }, schemas.TokenResponse)).toEqual([]);
    expect(undocumentedKeys({ token: "t", expiresIn: 1, scope: ["a"], x: 1 }, schemas.TokenResponse)).toEqual(
      ["x"],
    );
  });
});

describe("Secrets", () => {
  it("hides every value it was given, longest first, and never the mask itself", () => {
    const secrets = new Secrets();
    for (const v of ["abcd", "abcdefgh", "********", "ab", undefined]) secrets.add(v);
    expect(secrets.redact("x abcdefgh y abcd z ******** ab")).toBe("x [hidden] y [hidden] z ******** ab");
  });
});

describe("renderTable", () => {
  it("wraps long cells on word boundaries and names the facts not handled", () => {
    const long = "word ".repeat(30).trim();
    const table = renderTable({
      baseUrl: "http://x",
      account: "demo",
      facts: [
        { id: "a", fact: "fact a", section: "errors", expects: "e", answered: long, handled: "NO" },
        {
          id: "b",
          fact: "fact b",
          section: "account",
          expects: "e",
          answered: "ok",
          handled: "yes",
          variant: "v",
        },
      ],
      ok: false,
    });
    const lines = table.split("\n");
    expect(lines[0]).toBe("http://x (account demo), read-only");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(170);
    expect(lines.filter((l) => l.includes("word")).length).toBeGreaterThan(1);
    expect(table).toContain("yes: v");
    expect(lines.at(-1)).toBe("1 fact the provider does not handle: fact a");
  });
});
