// Turns an account snapshot into a `pulumi import --file` document for the native face: every
// object mediahost-generate reads, by the ids the provider records (docs/import.md), named as the
// generated program names them. Pure: no I/O, unit-tested.
import { kinds } from "../../provider/for-tools";
import { fileMetaName, NameAllocator, pointName, slug } from "./names";
import type { AccountSnapshot } from "./read-account";

export interface ImportDocument {
  resources: { type: string; name: string; id: string }[];
}

/** Inline content import takes (provider/resources/file.ts): UTF-8 text of at most 1 MiB. */
function importable(bytes: Uint8Array): boolean {
  if (bytes.byteLength > 1024 * 1024) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The import document of `snapshot`, and what to know about it (objects left out, with why). */
export function importDocumentOf(snapshot: AccountSnapshot): { document: ImportDocument; notes: string[] } {
  const names = Object.fromEntries(Object.keys(kinds).map((k) => [k, new NameAllocator()]));
  const resources: ImportDocument["resources"] = [];
  const add = (kind: keyof typeof kinds, wanted: string, id: string) =>
    resources.push({ type: `mediahost:index:${kind}`, name: names[kind]!.take(wanted), id });
  const notes: string[] = [];

  if (snapshot.minify || snapshot.fetching) add("AccountSettings", "settings", snapshot.accountAlias);
  if (snapshot.fetching?.http?.auth?.enabled || snapshot.fetching?.s3) {
    notes.push(
      "AccountSettings: remote fetching is left unmanaged (its credentials cannot be read back): add it to the program with its secret to manage it",
    );
  }
  for (const a of snapshot.aliases) {
    add("Alias", slug(a.name), a.name);
    if (a.customDomain) add("CustomDomain", slug(a.customDomain), `${a.name}/${a.customDomain}`);
  }
  for (const f of snapshot.folders) {
    const base = slug(f.path);
    if (f.path !== "/") add("Folder", base, f.path);
    if (f.options && Object.keys(f.options).length > 0) add("FolderOptions", `${base}-options`, f.path);
    const meta = f.meta ?? {};
    if (meta.title || meta.description || meta.tags?.length || meta.product || meta.approval)
      add("FolderMeta", `${base}-meta`, f.path);
  }
  // a file's meta and points after it, then those of files not declared, as the program has them
  const fileDetails = new Map(snapshot.fileDetails.map((d) => [d.path, d]));
  const detailsOf = (path: string) => {
    const details = fileDetails.get(path);
    if (!details) return;
    fileDetails.delete(path);
    if (details.meta) add("FolderMeta", fileMetaName(path), path);
    for (const point of details.points)
      add("PointOfInterest", pointName(path, point.name), `${path}#${point.name}`);
  };
  for (const file of snapshot.files) {
    if (importable(file.bytes)) add("File", slug(file.path), file.path);
    else
      notes.push(
        `${file.path} left out: not UTF-8 text of at most 1 MiB (declare it with source and adopt: true)`,
      );
    detailsOf(file.path);
  }
  for (const path of [...fileDetails.keys()]) detailsOf(path);
  for (const large of snapshot.largeFiles)
    notes.push(`${large.path} left out: ${large.size} bytes, more than --max-file-size`);
  return { document: { resources }, notes };
}
