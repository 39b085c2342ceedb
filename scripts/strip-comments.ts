// The JavaScript the package ships, without comments: they live in the TypeScript sources and in
// the declarations (.d.ts, kept whole for users' editors), and cost an eighth of the installed
// package. Each comment becomes as many empty lines as it had, so every line keeps its number and
// the source maps stay true. The shims a dynamic resource's state names stay as tsc wrote them
// (docs/upgrading.md). Run by `npm run build`.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** `text` with its comments blanked (line breaks kept), but the source-map link and a `#!` line. */
export function withoutComments(text: string, file: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const comments = new Map<number, ts.CommentRange>();
  const note = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) comments.set(range.pos, range);
  };
  const visit = (node: ts.Node) => {
    note(ts.getLeadingCommentRanges(text, node.pos));
    note(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  note(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  let out = "";
  let at = 0;
  for (const range of [...comments.values()].sort((a, b) => a.pos - b.pos)) {
    const comment = text.slice(range.pos, range.end);
    if (comment.startsWith("//# sourceMappingURL=")) continue;
    // the spaces before a comment are trivia too (never inside a string: the parser placed it)
    out += text.slice(at, range.pos).replace(/[ \t]+$/, "") + comment.replace(/[^\n]/g, "");
    at = range.end;
  }
  return out + text.slice(at);
}

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scripts(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

/** What stays as tsc wrote it: the shims and the provider object a dynamic resource's state holds. */
const SERIALIZED = [join("sdk", "providers"), join("sdk", "provider.js")];

if (require.main === module) {
  const dist = join(__dirname, "..");
  for (const file of ["provider", "tools", "sdk"].flatMap((dir) => scripts(join(dist, dir)))) {
    if (SERIALIZED.some((kept) => file.startsWith(join(dist, kept)))) continue;
    writeFileSync(file, withoutComments(readFileSync(file, "utf8"), file));
  }
}
