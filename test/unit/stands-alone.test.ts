// The repository stands alone: nothing it holds cites a document outside it, and every
// section of docs/api.md that a file cites by its anchor exists.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => /\.(ts|js|mjs|md|sh|json|ya?ml)$/.test(f) && f !== "package-lock.json");
const texts = tracked.map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");

describe("the repository stands alone", () => {
  it("cites no document outside it", () => {
    const outside = /\.\.\/shared\/|\b(api-v2|observed|DESIGN)\.md\b/;
    const citing = texts.filter(
      ({ file, text }) => file !== "test/unit/stands-alone.test.ts" && outside.test(text),
    );
    expect(citing.map((c) => c.file)).toEqual([]);
  });

  it("cites only sections of docs/api.md that exist", () => {
    const headings = new Set(
      [...readFileSync(join(root, "docs", "api.md"), "utf8").matchAll(/^#+ (.+)$/gm)].map((m) =>
        anchor(m[1] ?? ""),
      ),
    );
    const cited = texts.flatMap(({ file, text }) =>
      [...text.matchAll(/docs\/api\.md#([a-z0-9-]+)/g)].map((m) => ({ file, section: m[1] })),
    );
    expect(cited.length).toBeGreaterThan(5);
    expect(cited.filter((c) => !headings.has(c.section ?? ""))).toEqual([]);
  });
});
