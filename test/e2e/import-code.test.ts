// The code `pulumi import` writes, for every kind an import can read: an account holding one
// object of each (AccountSettings, Alias, CustomDomain, Folder, FolderOptions, FolderMeta, a File
// of UTF-8 text, a PointOfInterest on an image) is imported with `pulumi import --file` into a
// fresh TypeScript project of the native face. The written program type-checks (`tsc --noEmit`
// with the project's tsconfig, against the types of `pulumi-mediahost/native`) and previews with
// no changes. A SubAccount cannot be imported (the API cannot read one): its import is refused in
// one line. Where Pulumi's Go language host is there, the same document is imported into a Go
// project: the written main.go builds against the Go SDK generated from the package schema and
// previews with no changes.
import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { emptyNativeProject } from "./helpers/package";
import { DEMO_CLIENT } from "./helpers/project";
import {
  createTemporaryBackend,
  pulumiCommand,
  repoRoot,
  type TemporaryBackend,
  type Toolchain,
  toolchainForTests,
} from "./helpers/toolchain";

/** UTF-8 text beyond ASCII: its bytes, not its characters, are what the service holds and hashes. */
const README = "Grüße aus Köln — 日本語 ✓\nsecond line\n";
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);

/** Runs a command: its exit code and its whole output. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

function findGo(): string | undefined {
  if (process.env.GO && existsSync(process.env.GO)) return process.env.GO;
  for (const dir of (process.env.PATH ?? "").split(delimiter))
    if (existsSync(join(dir, "go"))) return join(dir, "go");
  return existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined;
}

/** Whether the toolchain's pulumi-language-go is Pulumi's (ours, the Node.js host's binary, only generates SDKs). */
function pulumisGoHost(toolchain: Toolchain): boolean {
  const dir = toolchain.binDirs.find((d) => existsSync(join(d, "pulumi-language-go")));
  if (dir === undefined) return false;
  const nodejs = join(dir, "pulumi-language-nodejs");
  return !(existsSync(nodejs) && statSync(join(dir, "pulumi-language-go")).ino === statSync(nodejs).ino);
}

