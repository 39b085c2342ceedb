// mediahost-recover's repair of a local file backend a killed run left unreadable
// (tools/lib/file-backend.ts): an emptied `.attrs` side file of the stack's checkpoint goes.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileBackendDir, repairEmptyAttrs } from "../../tools/lib/file-backend";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a file backend a killed run left unreadable", () => {
  it("knows a file backend's directory, and no other backend's", () => {
    expect(fileBackendDir("file:///var/state")).toBe("/var/state");
    expect(fileBackendDir("file://~")).toBe(homedir());
    expect(fileBackendDir("file://~/state")).toBe(join(homedir(), "state"));
    expect(fileBackendDir("s3://bucket/state")).toBeUndefined();
    expect(fileBackendDir(undefined)).toBeUndefined();
  });

  it("removes the stack's empty .attrs files only", async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-backend-"));
    const stacks = join(dir, ".pulumi", "stacks", "proj");
    await mkdir(stacks, { recursive: true });
    await writeFile(join(stacks, "ci.json"), "{}");
    await writeFile(join(stacks, "ci.json.attrs"), "");
    await writeFile(join(stacks, "ci.json.bak.attrs"), '{"user.metadata":{}}');
    await writeFile(join(stacks, "other.json.attrs"), "");
    const removed = await repairEmptyAttrs(dir, "organization/proj/ci");
    expect(removed).toEqual([join(stacks, "ci.json.attrs")]);
    expect((await readdir(stacks)).sort()).toEqual(["ci.json", "ci.json.bak.attrs", "other.json.attrs"]);
    expect(await repairEmptyAttrs(join(dir, "nothing-here"), "ci")).toEqual([]);
  });
});
