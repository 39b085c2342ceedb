// The README's resource table, made from the kinds themselves (provider/resources): the
// properties cell each kind writes (checked to name every input of its schema), what replaces it
// (its rules), what delete does and what drift is visible. `npm run docs` writes it into the
// README between its markers; a unit test fails when the README and the kinds disagree.
//
//   npm run docs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { kinds } from "../provider/resources";
import type { Kind } from "../provider/resources/kind";

export const START = "<!-- resources:start (made by `npm run docs` from provider/resources) -->";
export const END = "<!-- resources:end -->";

/** The inputs of a kind its README row must name. */
export function inputsOf(kind: Kind): string[] {
  return Object.keys(kind.inputs.shape).filter((k) => k !== "fetchingSecrets");
}

export function resourceTable(): string {
  const rows = Object.values(kinds).map((k) => {
    const kind = k as unknown as Kind;
    const own = kind.replaceOn.map((p) => `\`${p}\``).join(", ");
    // the adapter replaces delete-first only for the kind's own properties, never for `account`
    const replaces = kind.deleteBeforeReplace
      ? `${own} (old one removed first), \`account\``
      : `${own}, \`account\``;
    return `| \`${kind.name}\` | ${kind.docs.properties} | ${replaces} | ${kind.docs.delete} | ${kind.docs.drift} |`;
  });
  return [
    START,
    "| resource | properties | replaces on | delete | drift visible |",
    "|---|---|---|---|---|",
    ...rows,
    END,
  ].join("\n");
}

/** The README with its resource table replaced by the one the kinds make. */
export function withTable(readme: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md: the markers ${START} ... ${END} are missing`);
  return readme.slice(0, from) + resourceTable() + readme.slice(to + END.length);
}

if (require.main === module) {
  const file = join(__dirname, "..", "..", "README.md");
  writeFileSync(file, withTable(readFileSync(file, "utf8")));
  process.stdout.write("README.md: resource table written\n");
}
