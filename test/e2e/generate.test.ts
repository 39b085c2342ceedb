// mediahost-generate against the emulator, then the generated program with the real CLI: it
// adopts everything without error, a refresh preview afterwards shows no changes (and
// mediahost-drift agrees), the account is exactly as before the round trip, and no secret is
// in the code or the state. Plus a tree of 1,000 folders generated in under a minute.
//
// The generated program lives in a temporary directory outside the repository, as a user's
// would. It resolves `pulumi-mediahost` through node_modules/pulumi-mediahost -> this repository
// (as `npm install` of a local path would), and @pulumi/* and @types/* through links to this
// repository's node_modules, so that program, SDK and provider share one @pulumi/pulumi and
// the provider's shim finds the package from the program's directory.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { systemFolderOf } from "mediahost-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { emptyNativeProject } from "./helpers/package";
import { DEMO_CLIENT, plaintextLocations } from "./helpers/project";
import {
  createTemporaryBackend,
  pulumiCommand,
  repoRoot,
  type TemporaryBackend,
  toolchainForTests,
} from "./helpers/toolchain";

const GENERATE_BIN = join(repoRoot, "dist/tools/generate.js");
const DRIFT_BIN = join(repoRoot, "dist/tools/drift.js");
const NODE = join(repoRoot, "node_modules/.bin/node");
const ORIGIN_PASSWORD = "origin-pw-gen-4f2a90";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** The pulumi CLI in `cwd`: its exit code and its whole output. */
function pulumiCli(args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive"],
      { cwd, env, maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

function run(bin: string, args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(NODE, [bin, ...args], { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 });
    });
  });
}

const credentialsEnv = (emulator: RunningEmulator) => ({
  PATH: process.env.PATH ?? "",
  MEDIAHOST_BASE_URL: emulator.url,
  MEDIAHOST_CLIENT_ID: DEMO_CLIENT.clientId,
  MEDIAHOST_CLIENT_SECRET: DEMO_CLIENT.clientSecret,
});

/** Makes `dir` resolve pulumi-mediahost, @pulumi/* and @types/* as an installed program would. */
async function linkDependencies(dir: string) {
  await mkdir(join(dir, "node_modules"), { recursive: true });
  await symlink(repoRoot, join(dir, "node_modules", "pulumi-mediahost"), "dir");
  await symlink(join(repoRoot, "node_modules", "@pulumi"), join(dir, "node_modules", "@pulumi"), "dir");
  await symlink(join(repoRoot, "node_modules", "@types"), join(dir, "node_modules", "@types"), "dir");
}

