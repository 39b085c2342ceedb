// Assertions several e2e tests make the same way.
import { isAtOrUnder, systemFolderOf } from "mediahost-contract";
import { expect } from "vitest";

/**
 * A refresh refused with the recorded credentials: every error line about them names the account
 * (`account`, a pattern) and the way past it; there is at least one such line.
 */
export function expectRefusedCredentialLines(output: string, account: string): void {
  const lines = output.split("\n").filter((l) => /error: .*refused its credentials/.test(l));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line).toMatch(
      new RegExp(
        `account "${account}": the service refused its credentials \\(Invalid client credentials\\)`,
      ),
    );
    expect(line).toMatch(/run `pulumi up` without `--refresh` \(or `pulumi refresh --run-program`\) once/);
  }
}

/** A preview's or an update's changes: nothing created, deleted or replaced. */
export function expectNothingMadeOrReplaced(changes: Record<string, number> | undefined): void {
  for (const op of ["replace", "create", "delete"]) expect(changes?.[op] ?? 0, op).toBe(0);
}

/** A folder's move as the API saw it: one rename, and nothing else written. */
export function expectOnlyRename(calls: Record<string, number>): void {
  expect(calls.rename).toBe(1);
  for (const op of [
    "deleteFile",
    "upload",
    "mkdir",
    "setMeta",
    "addTags",
    "setFolderOptions",
    "startBatchDelete",
  ])
    expect(calls[op] ?? 0, op).toBe(0);
}

/**
 * The quickstart's preview of `productsFolder` set to /catalog: the folder and the five resources
 * that follow it are updated in place, nothing is replaced, and the preview names the move.
 */
export function expectProductsMovePreview(preview: {
  changeSummary: Record<string, number | undefined>;
  stdout: string;
  stderr: string;
}): void {
  expect(preview.changeSummary).toMatchObject({ update: 6 });
  expect(preview.changeSummary.replace).toBeUndefined();
  expect(`${preview.stdout}\n${preview.stderr}`).toMatch(
    /Folder \/products: moves to \/catalog with everything in it/,
  );
}

/**
 * An account's tree without its system folders (docs/api.md#files-and-folders): what programs put
 * there. A real account always holds them, and the emulator's default account plays one.
 */
export function stackTree<T extends { path: string }>(tree: T[]): T[] {
  return tree.filter((e) => systemFolderOf(e.path) === undefined);
}

/**
 * An account's tree without what is in its trash: a deleted file moves there, so a destroy changes
 * the trash, and nothing else of the system folders (the image profiles in /Profiles included).
 */
export function withoutTrash<T extends { path: string }>(tree: T[]): T[] {
  return tree.filter((e) => !isAtOrUnder(e.path, "/.Trash") || e.path === "/.Trash");
}
