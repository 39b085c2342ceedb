// The repository stands alone: nothing it holds cites a document outside it, every section of
// docs/api.md that a file cites by its anchor exists, and so does every section of docs/ that a
// file cites by its title (code comments cite them: `docs/benchmark.md, "What dominates"`).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => /\.(ts|js|mjs|md|sh|json|ya?ml)$/.test(f) && f !== "package-lock.json");
const texts = tracked.map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));

/** A document's headings, without their `#`s. */
const headings = (text: string) => [...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1] ?? "");

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
    const anchors = new Set(headings(readFileSync(join(root, "docs", "api.md"), "utf8")).map(anchor));
    const cited = texts.flatMap(({ file, text }) =>
      [...text.matchAll(/docs\/api\.md#([a-z0-9-]+)/g)].map((m) => ({ file, section: m[1] })),
    );
    expect(cited.length).toBeGreaterThan(5);
    expect(cited.filter((c) => !anchors.has(c.section ?? ""))).toEqual([]);
  });

  it("cites only titled sections of docs/ that exist", () => {
    /** Each tracked document's section titles: its headings, and the bold words that open a paragraph. */
    const titles = new Map(
      texts
        .filter(({ file }) => file.endsWith(".md"))
        .map(({ file, text }) => [
          file,
          [
            ...headings(text),
            ...[...text.matchAll(/^(?:\s*(?:[-*]|\d+\.)\s+)?\*\*([^*]+)\*\*/gm)].map((m) => m[1] ?? ""),
          ].map((title) => title.replace(/`/g, "")),
        ]),
    );
    const cited = texts.flatMap(({ file, text }) => {
      // a citation may wrap across comment lines: join them without their comment markers
      const joined = text.replace(/\n\s*(?:\/\/|\*|#)?\s*/g, " ");
      return [...joined.matchAll(/(docs\/[a-z-]+\.md),? "([^"]+)"/g)].map((m) => ({
        file,
        doc: m[1] ?? "",
        section: (m[2] ?? "").replace(/`/g, ""),
      }));
    });
    expect(cited.length).toBeGreaterThan(10);
    const missing = cited.filter(
      ({ doc, section }) => !(titles.get(doc) ?? []).some((title) => title.startsWith(section)),
    );
    expect(missing).toEqual([]);
  });
});
