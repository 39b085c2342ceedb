// The native classes' static `get` and `isInstance` with the real CLI and the plugin: a folder made
// out of band, read into a program by its path, gives its outputs; the run writes nothing to the
// account, and `destroy` leaves the folder where it was.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkCheckout } from "./helpers/package";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const PROGRAM = `const mediahost = require("pulumi-mediahost/native");
const existing = mediahost.Folder.get("existing", "/made-elsewhere");
exports.path = existing.path;
exports.cdnUrl = existing.cdnUrl;
exports.accountAlias = existing.accountAlias;
exports.isFolder = mediahost.Folder.isInstance(existing);
exports.isFolderMeta = mediahost.FolderMeta.isInstance(existing);
exports.isFolderOfPlainObject = mediahost.Folder.isInstance({ path: "/made-elsewhere" });
`;

/** Operations that change the account (everything but reads and the token). */
const writes = (calls: Record<string, number>) =>
  Object.keys(calls).filter((op) => op !== "token" && !/^(get|list|stat|readdir|download)/i.test(op));

describe("Folder.get reads an object it does not manage", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let dir: string;
  let p: Project;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-native-get-"));
    await linkCheckout(dir);
    await writeFile(
      join(dir, "Pulumi.yaml"),
      `name: native-get\nruntime: nodejs\nmain: index.js\nplugins:\n  providers:\n    - name: mediahost\n      path: ${join(repoRoot, "plugin")}\n`,
    );
    await writeFile(join(dir, "index.js"), PROGRAM);
    p = await openProject(toolchain, { workDir: dir });
  });
  afterAll(async () => {
    await p?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("gives the outputs of a folder made out of band, and writes nothing", async () => {
    await p.api.ops.mkdir({ query: { dirname: "/made-elsewhere" } });
    p.mark();
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const alias = p.emulator.control.state().account.alias;
    expect(up.outputs.path?.value).toBe("/made-elsewhere");
    expect(up.outputs.accountAlias?.value).toBe(alias);
    expect(up.outputs.cdnUrl?.value).toMatch(/^https:\/\/.+\/made-elsewhere$/);
    expect(up.outputs.isFolder?.value).toBe(true);
    expect(up.outputs.isFolderMeta?.value).toBe(false);
    expect(up.outputs.isFolderOfPlainObject?.value).toBe(false);
    // the stack only: a read is no change
    expect(up.summary.resourceChanges).toEqual({ create: 1 });
    expect(writes(p.calls())).toEqual([]);
    const saved = (await p.stateFile()) as {
      checkpoint: { latest: { resources?: { type: string; external?: boolean }[] } };
    };
    const folder = saved.checkpoint.latest.resources?.find((r) => r.type === "mediahost:index:Folder");
    expect(folder?.external).toBe(true);
  });

  it("leaves the folder on destroy", async () => {
    p.mark();
    await p.stack.destroy();
    expect(writes(p.calls())).toEqual([]);
    expect(p.emulator.control.state().tree.map((e) => e.path)).toContain("/made-elsewhere");
  });
});
