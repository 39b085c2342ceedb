// The folders every real account holds beside the user's own ([live], docs/api.md#files-and-folders):
// `/.Trash` (where deleted files go), `/.processed` (the service's processed copies), `/.well-known`,
// `/Profiles` (the account's image profiles, `<name>.profile` JSON files) and `/Shared` (folders
// other accounts share with this one). A new account, and every account after a reset, holds them
// with a little content, the same each time: a trashed image and the trashed copy of its
// thumbnail, one processed thumbnail and two profiles. Their bytes are built in (a few hundred
// bytes together): the blob stores serve them without storing them (emulator/blobs.ts).
import { createHash } from "node:crypto";
import { joinPath, SYSTEM_FOLDERS as SYSTEM_FOLDER_ROLES } from "mediahost-contract";
import { mediaInfo } from "./media";
import type { FileContent, Tree } from "./tree";

/** The system folders' names, at the root, in the order a listing shows them (the contract's list). */
export const SYSTEM_FOLDERS = Object.keys(SYSTEM_FOLDER_ROLES).map((path) => path.slice(1));

/** Where a deleted file goes: this folder + its path (docs/api.md#files-and-folders). */
export const TRASH = "/.Trash";

/** True for the path of a system folder itself (`/.Trash`, not what is in it). */
export function isSystemFolder(path: string): boolean {
  return path.lastIndexOf("/") === 0 && SYSTEM_FOLDERS.includes(path.slice(1));
}

/** A 1x1 progressive JPEG; its one 8x8 block decodes as any size up to 8x8. */
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////" +
    "////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);

/** The JPEG above, said to be `width` x `height` (at most 8 each). */
function jpeg(width: number, height: number): Buffer {
  const out = Buffer.from(JPEG);
  const sof = out.indexOf(Buffer.from([0xff, 0xc2]));
  out.writeUInt16BE(height, sof + 5);
  out.writeUInt16BE(width, sof + 7);
  return out;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** The files of a new account's system folders: path, bytes, content type. */
const SEED_FILES: { path: string; bytes: Buffer; contentType: string }[] = [
  { path: "/.Trash/old-banner.jpg", bytes: jpeg(8, 4), contentType: "image/jpeg" },
  {
    path: "/.Trash/.processed/D3/jF/old-banner_thumbnail.jpg",
    bytes: jpeg(2, 1),
    contentType: "image/jpeg",
  },
  { path: "/.processed/Kq/7w/welcome_thumbnail.jpg", bytes: jpeg(4, 4), contentType: "image/jpeg" },
  {
    path: "/Profiles/Default.profile",
    bytes: json({ image: { quality: 85, format: "optimal" }, scale: { width: 2000, option: "noup" } }),
    contentType: "application/json",
  },
  {
    path: "/Profiles/Thumbnail.profile",
    bytes: json({
      image: { quality: 75 },
      scale: { width: 200, height: 200, option: "fill" },
      crop: "center",
    }),
    contentType: "application/json",
  },
];

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** The built-in contents by hash: every blob store serves them, none stores them. */
export const BUILTIN_BLOBS: ReadonlyMap<string, Buffer> = new Map(
  SEED_FILES.map((f) => [sha256(f.bytes), f.bytes]),
);

/** Lays the system folders and their files into an empty tree, all dated `time`. */
export function seedSystemFolders(tree: Tree, time: number): void {
  for (const name of SYSTEM_FOLDERS) tree.mkdir(joinPath("/", name), time);
  for (const f of SEED_FILES) {
    const content: FileContent = {
      blob: sha256(f.bytes),
      size: f.bytes.length,
      contentType: f.contentType,
      media: mediaInfo(f.bytes, f.contentType),
    };
    tree.writeFile(f.path, content, time);
  }
}