describe("the code `pulumi import` writes for every kind", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let emulator: RunningEmulator;
  let backend: TemporaryBackend;
  let work: string;
  let importFile: string;
  let env: Record<string, string>;
  let before: unknown;

  /** A stack of the project in `dir`, configured for the emulator's account. */
  async function stackIn(dir: string, name: string, envVars = env): Promise<Stack> {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: name, workDir: dir },
      { pulumiCommand: await pulumiCommand(toolchain!), envVars },
    );
    await stack.setAllConfig({
      "mediahost:baseUrl": { value: emulator.url },
      "mediahost:clientId": { value: DEMO_CLIENT.clientId },
      "mediahost:clientSecret": { value: DEMO_CLIENT.clientSecret, secret: true },
    });
    return stack;
  }

  /** `pulumi import --file` of the document into the stack: the code it writes to `out`. */
  async function importInto(stack: Stack, out: string, envVars = env) {
    const imported = await run(
      "pulumi",
      ["import", "--file", importFile, "--yes", "--non-interactive", "--protect=false", "--out", out],
      stack.workspace.workDir,
      { ...envVars, PULUMI_STACK: stack.name },
    );
    expect(imported.code, imported.out).toBe(0);
    // an import reads, it writes nothing
    expect(emulator.control.state()).toEqual(before);
    return readFile(out, "utf8");
  }

  /** The stack lets go of what it took in (the objects stay in the account), then goes. */
  async function release(stack: Stack, envVars = env) {
    const args = ["state", "delete", "--all", "--yes", "--force", "--non-interactive"];
    await run("pulumi", args, stack.workspace.workDir, { ...envVars, PULUMI_STACK: stack.name });
    await stack.workspace.removeStack(stack.name, { force: true });
  }

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    backend = await createTemporaryBackend();
    work = await mkdtemp(join(tmpdir(), "mediahost-import-code-"));
    env = { ...toolchain.env, ...backend.envVars, PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
    const api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
    // one object of each kind, set up by hand before Pulumi
    await api.ops.updateAccount({
      body: {
        minify: { enabled: true },
        aliases: { web: { prefix: "/legacy", cdn: false, defaultProfile: "thumbnail" } },
      },
    });
    await api.ops.addCustomDomain({ body: { alias: "web", domain: "img.example.com" } });
    await api.ops.mkdir({ query: { dirname: "/legacy" } });
    await api.ops.setFolderOptions({
      query: { filename: "/legacy" },
      body: { allowListing: true, scanSpins: false },
    });
    await api.ops.setMeta({
      query: { filename: "/legacy" },
      body: { title: "Legacy", description: "Before Pulumi" },
    });
    await api.ops.addTags({ query: { filename: "/legacy" }, body: { tags: ["old", "kept"] } });
    await api.ops.upload({
      query: { filename: "/legacy/readme.txt" },
      body: { bytes: new TextEncoder().encode(README) },
    });
    await api.ops.upload({ query: { filename: "/legacy/hero.jpg" }, body: { bytes: JPEG } });
    await api.ops.setMeta({
      query: { filename: "/legacy/hero.jpg" },
      body: { title: "Hero", product: { id: "sku-42", brand: "Acme" }, approval: { approved: true } },
    });
    await api.ops.setPoi({
      query: { filename: "/legacy/hero.jpg" },
      body: { name: "face", x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
    });
    const { alias } = await api.ops.getAccount();
    importFile = join(work, "import.json");
    await writeFile(
      importFile,
      JSON.stringify({
        resources: [
          // the account singleton, by the account's alias
          { type: "mediahost:index:AccountSettings", name: "settings", id: alias },
          { type: "mediahost:index:Alias", name: "web", id: "web" },
          { type: "mediahost:index:CustomDomain", name: "web-domain", id: "web/img.example.com" },
          { type: "mediahost:index:Folder", name: "legacy", id: "/legacy" },
          { type: "mediahost:index:FolderOptions", name: "legacy-options", id: "/legacy" },
          { type: "mediahost:index:FolderMeta", name: "legacy-meta", id: "/legacy" },
          { type: "mediahost:index:FolderMeta", name: "hero-meta", id: "/legacy/hero.jpg" },
          { type: "mediahost:index:File", name: "readme", id: "/legacy/readme.txt" },
          { type: "mediahost:index:PointOfInterest", name: "hero-face", id: "/legacy/hero.jpg#face" },
        ],
      }),
    );
    before = emulator.control.state();
  });
  afterAll(async () => {
    await backend?.dispose();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("TypeScript: the written program type-checks against pulumi-mediahost/native and previews with no changes", async () => {
    const dir = join(work, "ts");
    await mkdir(dir);
    // a fresh project, as docs/import.md has it: the package as npm installs it, its own tsconfig
    await emptyNativeProject(dir);
    const stack = await stackIn(dir, "imported-ts");
    const code = await importInto(stack, join(dir, "index.ts"));
    expect(code).toContain('from "pulumi-mediahost/native"');
    for (const kind of [
      "AccountSettings",
      "Alias",
      "CustomDomain",
      "Folder",
      "FolderOptions",
      "File",
      "PointOfInterest",
    ])
      expect(code).toContain(`new mediahost.${kind}(`);
    expect(code.match(/new mediahost\.FolderMeta\(/g)).toHaveLength(2);
    // the file as its text, without the hash the SDK computes from it
    expect(code).toMatch(
      /new mediahost\.File\("readme", \{\s+content: `Grüße aus Köln — 日本語 ✓\nsecond line\n`,/,
    );
    expect(code).not.toContain("contentSha256");

    const checked = await run(join(repoRoot, "node_modules/.bin/tsc"), ["-p", ".", "--noEmit"], dir, env);
    expect(checked.code, `tsc --noEmit of the imported program:\n${checked.out}\n${code}`).toBe(0);

    const preview = await stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 10 });
    await release(stack);
  });

  it("SubAccount: the import is refused in one line, saying why", async () => {
    const dir = join(work, "sub");
    await mkdir(dir);
    await emptyNativeProject(dir);
    const stack = await stackIn(dir, "imported-sub");
    const refused = await run(
      "pulumi",
      [
        "import",
        "mediahost:index:SubAccount",
        "team",
        "team",
        "--yes",
        "--non-interactive",
        "--generate-code=false",
      ],
      dir,
      { ...env, PULUMI_STACK: stack.name },
    );
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(
      /SubAccount team cannot be imported: the API has no operation that lists or reads sub-accounts/,
    );
    await stack.workspace.removeStack(stack.name, { force: true });
  });

  const go = findGo();
  const goHost = pulumisGoHost(toolchain);
  if (!go && process.env.CI === "true")
    throw new Error("Go not found (needed under CI=true): set GO=/path/to/go");
  // the module proxy may refuse Pulumi's Go host (provisioning printed the error): no Go code then
  if (go && !goHost)
    console.warn("e2e: no Go code from `pulumi import`: the toolchain has no pulumi-language-go of Pulumi's");
  it.skipIf(!go || !goHost)(
    "Go: the written main.go builds against the generated Go SDK and previews with no changes",
    async () => {
      const goEnv = {
        ...env,
        PATH: [dirname(go as string), env.PATH].join(delimiter),
        GOTOOLCHAIN: "local",
        GOFLAGS: "-mod=mod",
      };
      const dir = join(work, "go");
      await mkdir(dir);
      // the module of examples/go (its requirements and their sums), the SDK generated beside it
      await copyFile(join(repoRoot, "examples/go/go.mod"), join(dir, "go.mod"));
      await copyFile(join(repoRoot, "examples/go/go.sum"), join(dir, "go.sum"));
      await writeFile(
        join(dir, "Pulumi.yaml"),
        `name: imported-go\nruntime: go\nplugins:\n  providers:\n    - name: mediahost\n      path: ${join(repoRoot, "plugin")}\n`,
      );
      const gen = await run(
        "pulumi",
        [
          "package",
          "gen-sdk",
          join(repoRoot, "provider/native/schema.json"),
          "--language",
          "go",
          "--out",
          "sdk",
        ],
        dir,
        goEnv,
      );
      expect(gen.code, gen.out).toBe(0);
      const stack = await stackIn(dir, "imported-go", goEnv);
      const code = await importInto(stack, join(dir, "main.go"), goEnv);
      expect(code).toContain("mediahost.NewFile(");
      expect(code).not.toContain("ContentSha256");
      const built = await run(go as string, ["build", "-o", "/dev/null", "."], dir, goEnv);
      expect(built.code, `go build of the imported program:\n${built.out}\n${code}`).toBe(0);
      const preview = await stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: 10 });
      await release(stack, goEnv);
    },
  );
});