describe("mediahost-generate: round trip with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  if (!existsSync(GENERATE_BIN)) throw new Error(`${GENERATE_BIN} is missing: run \`npm run build\` first`);

  let emulator: RunningEmulator;
  let backend: TemporaryBackend;
  let outDir: string;
  let api: MediahostClient;
  let before: unknown;
  let generated: Run;

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    backend = await createTemporaryBackend();
    outDir = await mkdtemp(join(tmpdir(), "mediahost-generated-"));
    api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
    // an account set up by hand, before Pulumi
    await api.ops.updateAccount({
      body: {
        minify: { enabled: true },
        fetching: {
          enabled: true,
          type: "http",
          http: {
            url: "https://origin.example.com/media",
            auth: { enabled: true, username: "fetcher", password: ORIGIN_PASSWORD },
          },
        },
        aliases: {
          thumbs: { prefix: "/products", cdn: true, defaultProfile: "thumbnail" },
          "press-kit": { prefix: "/press", cdn: false },
        },
      },
    });
    await api.ops.addCustomDomain({ body: { alias: "demo", domain: "img.example.com" } });
    for (const dir of [
      "/products",
      "/products/shoes",
      "/products/shoes/Running Shoes",
      "/products/bags",
      "/press",
      "/press/2024",
      "/press/2024/q1",
      "/press/2024/q1/drafts", // deeper than --depth 3: left out
    ])
      await api.ops.mkdir({ query: { dirname: dir } });
    await api.ops.setMeta({
      query: { filename: "/products/shoes" },
      body: { title: "Shoes", description: "Every shoe in the catalog" },
    });
    await api.ops.addTags({ query: { filename: "/products/shoes" }, body: { tags: ["catalog", "shoes"] } });
    await api.ops.setMeta({ query: { filename: "/press" }, body: { title: "Press" } });
    await api.ops.setFolderOptions({
      query: { filename: "/products/shoes" },
      body: { scanSpins: true, nameSpinsAfterFolder: true },
    });
    await api.ops.setFolderOptions({ query: { filename: "/" }, body: { allowListing: false } });
    // files: one small enough for --max-file-size, one not
    const put = (filename: string, text: string) =>
      api.ops.upload({ query: { filename }, body: { bytes: new TextEncoder().encode(text) } });
    await put("/products/shoes/size-chart.txt", "EU 40 = US 7");
    await put("/press/kit.txt", "x".repeat(4096));
    // a product image with its meta and two points of interest, and a point on the larger file
    await api.ops.upload({
      query: { filename: "/products/shoes/hero.jpg" },
      body: { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]) },
    });
    await api.ops.setMeta({
      query: { filename: "/products/shoes/hero.jpg" },
      body: { title: "Hero", product: { id: "sku-42", brand: "Acme" }, approval: { approved: true } },
    });
    for (const [name, x] of [
      ["face", 0.1],
      ["logo", 0.6],
    ] as const)
      await api.ops.setPoi({
        query: { filename: "/products/shoes/hero.jpg" },
        body: { name, x, y: 0.2, width: 0.3, height: 0.4 },
      });
    await api.ops.setPoi({
      query: { filename: "/press/kit.txt" },
      body: { name: "all", x: 0, y: 0, width: 1, height: 1 },
    });
    before = emulator.control.state();
  });
  afterAll(async () => {
    await backend?.dispose();
    await emulator?.stop();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it("writes a program declaring the account, with adopt and without secrets, and says what to do next", async () => {
    generated = await run(
      GENERATE_BIN,
      ["--out", outDir, "--depth", "3", "--files", "--max-file-size", "1024"],
      credentialsEnv(emulator),
    );
    console.log(`generate (round-trip account): ${generated.seconds.toFixed(1)} s\n${generated.stdout}`);
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toContain(
      'mediahost-generate: read account "demo": 3 aliases, 7 folders, 4 files (1 larger left out)',
    );
    // the account's system folders are left out, in one line, but for its image profiles
    expect(generated.stderr).toContain(
      "mediahost-generate: Left out the account's system folders (/.Trash, /.processed, /.well-known, /Profiles, /Shared) and what is in them",
    );
    // the file is declared from its copy beside the program; the larger one is named as left out
    expect(await readFile(join(outDir, "files/products/shoes/size-chart.txt"), "utf8")).toBe("EU 40 = US 7");
    const code = await readFile(join(outDir, "index.ts"), "utf8");
    // the shape users see
    expect(code).toContain('import * as mediahost from "pulumi-mediahost";');
    expect(code).toContain('password: config.requireSecret("fetchingHttpPassword")');
    expect(code).toMatch(
      /new mediahost\.Alias\("press-kit", \{ name: "press-kit", prefix: "\/press", cdn: false, adopt: true \}\);/,
    );
    expect(code).toMatch(
      /new mediahost\.CustomDomain\("img-example-com", \{ alias: demoAlias\.name, domain: "img\.example\.com", adopt: true \}\);/,
    );
    expect(code).toContain(
      'new mediahost.Folder("products-shoes", { path: "/products/shoes", adopt: true }, { dependsOn: [products] });',
    );
    expect(code).toContain(
      'new mediahost.FolderOptions("root-options", { path: "/", allowListing: false, adopt: true });',
    );
    expect(code).toContain('tags: ["catalog", "shoes"]');
    expect(code).toContain(
      'new mediahost.Folder("products-shoes-running-shoes", { path: "/products/shoes/Running Shoes", adopt: true }, { dependsOn: [productsShoes] });',
    );
    expect(code).toContain('source: new pulumi.asset.FileAsset("files/products/shoes/size-chart.txt")');
    expect(code).toContain('source: new pulumi.asset.FileAsset("files/Profiles/Default.profile")');
    for (const system of ["/.Trash", "/.processed", "/.well-known", "/Shared", '"/Profiles"'])
      expect(code).not.toContain(system);
    // the image's meta and points follow it; the larger file's point names its path
    expect(code).toMatch(
      /new mediahost\.FolderMeta\("products-shoes-hero-jpg-meta", \{\s+path: productsShoesHeroJpg\.path,/,
    );
    expect(code).toContain('product: { id: "sku-42", brand: "Acme" }');
    expect(code).toContain('new mediahost.PointOfInterest("products-shoes-hero-jpg-logo", {');
    expect(code).toMatch(
      /new mediahost\.PointOfInterest\("press-kit-txt-all", \{\s+path: "\/press\/kit\.txt",/,
    );
    expect(code).toContain("// Not declared: 1 file(s) over 1024 bytes, e.g. /press/kit.txt.");
    expect(code).not.toContain("/press/2024/q1/drafts");
    expect(code).toContain("// Not declared: folders deeper than 3 levels, under 1 folder(s),");
    for (const secret of [ORIGIN_PASSWORD, DEMO_CLIENT.clientSecret]) expect(code).not.toContain(secret);
    expect(generated.stdout).toContain("pulumi config set --secret fetchingHttpPassword <value>");
    expect(generated.stdout).not.toContain(DEMO_CLIENT.clientSecret);
    expect(await readFile(join(outDir, "Pulumi.yaml"), "utf8")).toMatch(
      /^main: index\.ts$[\s\S]*name: nodejs/m,
    );
    const pkg = JSON.parse(await readFile(join(outDir, "package.json"), "utf8"));
    expect(pkg.dependencies).toEqual({
      "@pulumi/pulumi": expect.stringMatching(/^\^3\.\d+\.\d+$/),
      "pulumi-mediahost": expect.stringMatching(/^\^\d/),
    });
  });

  it("adopts everything with pulumi up; a refresh preview then shows no change, and the account is as before", async () => {
    expect(generated?.code).toBe(0);
    await linkDependencies(outDir);
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: `gen-${randomBytes(4).toString("hex")}`, workDir: outDir },
      { pulumiCommand: await pulumiCommand(toolchain), envVars: { ...toolchain.env, ...backend.envVars } },
    );
    await stack.setAllConfig({
      "mediahost:baseUrl": { value: emulator.url },
      "mediahost:clientId": { value: DEMO_CLIENT.clientId },
      "mediahost:clientSecret": { value: DEMO_CLIENT.clientSecret, secret: true },
      fetchingHttpPassword: { value: ORIGIN_PASSWORD, secret: true },
    });
    const started = Date.now();
    const up = await stack.up();
    console.log(`pulumi up of the generated program: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(up.summary.result).toBe("succeeded");
    // settings, 3 aliases, 1 domain, 7 folders, 2 folder options, 3 metas (one of a file), 4 files
    // (2 of them the image profiles), 3 points of interest, and the stack
    expect(up.summary.resourceChanges).toEqual({ create: 25 });

    const refreshed = await stack.preview({ refresh: true, expectNoChanges: true });
    expect(refreshed.changeSummary).toEqual({ same: 25 });
    // nothing written: the adopted files held these bytes, and the profiles keep their type
    expect(emulator.control.state()).toEqual(before);

    const drift = await run(DRIFT_BIN, ["--cwd", outDir, "--stack", stack.name], {
      ...toolchain.env,
      ...backend.envVars,
    });
    expect(drift.code, drift.stderr).toBe(0);
    expect(drift.stdout).toMatch(
      /^No drift: 24 resources match the account\.\nCalls: rest:global \d+ \(\d+\.\d% of the hour's 7,000\)\.\n$/,
    );

    const state = JSON.parse(
      await readFile(
        join(backend.dir, "state", ".pulumi", "stacks", "mediahost-demo", `${stack.name}.json`),
        "utf8",
      ),
    );
    for (const secret of [ORIGIN_PASSWORD, DEMO_CLIENT.clientSecret])
      expect(plaintextLocations(state, secret), secret).toEqual([]);
    expect(JSON.stringify(state)).toContain("fetchingSecrets");

    // a destroy of the generated stack leaves every system folder and its content as it found them
    const systemPart = () =>
      emulator.control.state().tree.filter((e) => systemFolderOf(e.path) !== undefined);
    const found = systemPart();
    expect(found.map((e) => e.path)).toContain("/Profiles/Default.profile");
    expect((await stack.destroy()).summary.result).toBe("succeeded");
    expect(systemPart()).toEqual(found);
    await stack.workspace.removeStack(stack.name);
  });

  it("writes an import file the native face takes in whole: the program it generates previews with no changes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mediahost-generated-import-"));
    try {
      const importFile = join(dir, "import.json");
      const written = await run(
        GENERATE_BIN,
        ["--import-file", importFile, "--depth", "3", "--files", "--max-file-size", "1024"],
        credentialsEnv(emulator),
      );
      expect(written.code, written.stderr).toBe(0);
      const document = JSON.parse(await readFile(importFile, "utf8")) as { resources: { id: string }[] };
      // the image is binary, so left out; its meta and points are not, nor the larger file's point
      expect(written.stderr).toContain("/products/shoes/hero.jpg left out: not UTF-8 text");
      expect(document.resources.map((r) => r.id)).toEqual(
        expect.arrayContaining([
          "/products/shoes/hero.jpg",
          "/products/shoes/hero.jpg#face",
          "/products/shoes/hero.jpg#logo",
          "/press/kit.txt#all",
        ]),
      );
      // settings, 3 aliases, 1 domain, 7 folders, 2 options, 3 metas, 3 text files (2 of them the
      // image profiles), 3 points
      expect(document.resources).toHaveLength(23);
      expect(document.resources.map((r) => r.id).filter((id) => systemFolderOf(id))).toEqual([
        "/Profiles/Default.profile",
        "/Profiles/Thumbnail.profile",
      ]);

      // a fresh native project, as docs/import.md has it
      await emptyNativeProject(dir);
      const env = { ...toolchain.env, ...backend.envVars, PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: `imp-${randomBytes(4).toString("hex")}`, workDir: dir },
        { pulumiCommand: await pulumiCommand(toolchain), envVars: env },
      );
      await stack.setAllConfig({
        "mediahost:baseUrl": { value: emulator.url },
        "mediahost:clientId": { value: DEMO_CLIENT.clientId },
        "mediahost:clientSecret": { value: DEMO_CLIENT.clientSecret, secret: true },
      });
      const imported = await pulumiCli(
        ["import", "--file", importFile, "--yes", "--protect=false", "--out", join(dir, "index.ts")],
        dir,
        { ...env, PULUMI_STACK: stack.name },
      );
      expect(imported.code, imported.out).toBe(0);
      const code = await readFile(join(dir, "index.ts"), "utf8");
      expect(code).toMatch(
        /new mediahost\.PointOfInterest\("products-shoes-hero-jpg-face", \{[\s\S]*x: 0\.1/,
      );
      expect(code).toMatch(
        /new mediahost\.FolderMeta\("products-shoes-hero-jpg-meta", \{[\s\S]*id: "sku-42"/,
      );
      const preview = await stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: 24 });
      // an imported image profile stays the account's: destroying its resource leaves it
      const exported = (await stack.exportStack()).deployment as {
        resources: { urn: string; id?: string }[];
      };
      const profile = exported.resources.find((r) => r.id === "/Profiles/Default.profile");
      expect(profile).toBeDefined();
      const held = emulator.control.state().tree.find((e) => e.path === "/Profiles/Default.profile");
      const targeted = await pulumiCli(["destroy", "--yes", "--target", String(profile?.urn)], dir, {
        ...env,
        PULUMI_STACK: stack.name,
      });
      expect(targeted.code, targeted.out).toBe(0);
      expect(emulator.control.state().tree.find((e) => e.path === "/Profiles/Default.profile")).toEqual(held);
      // the imported program lets go of what it took in
      await pulumiCli(["state", "delete", "--all", "--yes", "--force"], dir, {
        ...env,
        PULUMI_STACK: stack.name,
      });
      await stack.workspace.removeStack(stack.name, { force: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("mediahost-generate: 1,000 folders", () => {
  let emulator: RunningEmulator;
  let outDir: string;
  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    outDir = await mkdtemp(join(tmpdir(), "mediahost-generated-1000-"));
    const api = new MediahostClient({ baseUrl: emulator.url, ...DEMO_CLIENT });
    // /catalog, 9 groups under it and 110 folders in each (more than one readdir page): 1,000
    await api.ops.mkdir({ query: { dirname: "/catalog" } });
    for (let g = 0; g < 9; g++) {
      const group = `/catalog/group-${g}`;
      await api.ops.mkdir({ query: { dirname: group } });
      await Promise.all(
        Array.from({ length: 110 }, (_, i) =>
          api.ops.mkdir({ query: { dirname: `${group}/item-${String(i).padStart(3, "0")}` } }),
        ),
      );
    }
    await api.ops.setMeta({
      query: { filename: "/catalog/group-8/item-109" },
      body: { title: "The last one" },
    });
  });
  afterAll(async () => {
    await emulator?.stop();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it("generates them in under a minute, with progress", async () => {
    const result = await run(GENERATE_BIN, ["--out", outDir, "--depth", "3"], credentialsEnv(emulator));
    console.log(`generate (1,000 folders): ${result.seconds.toFixed(1)} s\n${result.stderr}`);
    expect(result.code, result.stderr).toBe(0);
    expect(result.seconds).toBeLessThan(60);
    expect(result.stderr).toMatch(/read account "demo": 1 aliases, 1000 folders in/);
    // progress while reading, then the total
    const found = [...result.stderr.matchAll(/ (\d+) folders found, (\d+) listed/g)].map((m) => Number(m[1]));
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    const code = await readFile(join(outDir, "index.ts"), "utf8");
    expect(code.match(/new mediahost\.Folder\(/g)).toHaveLength(1000);
    expect(code).toContain(
      'new mediahost.Folder("catalog-group-8-item-109", { path: "/catalog/group-8/item-109", adopt: true }, { dependsOn: [catalogGroup8] });',
    );
    expect(code).toContain('new mediahost.FolderMeta("catalog-group-8-item-109-meta", {');
    expect(result.stdout).toContain("1000 Folder");
  });
});

describe("mediahost-generate: a named account of MEDIAHOST_ACCOUNTS", () => {
  let emulator: RunningEmulator;
  let outDir: string;
  const eu = { alias: "eu-media", clientId: "eu-client", clientSecret: "eu-secret-77e1" };
  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {}, accounts: [eu] });
    outDir = await mkdtemp(join(tmpdir(), "mediahost-generated-eu-"));
    const api = new MediahostClient({
      baseUrl: emulator.url,
      clientId: eu.clientId,
      clientSecret: eu.clientSecret,
    });
    await api.ops.mkdir({ query: { dirname: "/eu-only" } });
  });
  afterAll(async () => {
    await emulator?.stop();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it("reads that account and names it on every resource; a missing name is an error that says so", async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      MEDIAHOST_BASE_URL: emulator.url,
      MEDIAHOST_ACCOUNTS: JSON.stringify({ eu: { clientId: eu.clientId, clientSecret: eu.clientSecret } }),
    };
    const result = await run(GENERATE_BIN, ["--out", outDir, "--account", "eu"], env);
    expect(result.code, result.stderr).toBe(0);
    const code = await readFile(join(outDir, "index.ts"), "utf8");
    expect(code).toContain(
      'new mediahost.Folder("eu-only", { path: "/eu-only", adopt: true, account: "eu" });',
    );
    expect(code).toMatch(/new mediahost\.Alias\("eu-media", \{[^\n]*account: "eu" \}\);/);
    expect(code).not.toContain(eu.clientSecret);
    expect(result.stdout).toContain("pulumi config set --secret --path 'mediahost:accounts.eu.clientSecret'");
    expect(JSON.parse(await readFile(join(outDir, "package.json"), "utf8")).name).toBe("mediahost-eu-media");

    const missing = await run(GENERATE_BIN, ["--out", outDir, "--account", "us", "--force"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'error: account: "us" is not configured under mediahost:accounts (configured: eu)',
    );
    const existing = await run(GENERATE_BIN, ["--out", outDir, "--account", "eu"], env);
    expect(existing.code).toBe(1);
    expect(existing.stderr).toMatch(
      /already has index\.ts, Pulumi\.yaml, package\.json, tsconfig\.json; pass --force/,
    );
  });
});
