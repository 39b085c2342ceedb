// One account's file tree: folders and files with their meta, folder options and points of
// interest. Operations check every precondition before changing anything, so a thrown FsError
// means nothing was applied (the journal relies on that).
import { baseName, isAtOrUnder, joinPath, parentOf } from "mediahost-contract";
import { FsError } from "./errors";
import { TRASH } from "./system";

/**
 * A file's media facts as stat and readdir report them: `{width, height, duration}` for images,
 * videos and models (duration 0 for stills; null where unknown, as the live service answers), `{}`
 * for any other file (docs/api.md#files-and-folders).
 */
export interface MediaInfo {
  width?: number | null;
  height?: number | null;
  duration?: number | null;
}

export interface Approval {
  approved: boolean;
  comment?: string;
  datetime: string;
}

export interface Product {
  id?: string;
  name?: string;
  brand?: string;
  category1?: string;
  category2?: string;
}

/** A rectangle on an image, in fractions of its size; a file's points are keyed by name. */
export interface PointOfInterest {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Meta {
  title?: string;
  description?: string;
  tags?: string[];
  product?: Product;
  approval?: Approval;
}

export interface FolderOptions {
  scanSpins?: boolean;
  nameSpinsAfterFolder?: boolean;
  allowListing?: boolean;
}

interface NodeBase {
  ctime: number;
  mtime: number;
  meta: Meta;
}

export interface FileNode extends NodeBase {
  kind: "file";
  size: number;
  contentType: string;
  /** Content hash: the key of the file's bytes in the blob store. */
  blob: string;
  media: MediaInfo;
  poi: Record<string, PointOfInterest>;
}

export interface DirNode extends NodeBase {
  kind: "dir";
  children: Map<string, TreeNode>;
  options: FolderOptions;
  /** Set when the folder is JWT-protected: the key its signed URLs are verified with. */
  jwtKey?: string;
}

export type TreeNode = FileNode | DirNode;

/** What a new file is made of; the bytes are already in the blob store under `blob`. */
export interface FileContent {
  blob: string;
  size: number;
  contentType: string;
  media: MediaInfo;
}

/** Blob reference counting, so that bytes no file refers to any more can be dropped. */
export interface BlobRefs {
  retain(hash: string): void;
  release(hash: string): void;
}

/** The longest path the API takes (docs/api.md#bounds). */
const MAX_PATH = 1024;

export function splitPath(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

export function newDir(time: number): DirNode {
  return { kind: "dir", ctime: time, mtime: time, meta: {}, children: new Map(), options: {} };
}

export class Tree {
  readonly root: DirNode;
  /** Bytes and files stored, kept current so storage reads cost nothing. */
  bytes = 0;
  files = 0;

  constructor(
    private readonly refs: BlobRefs,
    root?: DirNode,
  ) {
    this.root = root ?? newDir(0);
    if (root) for (const [, node] of this.walk()) if (node.kind === "file") this.count(node, 1);
  }

  get(path: string): TreeNode | undefined {
    let node: TreeNode = this.root;
    for (const name of splitPath(path)) {
      if (node.kind !== "dir") return undefined;
      const next: TreeNode | undefined = node.children.get(name);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /** The node at `path`; a file met on the way answers "Not a directory". */
  require(path: string): TreeNode {
    let node: TreeNode = this.root;
    let at = "";
    for (const name of splitPath(path)) {
      if (node.kind !== "dir") throw new FsError("notDirectory", at);
      at = `${at}/${name}`;
      const next: TreeNode | undefined = node.children.get(name);
      if (!next) throw new FsError("missing", path);
      node = next;
    }
    return node;
  }

  requireDir(path: string): DirNode {
    const node = this.require(path);
    if (node.kind !== "dir") throw new FsError("notDirectory", path);
    return node;
  }

  requireFile(path: string): FileNode {
    const node = this.require(path);
    if (node.kind !== "file") throw new FsError("isDirectory", path);
    return node;
  }

  /** The parent folder of a path that is about to be created; it must exist already. */
  private parentFor(path: string): DirNode {
    if (path === "/") throw new FsError("exists", path);
    const parent = parentOf(path);
    const node = this.get(parent);
    if (!node) throw new FsError("missing", parent);
    if (node.kind !== "dir") throw new FsError("notDirectory", parent);
    return node;
  }

  mkdir(path: string, time: number): void {
    const parent = this.parentFor(path);
    if (parent.children.has(baseName(path))) throw new FsError("exists", path);
    parent.children.set(baseName(path), newDir(time));
  }

  /** Creates or replaces a file; missing folders on the way are created (fetch, uploads). */
  writeFile(path: string, content: FileContent, time: number): void {
    if (path === "/") throw new FsError("isDirectory", path);
    const names = splitPath(path);
    let dir = this.root;
    let at = "";
    for (const name of names.slice(0, -1)) {
      at = `${at}/${name}`;
      const next = dir.children.get(name);
      if (next && next.kind !== "dir") throw new FsError("notDirectory", at);
      dir = next ?? dir;
      if (!next) break;
    }
    const existing = this.get(path);
    if (existing?.kind === "dir") throw new FsError("isDirectory", path);
    // every check passed: from here on nothing throws
    dir = this.root;
    for (const name of names.slice(0, -1)) {
      let next = dir.children.get(name) as DirNode | undefined;
      if (!next) {
        next = newDir(time);
        dir.children.set(name, next);
      }
      dir = next;
    }
    const name = names[names.length - 1] as string;
    const file: FileNode = {
      kind: "file",
      ctime: existing ? existing.ctime : time,
      mtime: time,
      meta: existing?.meta ?? {},
      poi: existing?.kind === "file" ? existing.poi : {},
      ...content,
    };
    if (existing) this.drop(existing);
    dir.children.set(name, file);
    this.adopt(file);
  }

  /** Deletes a file or an empty folder. */
  remove(path: string): void {
    if (path === "/") throw new FsError("permission", path);
    const node = this.require(path);
    if (node.kind === "dir" && node.children.size > 0) throw new FsError("notEmpty", path);
    this.detach(path);
    this.drop(node);
  }

  /** Deletes a file or a folder with everything in it (batch delete). */
  removeRecursive(path: string): void {
    if (path === "/") throw new FsError("permission", path);
    const node = this.require(path);
    this.detach(path);
    this.drop(node);
  }

  /**
   * Deletes as the live service does (docs/api.md#files-and-folders): a file moves to `/.Trash` +
   * its path, folders go outright (`recursive`: with everything in them, their files to the
   * trash); inside `/.Trash` a delete is final. Same preconditions as `remove`/`removeRecursive`.
   */
  trash(path: string, recursive: boolean, time: number): void {
    if (path === "/") throw new FsError("permission", path);
    const node = this.require(path);
    if (node.kind === "dir" && !recursive && node.children.size > 0) throw new FsError("notEmpty", path);
    if (isAtOrUnder(path, TRASH)) {
      this.detach(path);
      this.drop(node);
      return;
    }
    // every check passed: from here on nothing throws
    const files = [...this.walk(path, node)].filter(([, n]) => n.kind === "file").map(([p]) => p);
    for (const file of files) this.moveToTrash(file, time);
    if (node.kind === "dir") {
      this.detach(path);
      this.drop(node);
    }
  }

  /**
   * Where a deleted file goes: `/.Trash` + its path, or that with `.1`…`.9` when the name is
   * taken (at most 10 copies: the tenth replaces `.9`). Undefined where the trash cannot take it
   * (a file in the way, a folder at `.9`, a path longer than the API takes): the delete is final.
   */
  trashPathOf(path: string): string | undefined {
    const base = `${TRASH}${path}`;
    if (base.length + 2 > MAX_PATH) return undefined;
    let node: TreeNode = this.root;
    for (const name of splitPath(parentOf(base))) {
      const next: TreeNode | undefined = node.children.get(name);
      if (!next) break;
      if (next.kind !== "dir") return undefined;
      node = next;
    }
    for (let copy = 0; copy <= 9; copy++) {
      const candidate = copy === 0 ? base : `${base}.${copy}`;
      const taken = this.get(candidate);
      if (!taken) return candidate;
      if (copy === 9) return taken.kind === "file" ? candidate : undefined;
    }
    return undefined;
  }

  /** Moves the file at `path` to its place in the trash (folders on the way made), or deletes it. */
  private moveToTrash(path: string, time: number): void {
    const node = this.get(path) as FileNode;
    const target = this.trashPathOf(path);
    this.detach(path);
    if (target === undefined) {
      this.drop(node);
      return;
    }
    let dir = this.root;
    for (const name of splitPath(parentOf(target))) {
      let next = dir.children.get(name) as DirNode | undefined;
      if (!next) {
        next = newDir(time);
        dir.children.set(name, next);
      }
      dir = next;
    }
    const replaced = dir.children.get(baseName(target));
    if (replaced) this.drop(replaced);
    dir.children.set(baseName(target), node);
  }

  copy(from: string, to: string, time: number): void {
    const source = this.require(from);
    this.checkTarget(from, to);
    const copy = cloneNode(source, time);
    this.parentFor(to).children.set(baseName(to), copy);
    this.adopt(copy);
  }

  rename(from: string, to: string): void {
    if (from === "/") throw new FsError("permission", from);
    const node = this.require(from);
    this.checkTarget(from, to);
    const target = this.parentFor(to);
    this.detach(from);
    target.children.set(baseName(to), node);
  }

  private checkTarget(from: string, to: string): void {
    if (isAtOrUnder(to, from)) throw new FsError("invalid", to);
    this.parentFor(to);
    if (this.get(to)) throw new FsError("exists", to);
  }

  private detach(path: string): void {
    (this.get(parentOf(path)) as DirNode).children.delete(baseName(path));
  }

  /** Every node below `path` (itself included), depth first, children in name order. */
  *walk(path = "/", node: TreeNode = this.root): Generator<[string, TreeNode]> {
    yield [path, node];
    if (node.kind === "dir") {
      for (const name of [...node.children.keys()].sort()) {
        yield* this.walk(joinPath(path, name), node.children.get(name) as TreeNode);
      }
    }
  }

  private adopt(node: TreeNode): void {
    for (const [, n] of this.walk("/", node)) {
      if (n.kind === "file") {
        this.refs.retain(n.blob);
        this.count(n, 1);
      }
    }
  }

  private drop(node: TreeNode): void {
    for (const [, n] of this.walk("/", node)) {
      if (n.kind === "file") {
        this.refs.release(n.blob);
        this.count(n, -1);
      }
    }
  }

  private count(file: FileNode, sign: 1 | -1): void {
    this.bytes += sign * file.size;
    this.files += sign;
  }
}

function cloneNode(node: TreeNode, time: number): TreeNode {
  const meta = structuredClone(node.meta);
  if (node.kind === "file")
    return { ...node, ctime: time, mtime: time, meta, poi: structuredClone(node.poi) };
  const dir: DirNode = { ...newDir(time), meta, options: { ...node.options } };
  if (node.jwtKey !== undefined) dir.jwtKey = node.jwtKey;
  for (const [name, child] of node.children) dir.children.set(name, cloneNode(child, time));
  return dir;
}
