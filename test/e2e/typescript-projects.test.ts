// Both faces in the TypeScript projects users have, installed from the package's tarball: the
// tsconfig `pulumi new typescript` writes today (pulumi/templates typescript/tsconfig.json,
// `nodenext`), the one it wrote until March 2026 (`commonjs` with `moduleResolution: node`, which
// reads no `exports`), `node16` and `bundler`, each type-checked by the CLI's run of the program
// (ts-node) and by the project's `tsc`; and a project with no tsconfig and no TypeScript of its
// own, which the CLI compiles with its bundled TypeScript 3.8 (package.json `typesVersions` gives
// it declarations made from the schema, dist/sdk/legacy). A program with a wrong argument fails
// to compile in each kind of project, so the types are really read.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmInstall, packProvider } from "./helpers/package";
import { openProject, type Project } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-mediahost";
import * as mediahost from "pulumi-mediahost/native";

// as \`pulumi import\` writes a resource of the native face
const typed = new mediahost.Folder("typed", { path: "/typed" });
const meta = new mediahost.FolderMeta("typed-meta", { path: typed.path, title: "Typed" });
const other = new dynamic.Folder("typed-dynamic", { path: "/typed-dynamic" });
export const title: pulumi.Output<string | undefined> = meta.title;
export const paths = pulumi.all([typed.path, other.path]);
`;
// a number where a path goes, and a misspelt argument
const WRONG = `import * as dynamic from "pulumi-mediahost";
import * as mediahost from "pulumi-mediahost/native";

new mediahost.Folder("typed", { path: 3 });
new dynamic.Folder("typed-dynamic", { paht: "/typed-dynamic" });
`;

const TEMPLATE_OPTIONS = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};
const TSCONFIGS: Record<string, object> = {
  // pulumi/templates typescript/tsconfig.json since 81e65225 (March 2026)
  "template (nodenext)": { module: "nodenext", moduleResolution: "nodenext" },
  // the same file before it: what existing projects have
  "template before March 2026 (commonjs, node)": { module: "commonjs", moduleResolution: "node" },
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
};

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("both faces compile and run in the TypeScript projects users have", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let dir: string;
  let dependencies: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-ts-projects-"));
    ({ dependencies } = await packProvider(dir, toolchain.env));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A project as `pulumi new typescript` makes it, with or without TypeScript of its own. */
  const project = async (name: string, devDependencies: Record<string, string>): Promise<string> => {
    const at = join(dir, name);
    await mkdir(at);
    await writeFile(
      join(at, "package.json"),
      JSON.stringify({ name, main: "index.ts", devDependencies, dependencies }, null, 2),
    );
    // the plugin that comes with the package, named offline as the README says
    await writeFile(
      join(at, "Pulumi.yaml"),
      `name: ${name}\nruntime: nodejs\nplugins:\n  providers:\n    - name: mediahost\n      path: ./node_modules/pulumi-mediahost/plugin\n`,
    );
    await writeFile(join(at, "index.ts"), PROGRAM);
    await npmInstall(at, [], toolchain.env);
    return at;
  };

  async function upAndDestroy(p: Project): Promise<void> {
    const up = await p.stack.up();
    expect(up.outputs.title?.value).toBe("Typed");
    expect(up.outputs.paths?.value).toEqual(["/typed", "/typed-dynamic"]);
    expect(p.emulator.control.state().meta["/typed"]?.title).toBe("Typed");
    await p.stack.destroy();
    expect(p.emulator.control.state().tree.map((e) => e.path)).not.toContain("/typed");
  }

  /** The program with a wrong argument fails to compile, naming both mistakes; then it is put back. */
  async function wrongFails(p: Project, at: string): Promise<void> {
    await writeFile(join(at, "index.ts"), WRONG);
    try {
      const failed = await p.stack.preview().then(
        () => "",
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/index\.ts\(4,\d+\): error TS2322/);
      expect(failed).toMatch(/'paht' does not exist/);
      expect(failed).not.toMatch(/TS2307/);
    } finally {
      await writeFile(join(at, "index.ts"), PROGRAM);
    }
  }

  it("a project of the template (TypeScript 5): every tsconfig type-checks with tsc and the CLI, and runs", async () => {
    const at = await project("template", { "@types/node": "^18", typescript: "^5.0.0" });
    const p = await openProject(toolchain, { workDir: at });
    try {
      for (const [name, options] of Object.entries(TSCONFIGS)) {
        await writeFile(
          join(at, "tsconfig.json"),
          JSON.stringify(
            { compilerOptions: { ...TEMPLATE_OPTIONS, ...options }, files: ["index.ts"] },
            null,
            2,
          ),
        );
        // the project's own compiler; the old resolution reads zod's declarations too, whose
        // locale files want esModuleInterop (the CLI's ts-node checks only the program)
        const tsc = await run(
          "npx",
          ["--no-install", "tsc", "--noEmit", "-p", "tsconfig.json", "--pretty", "false", "--skipLibCheck"],
          at,
          toolchain.env,
        );
        expect(tsc.out, name).toBe("");
        expect(tsc.code, name).toBe(0);
        await upAndDestroy(p);
      }
      await wrongFails(p, at);
    } finally {
      await p.dispose();
    }
  });

  it("a project with no tsconfig and no TypeScript of its own: the CLI's bundled TypeScript 3.8", async () => {
    const at = await project("no-tsconfig", {});
    const p = await openProject(toolchain, { workDir: at });
    try {
      await upAndDestroy(p);
      await wrongFails(p, at);
    } finally {
      await p.dispose();
    }
  });
});
