// Upgrades keep existing stacks working (docs/upgrading.md). A stack is made with each release,
// built from this repository's history (scripts/release/releases.json); then the
// current build is installed over it, and every command a user runs next must work on that
// state: Pulumi runs the serialized provider the old release stored (a `require()` of a shim
// module of the package) for refresh and delete, and for every resource whose diff is empty.
// The new version's state must stay portable: the program directory is moved between two
// commands and nothing in the state names a path of this machine.
import { mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserProject, npmInstall, packProvider, releases, releaseTarball } from "./helpers/package";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { pulumiCommand, repoRoot, toolchainForTests } from "./helpers/toolchain";

const ORIGIN_PASSWORD = "upgrade-origin-pw-8d2f";

const FILE_LINE =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of the program's JavaScript
  'new mediahost.File("notes", { path: pulumi.interpolate`${gallery.path}/notes.txt`, content: "notes of the upgrade" });';

// Plain JavaScript and one resource of every kind the release has, so the same program runs
// with the old package and the new one (File came with 0.2.0).
const program = (withFile: boolean) => `"use strict";
const pulumi = require("@pulumi/pulumi");
const mediahost = require("pulumi-mediahost");
const config = new pulumi.Config();

new mediahost.AccountSettings("settings", {
  minify: { enabled: true },
  fetching: {
    enabled: true,
    type: "http",
    http: { url: "https://origin.example.com/media", auth: { enabled: true, username: "fetcher", password: config.requireSecret("originPassword") } },
  },
});
const web = new mediahost.Alias("web", { name: "upgrade-web", prefix: "/upgrade", cdn: true });
new mediahost.CustomDomain("web-domain", { alias: web.name, domain: "img.upgrade.example.com" });
new mediahost.SubAccount("sub", { alias: "upgrade-sub" });
const gallery = new mediahost.Folder("gallery", { path: "/upgrade-gallery" });
new mediahost.FolderOptions("gallery-options", { path: gallery.path, allowListing: true });
new mediahost.FolderMeta("gallery-meta", { path: gallery.path, title: config.get("title") || "Gallery", tags: ["a", "b"] });
${withFile ? FILE_LINE : ""}
exports.galleryUrl = gallery.cdnUrl;
`;

describe.each(releases())("upgrading a stack made by release $version to this build", async (previous) => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  const withFile = previous.version !== "0.1.0";
  const count = withFile ? 9 : 8;
  let projectDir: string;
  let packDir: string | undefined;
  let p: Project;
  const view = () => p.emulator.control.state();

  beforeAll(async () => {
    const oldTarball = await releaseTarball(previous, toolchain.env);
    projectDir = await createUserProject({
      name: "upgrade-user",
      program: program(withFile),
      dependencies: { "@pulumi/pulumi": "3.259.0", "pulumi-mediahost": `file:${oldTarball}` },
      env: toolchain.env,
    });
    p = await openProject(toolchain, {
      workDir: projectDir,
      // so that deleting an alias really removes it, and destroy can be checked exactly
      emulator: { aliasesUpdate: "replace" },
      config: { originPassword: { value: ORIGIN_PASSWORD, secret: true } },
    });
  });
  afterAll(async () => {
    await p?.dispose();
    for (const dir of [projectDir, packDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`creates one resource of every kind with release ${previous.version}`, async () => {
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: count });
    const state = view();
    expect(state.tree.map((e) => e.path)).toContain("/upgrade-gallery");
    expect(state.meta["/upgrade-gallery"]).toMatchObject({ title: "Gallery", tags: ["a", "b"] });
    expect(state.subAccounts).toContain("upgrade-sub");
    expect(state.account.aliases["upgrade-web"]).toMatchObject({
      prefix: "/upgrade",
      customDomain: "img.upgrade.example.com",
    });
  });

  it("refreshes the old state with the new build and finds nothing changed", async () => {
    packDir = await mkdtemp(join(dirname(projectDir), "mediahost-pack-"));
    const { dependencies } = await packProvider(packDir, toolchain.env);
    await npmInstall(
      projectDir,
      Object.entries(dependencies).map(([name, spec]) => `${name}@${spec}`),
      toolchain.env,
    );
    const version = async (dir: string) =>
      (JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { version: string }).version;
    expect(await version(join(projectDir, "node_modules/pulumi-mediahost"))).toBe(await version(repoRoot));

    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: count });
    const refresh = await p.stack.refresh({ expectNoChanges: true });
    expect(refresh.summary.result).toBe("succeeded");
  });

  it("updates one property of the old state with the new build", async () => {
    await p.stack.setConfig("title", { value: "Gallery, upgraded" });
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1, same: count - 1 });
    expect(view().meta["/upgrade-gallery"]?.title).toBe("Gallery, upgraded");
  });

  it("writes a state that names the package, not this machine's paths, and survives a moved program", async () => {
    const text = JSON.stringify(await p.stateFile());
    // the updated resource carries this build's shim; the others still the one the release
    // stored (0.1.0 had one shim per kind, later releases the one any-kind shim)
    expect(text).toContain('require(\\"pulumi-mediahost/dist/sdk/providers/any-kind.js\\")');
    if (previous.version === "0.1.0")
      expect(text).toContain('require(\\"pulumi-mediahost/dist/sdk/providers/folder.js\\")');
    expect(text).not.toContain(projectDir);
    expect(text).not.toContain(repoRoot);
    expect(plaintextLocations(await p.stateFile(), ORIGIN_PASSWORD)).toEqual([]);

    const moved = `${projectDir}-moved`;
    await rename(projectDir, moved);
    projectDir = moved;
    const stack = await LocalWorkspace.selectStack(
      { stackName: p.stack.name, workDir: moved },
      {
        pulumiCommand: await pulumiCommand(toolchain),
        envVars: { ...toolchain.env, ...p.backend.envVars },
      },
    );
    const preview = await stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: count });
    const destroyed = await stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");

    const state = view();
    expect(state.tree.map((e) => e.path)).not.toContain("/upgrade-gallery");
    expect(state.meta["/upgrade-gallery"]).toBeUndefined();
    expect(state.subAccounts).not.toContain("upgrade-sub");
    expect(state.account.aliases["upgrade-web"]).toBeUndefined();
  });
});
