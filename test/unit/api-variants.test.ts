// docs/api.md's guesses and the emulator's variants are one list: every fact it marks [likely] or
// [unknown] names the variant that plays its other answer, every variant is named by a fact, and
// every variant runs in test/e2e/variants.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VARIANT_NAMES, VARIANTS } from "../../emulator/variants";
import { variantsTable, withVariants } from "../../scripts/docs";
import { VARIANT_RUNS } from "../e2e/helpers/variant-runs";

const api = readFileSync(join(__dirname, "../../docs/api.md"), "utf8");

/** The facts of docs/api.md: each bullet (with its continuation lines) and each table row. */
function facts(text: string): { section: string; text: string }[] {
  const out: { section: string; text: string }[] = [];
  let section = "";
  let current: { section: string; text: string } | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) section = line.slice(3).trim();
    const starts = line.startsWith("- ") || line.startsWith("| ");
    if (starts) {
      current = { section, text: line };
      out.push(current);
    } else if (current && line.startsWith("  ") && line.trim() !== "") current.text += ` ${line.trim()}`;
    else current = undefined;
  }
  return out;
}

/** The facts that are guesses: [likely] or [unknown], not the legend or the list of variants. */
const guesses = facts(api).filter(
  (f) =>
    /\[(likely|unknown)\]/.test(f.text) &&
    !/\*\*\[(likely|unknown)\]\*\*/.test(f.text) &&
    f.section !== "Variants",
);
/** The rows of the table of choices, every one an [unknown]. */
const choices = facts(api).filter(
  (f) =>
    f.section === "Choices where the service is silent" &&
    f.text.startsWith("| ") &&
    !/^\| (Question|---)/.test(f.text),
);
const named = (text: string) =>
  [...text.matchAll(/`([a-z0-9]+(?:-[a-z0-9]+)+)`/g)].map((m) => m[1] as string);

describe("docs/api.md's guesses and the emulator's variants", () => {
  it("finds the guesses and the choices it checks", () => {
    expect(guesses.length).toBeGreaterThanOrEqual(25);
    expect(choices.length).toBeGreaterThanOrEqual(14);
  });

  it("every [likely] or [unknown] fact names a variant of the emulator", () => {
    const without = [...guesses, ...choices]
      .filter((f) => !named(f.text).some((n) => (VARIANT_NAMES as string[]).includes(n)))
      .map((f) => `${f.section}: ${f.text.slice(0, 100)}`);
    expect(without).toEqual([]);
  });

  it("every variant is named by a fact of the section it says it plays", () => {
    for (const name of VARIANT_NAMES) {
      const heading = VARIANTS[name].section;
      const inSection = guesses.filter(
        (f) => f.section.toLowerCase().replace(/[^a-z0-9]+/g, "-") === heading,
      );
      expect(
        inSection.some((f) => named(f.text).includes(name)),
        `${name} in "${heading}"`,
      ).toBe(true);
    }
  });

  it("lists every variant in its Variants table, as the code describes it, and so does the emulator's README", () => {
    expect(api).toContain(variantsTable());
    const readme = readFileSync(join(__dirname, "../../emulator/README.md"), "utf8");
    expect(withVariants(readme)).toBe(readme);
    for (const name of VARIANT_NAMES) expect(readme).toContain(`| \`${name}\` |`);
  });

  it("runs every variant in the e2e test, and no run plays two answers of one fact", () => {
    const run = VARIANT_RUNS.flatMap((r) => r.variants);
    expect([...run].sort()).toEqual([...VARIANT_NAMES].sort());
    const exclusive = [
      ["fs-errors-200", "fs-errors-400", "mkdir-exists-409"],
      ["secrets-masked", "secrets-clear"],
      ["token-scope-string", "documented-shapes"],
    ];
    for (const r of VARIANT_RUNS) {
      for (const set of exclusive)
        expect(r.variants.filter((v) => set.includes(v)).length).toBeLessThanOrEqual(1);
    }
  });
});
