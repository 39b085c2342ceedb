// Every TypeScript and YAML example of the package schema (the ones docs/reference shows, made by
// scripts/registry-docs.ts), run as written against the emulator with the real CLI, one after
// another, each on an emulator of its own: up, a quiet refresh preview, destroy. Each example
// declares what it needs, so each starts from an empty account; the first that fails fails the
// test, named.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import schemaJson from "../../provider/native/schema.json";
import { withoutTrash } from "./helpers/expect";
import { linkCheckout } from "./helpers/package";
import { openProject } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const resources = (schemaJson as unknown as { resources: Record<string, { description: string }> }).resources;

/** The examples of one language, by the resource they document. */
function examples(language: "typescript" | "yaml"): [string, string][] {
  return Object.entries(resources).flatMap(([token, r]) =>
    [...r.description.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
      (m) => [token.replace("mediahost:index:", ""), m[1] as string] as [string, string],
    ),
  );
}

const PLUGIN = `plugins:\n  providers:\n    - name: mediahost\n      path: ${join(repoRoot, "plugin")}\n`;

describe("every example of the package schema runs as written", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-schema-examples-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("finds one TypeScript and one YAML example per resource", () => {
    expect(examples("typescript").map(([k]) => k)).toEqual(
      Object.keys(resources).map((t) => t.split(":")[2]),
    );
    expect(examples("yaml").map(([k]) => k)).toEqual(Object.keys(resources).map((t) => t.split(":")[2]));
  });

  /** Runs one example program in `at`: up, a quiet refresh preview, destroy, the account empty again. */
  const runs = async (at: string, kind: string) => {
    // an account of its own: the service keeps an alias a destroy wrote out (no API deletes one)
    const p = await openProject(toolchain, { workDir: at });
    // the files: an upload makes the folders missing above it, which stay after its destroy; a
    // deleted file goes to the account's trash (docs/api.md#files-and-folders)
    const files = () =>
      JSON.stringify(
        withoutTrash(p.emulator.control.state().tree).filter(
          (e) => !(e as { isDirectory?: boolean }).isDirectory,
        ),
      );
    const before = files();
    try {
      const up = await p.stack.up().catch((e: Error) => {
        throw new Error(`the ${kind} example fails at up: ${e.message}`);
      });
      expect(up.summary.result, kind).toBe("succeeded");
      await p.stack.preview({ refresh: true, expectNoChanges: true }).catch((e: Error) => {
        throw new Error(`the ${kind} example's refresh preview is not quiet: ${e.message}`);
      });
      await p.stack.destroy();
      expect(files(), kind).toBe(before);
    } finally {
      await p.dispose();
    }
  };

  it("runs each TypeScript example (the native face, as the package installs)", async () => {
    const at = join(dir, "typescript");
    await mkdir(at);
    await linkCheckout(at);
    await writeFile(join(at, "package.json"), JSON.stringify({ name: "example", main: "index.ts" }));
    await writeFile(join(at, "Pulumi.yaml"), `name: example\nruntime: nodejs\n${PLUGIN}`);
    for (const [kind, program] of examples("typescript")) {
      await writeFile(join(at, "index.ts"), program);
      await runs(at, kind);
    }
  });

  it("runs each YAML example", async () => {
    for (const [kind, program] of examples("yaml")) {
      const at = join(dir, `yaml-${kind}`);
      await mkdir(at);
      await writeFile(join(at, "Pulumi.yaml"), `name: example\nruntime: yaml\n${PLUGIN}${program}\n`);
      await runs(at, kind);
    }
  });
});
