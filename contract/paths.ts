// Paths of the account's file tree as the API writes them: absolute, "/"-separated, no trailing
// slash (docs/api.md#files-and-folders).

/** The parent folder of a path ("/" for a top-level one). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** `name` inside the folder `dir`. */
export function joinPath(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** Whether `path` is `folder` itself or lies somewhere under it. */
export function isAtOrUnder(path: string, folder: string): boolean {
  return folder === "/" || path === folder || path.startsWith(`${folder}/`);
}

/**
 * The folders every real account holds at its root (docs/api.md#files-and-folders, [live]): the
 * account's, not a user's. `/Profiles` holds the account's image profiles (`<name>.profile`).
 */
export const SYSTEM_FOLDERS = {
  "/.Trash": "where deleted files go",
  "/.processed": "the service's processed copies",
  "/.well-known": "the service's well-known files",
  "/Profiles": "the account's image profiles",
  "/Shared": "folders other accounts share with this one",
} as const;

export type SystemFolder = keyof typeof SYSTEM_FOLDERS;

/** The system folder `path` is or lies under, if any. */
export function systemFolderOf(path: string): SystemFolder | undefined {
  return (Object.keys(SYSTEM_FOLDERS) as SystemFolder[]).find((f) => isAtOrUnder(path, f));
}
