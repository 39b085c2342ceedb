// `npm run lint`'s check that comments stay short: no line holding a comment in provider/, sdk/,
// tools/ or contract/ is over 120 characters (code lines are the formatter's, at 110). Comments are
// found by TypeScript's parser, so a `//` inside a string or a template is no comment. Plain
// Node.js, no build: `node scripts/comment-width.mjs [--max N] [DIR...]`; exits 1 naming each line.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import ts from "typescript";

const root = resolve(import.meta.dirname, "..");
const { values, positionals } = parseArgs({
  options: { max: { type: "string", default: "120" } },
  allowPositionals: true,
});
const max = Number(values.max);
const dirs = positionals.length > 0 ? positionals : ["provider", "sdk", "tools", "contract"];

/** The TypeScript sources under `dir`, without what is built or installed. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist"].includes(entry.name) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The start and end of every comment in `text`: the trivia before and after each token. */
function comments(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Map();
  const visit = (node) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ])
      found.set(range.pos, range.end);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found];
}

const long = [];
for (const file of dirs.flatMap((dir) => sources(resolve(root, dir)))) {
  const text = readFileSync(file, "utf8");
  const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
  const lineOf = (pos) => starts.findLastIndex((start) => start <= pos);
  const lines = new Set();
  for (const [pos, end] of comments(file, text)) {
    for (let line = lineOf(pos); line <= lineOf(end - 1); line++) lines.add(line);
  }
  for (const line of [...lines].sort((a, b) => a - b)) {
    const content = text.slice(starts[line], (starts[line + 1] ?? text.length + 1) - 1);
    if (content.length > max)
      long.push(`${relative(root, file)}:${line + 1}: a comment line of ${content.length} characters`);
  }
}
if (long.length > 0) {
  process.stderr.write(
    `${long.join("\n")}\n${long.length} comment line(s) over ${max} characters: rewrap them\n`,
  );
  process.exit(1);
}
