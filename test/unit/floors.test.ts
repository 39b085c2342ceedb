// The house's floors (docs/architecture.md): a module may import modules of its own floor or of
// the floors below it, never above. The API contract stands alone, the emulator depends on the
// contract only, and nothing in provider/ reaches the SDK, the tools, the emulator or the scripts.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = resolve(__dirname, "../..");

/** Floors from the ground up: each a list of path prefixes (relative to the repository). */
const FLOORS: { name: string; paths: string[] }[] = [
  { name: "contract", paths: ["contract/"] },
  {
    name: "plain helpers",
    paths: ["provider/version.ts", "provider/diff.ts", "provider/hidden.ts"],
  },
  { name: "client", paths: ["provider/client/"] },
  {
    name: "configuration, errors, log, journal",
    paths: ["provider/config.ts", "provider/errors.ts", "provider/log.ts", "provider/journal.ts"],
  },
  { name: "account", paths: ["provider/account/"] },
  { name: "kinds", paths: ["provider/resources/"] },
  {
    name: "lifecycle",
    paths: [
      "provider/lifecycle.ts",
      "provider/calls/",
      "provider/run-plan.ts",
      "provider/session.ts",
      "provider/functions.ts",
      "provider/media-functions.ts",
      "provider/data-function.ts",
    ],
  },
  {
    name: "faces",
    paths: ["provider/face.ts", "provider/dynamic.ts", "provider/native/", "provider/index.ts"],
  },
  { name: "the tools' door", paths: ["provider/for-tools.ts"] },
  { name: "sdk", paths: ["sdk/"] },
  { name: "tools", paths: ["tools/"] },
  { name: "scripts", paths: ["scripts/"] },
];

function floorOf(path: string): number {
  return FLOORS.findIndex((f) => f.paths.some((p) => path === p || path.startsWith(p)));
}

