// A new kind is its module and its registry line, then `npm run docs` (CONTRIBUTING.md, "Adding a
// resource kind"): in a copy of the repository, a throwaway kind `Widget` (a sub-account under
// another name: cheap, and the emulator has it) is added in those two places and nowhere else.
// `npm run docs` builds and regenerates; the README's table, the package schema, the reference and
// the SDK's classes of both faces then have it, and a program using it on both faces runs `up` and
// `destroy` with the real CLI against the emulator. Should any other place need an edit, the build,
// the docs or the program fails here.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

/** The whole kind: what a contributor writes in provider/resources/widget.ts. */
const WIDGET = `// Widget: a throwaway kind of test/e2e/add-a-kind.test.ts, kept as a sub-account.
import { z } from "zod";
import { defineKind } from "./kind";
import { AliasName } from "./schema";

export const widget = defineKind({
  name: "Widget",
  inputs: z.strictObject({
    /** The widget's alias. Changing it replaces the widget. */
    alias: AliasName,
  }),
  outputs: {
    /** What the widget calls itself. */
    label: z.string(),
  },
  replaceOn: ["alias"],
  id: (i) => i.alias,
  importing: { refused: "a widget cannot be imported: it is a test's" },
  docs: {
    summary: "A widget of the test that adds a kind, kept as a sub-account.",
    properties: "\`alias\`; output \`label\`",
    delete: "deletes it",
    drift: "**none**",
    example: { title: "A widget", name: "gadget", args: { alias: "gadget" } },
  },
  async create(ctx, { alias }) {
    await ctx.client.ops.createSubAccount({ body: { alias } });
    return { label: \`widget \${alias}\` };
  },
  refreshReads: () => [],
  async read() {
    return {};
  },
  async update(_ctx, _olds, news) {
    return { label: \`widget \${news.alias}\` };
  },
  async delete(ctx, olds) {
    await ctx.client.ops.deleteSubAccount({ query: { alias: olds.alias } });
  },
});
`;

/** A program using the widget on both faces. */
const PROGRAM = `import * as mediahost from "pulumi-mediahost";
import * as native from "pulumi-mediahost/native";

const dynamicWidget = new mediahost.Widget("dynamic", { alias: "widget-dynamic" });
const nativeWidget = new native.Widget("native", { alias: "widget-native" });
export const dynamicLabel = dynamicWidget.label;
export const nativeLabel = nativeWidget.label;
`;

const PULUMI_YAML = `name: widget
main: index.ts
runtime:
  name: nodejs
  options:
    typescript: true
plugins:
  providers:
    - name: mediahost
      path: ../plugin
`;

function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      err
        ? reject(new Error(`${cmd} ${args.join(" ")}: ${err.message}\n${stdout}${stderr}`))
        : resolve(stdout),
    );
  });
}

describe("a new kind is its module and one registry line, then `npm run docs`", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let copy: string;
  let p: Project | undefined;
  beforeAll(async () => {
    // the repository's sources as they are (tracked and new, not ignored); node_modules shared
    copy = await mkdtemp(join(tmpdir(), "mediahost-add-a-kind-"));
    const listed = await run(
      "git",
      ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
      repoRoot,
    );
    for (const file of listed.split("\0").filter((f) => f && existsSync(join(repoRoot, f)))) {
      await mkdir(dirname(join(copy, file)), { recursive: true });
      await cp(join(repoRoot, file), join(copy, file));
    }
    await symlink(join(repoRoot, "node_modules"), join(copy, "node_modules"));

    // the two places: the module, and the registry's line (with its import)
    await writeFile(join(copy, "provider/resources/widget.ts"), WIDGET);
    const registry = join(copy, "provider/resources/index.ts");
    const text = await readFile(registry, "utf8");
    await writeFile(
      registry,
      text
        .replace(/^import /m, 'import { widget } from "./widget";\nimport ')
        .replace("export const kinds = {", "export const kinds = {\n  Widget: stating(widget, {}),"),
    );
    await run("npm", ["run", "-s", "docs"], copy);
  }, 300_000);
  afterAll(async () => {
    await p?.dispose();
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it("regenerates the README's table, the package schema, the reference and the SDK's classes with it", async () => {
    const read = (file: string) => readFile(join(copy, file), "utf8");
    expect(await read("README.md")).toContain("| `Widget` | `alias`; output `label` |");
    const schema = JSON.parse(await read("provider/native/schema.json"));
    expect(schema.resources["mediahost:index:Widget"].description).toContain("A widget of the test");
    expect(existsSync(join(copy, "docs/reference/widget.md"))).toBe(true);
    const classes = await read("sdk/kinds.ts");
    expect(classes).toContain("export class Widget extends widgetClasses.dynamic {}");
    expect(classes).toContain("export class Widget extends widgetClasses.native {}");
    expect(await read("sdk/native.ts")).toContain("Widget,");
  });

  it("runs a program using it on both faces: up, then destroy", async () => {
    const dir = join(copy, "widget");
    await mkdir(dir);
    await writeFile(join(dir, "Pulumi.yaml"), PULUMI_YAML);
    await writeFile(join(dir, "index.ts"), PROGRAM);
    p = await openProject(toolchain, { workDir: dir });
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.dynamicLabel?.value).toBe("widget widget-dynamic");
    expect(up.outputs.nativeLabel?.value).toBe("widget widget-native");
    expect(p.calls().createSubAccount).toBe(2);
    p.mark();
    const down = await p.stack.destroy();
    expect(down.summary.result).toBe("succeeded");
    expect(p.calls().deleteSubAccount).toBe(2);
  });
});
