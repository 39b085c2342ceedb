// The package's JavaScript ships without comments
// (scripts/strip-comments.ts): what is code stays byte for byte, and every line keeps its number.
import { describe, expect, it } from "vitest";
import { withoutComments } from "../../scripts/strip-comments";

const SOURCE = [
  "#!/usr/bin/env node",
  '"use strict";',
  "// a file comment",
  "/**",
  " * A doc comment over",
  " * three lines.",
  " */",
  'const url = "https://example.com/a"; // after code',
  "const glob = '/* not a comment */';",
  "const re = /\\/\\/x/g; /* inline */ const t = `line // kept",
  "  /* kept */ too`;",
  "module.exports = { url, glob, re, t };",
  "//# sourceMappingURL=file.js.map",
  "",
].join("\n");

describe("the shipped JavaScript without comments", () => {
  const out = withoutComments(SOURCE, "file.js");

  it("blanks every comment and keeps every line's number", () => {
    expect(out.split("\n")).toHaveLength(SOURCE.split("\n").length);
    expect(out).not.toMatch(/a file comment|doc comment|three lines|after code|inline/);
    expect(out.split("\n")[7]).toBe('const url = "https://example.com/a";');
  });

  it("leaves strings, regular expressions and template literals as they were", () => {
    expect(out).toContain("const glob = '/* not a comment */';");
    expect(out).toContain("const re = /\\/\\/x/g; const t = `line // kept\n  /* kept */ too`;");
    const run = new Function("module", out.replace(/^#!.*/, "")) as (m: { exports: unknown }) => void;
    const m = { exports: {} as Record<string, unknown> };
    run(m);
    expect(m.exports).toEqual({
      url: "https://example.com/a",
      glob: "/* not a comment */",
      re: /\/\/x/g,
      t: "line // kept\n  /* kept */ too",
    });
  });

  it("keeps the shebang and the source map's link", () => {
    expect(out.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(out).toContain("//# sourceMappingURL=file.js.map");
  });
});