function sources(dir: string): string[] {
  return readdirSync(join(repo, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (["node_modules", "dist", "test"].includes(name)) return [];
    if (statSync(join(repo, path)).isDirectory()) return sources(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every module specifier a source imports (static imports, re-exports, require, import()). */
function imports(file: string): string[] {
  const text = readFileSync(join(repo, file), "utf8");
  const found = [
    ...text.matchAll(/^\s*(?:import|export)\b[^"';]*?from\s+"([^"]+)"/gm),
    ...text.matchAll(/^\s*import\s+"([^"]+)"/gm),
    ...text.matchAll(/\brequire\("([^"]+)"\)/g),
    ...text.matchAll(/\bimport\("([^"]+)"\)/g),
  ];
  return found.map((m) => m[1] as string);
}

/** The repository path an import names, or the package name for a bare one. */
function target(from: string, spec: string): string {
  if (!spec.startsWith(".")) return spec === "mediahost-contract" ? "contract/index.ts" : `package:${spec}`;
  const base = relative(repo, resolve(repo, dirname(from), spec));
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) {
    try {
      if (statSync(join(repo, candidate)).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return base;
}

/** The import cycles of a graph: each strongly connected set of two or more modules (or one importing itself). */
function cyclesIn(edges: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const set: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = top === file ? undefined : stack.pop())
      set.push(top);
    if (set.length > 1 || edges.get(file)?.includes(file)) cycles.push(set.sort().join(" <-> "));
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The door the tools enter the provider by: what they may use of it, said in one place. */
const TOOLS_DOOR = "provider/for-tools.ts";
/** The most lines a function of the tools may span. */
const MAX_FUNCTION_LINES = 80;

/** `file:line name (N lines)` of every function, method or arrow in `file` over `max` lines. */
function longFunctions(file: string, max: number): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(repo, file), "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
      const lines = line(node.getEnd()) - line(node.getStart(source)) + 1;
      const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      const name = named?.getText(source) ?? "(anonymous)";
      if (lines > max) found.push(`${file}:${line(node.getStart(source)) + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the floors of the house", () => {
  const files = ["contract", "provider", "sdk", "tools", "scripts"].flatMap(sources);

  it("places every module of the provider package and the contract on a floor", () => {
    expect(files.filter((f) => floorOf(f) < 0)).toEqual([]);
  });

  it("never imports from a higher floor", () => {
    const upward = files.flatMap((file) =>
      imports(file).flatMap((spec) => {
        const to = target(file, spec);
        const floor = floorOf(to);
        return floor > floorOf(file)
          ? [`${file} (${FLOORS[floorOf(file)]!.name}) -> ${to} (${FLOORS[floor]!.name})`]
          : [];
      }),
    );
    expect(upward).toEqual([]);
  });

  it("has no import cycle inside provider/: no module reaches itself through what it imports", () => {
    const modules = sources("provider");
    const edges = new Map(
      modules.map((file) => [
        file,
        imports(file)
          .map((spec) => target(file, spec))
          .filter((to) => modules.includes(to)),
      ]),
    );
    expect(cyclesIn(edges)).toEqual([]);
  });

  it("makes every Session in one place, what every face shares (provider/face.ts)", () => {
    const code = ["contract", "provider", "sdk", "tools", "scripts", "emulator"].flatMap(sources);
    expect(code).toContain("tools/recover.ts");
    const making = code.filter((file) => /\bnew Session\(/.test(readFileSync(join(repo, file), "utf8")));
    expect(making).toEqual(["provider/face.ts"]);
  });

  it("keeps provider/ free of the SDK, the tools, the emulator and the scripts", () => {
    const reaching = sources("provider").flatMap((file) =>
      imports(file)
        .map((spec) => target(file, spec))
        .filter((to) => /^(sdk|tools|emulator|scripts)\//.test(to) || to === "package:mediahost-emulator")
        .map((to) => `${file} -> ${to}`),
    );
    expect(reaching).toEqual([]);
  });

  it("lets the contract depend on zod alone, and the emulator on the contract but not on provider/", () => {
    const contract = sources("contract").flatMap((f) =>
      imports(f).filter((s) => !s.startsWith("./") && s !== "zod"),
    );
    expect(contract).toEqual([]);
    // the contract as a package (its name), never as a folder of this repository
    const emulator = sources("emulator").flatMap((file) =>
      imports(file)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => target(file, spec))
        .filter((to) => !to.startsWith("emulator/"))
        .map((to) => `${file} -> ${to}`),
    );
    expect(emulator).toEqual([]);
  });

  it("keeps provider/ typed from the kind to the wire: no `as never` and no `as unknown as`", () => {
    const erasing = sources("provider").flatMap((file) =>
      [...readFileSync(join(repo, file), "utf8").matchAll(/\bas (never|unknown as)\b/g)].map(
        (m) => `${file}: as ${m[1]}`,
      ),
    );
    expect(sources("provider")).toContain("provider/lifecycle.ts");
    expect(erasing).toEqual([]);
  });

  it("keeps kind rules in their kinds: no module outside provider/resources names a kind", () => {
    const kinds = sources("provider/resources")
      .map((file) => /name: "([A-Z][A-Za-z]+)"/.exec(readFileSync(join(repo, file), "utf8"))?.[1])
      .filter((name): name is string => name !== undefined);
    expect(kinds).toContain("Folder");
    const naming = sources("provider")
      .filter((file) => !file.startsWith("provider/resources/"))
      .flatMap((file) => {
        // string literals only: comments may speak of folders
        const code = readFileSync(join(repo, file), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
        return kinds.filter((kind) => code.includes(`"${kind}"`)).map((kind) => `${file}: "${kind}"`);
      });
    expect(naming).toEqual([]);
  });

  it("lets the tools into the provider by one door (provider/for-tools.ts), no other module of it", () => {
    const tools = sources("tools");
    expect(tools).toContain("tools/recover.ts");
    const around = tools.flatMap((file) =>
      imports(file)
        .map((spec) => target(file, spec))
        .filter((to) => to.startsWith("provider/") && to !== TOOLS_DOOR)
        .map((to) => `${file} -> ${to}`),
    );
    expect(around).toEqual([]);
  });

  it(`keeps every function of the tools within ${MAX_FUNCTION_LINES} lines: a long one is split into named steps`, () => {
    const long = sources("tools").flatMap((file) => longFunctions(file, MAX_FUNCTION_LINES));
    expect(long).toEqual([]);
  });
});
