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
