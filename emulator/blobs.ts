// File contents, stored once per distinct content (keyed by SHA-256) and reference-counted by
// the trees, so copies cost nothing. In memory, or as files under DATA/blobs with --data. The
// few contents of a new account's system folders (emulator/system.ts) are built in: every store
// serves them, none stores them, so an account made in a synchronous step has its bytes.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { syncPath, writeSynced } from "./durable";
import { BUILTIN_BLOBS } from "./system";
import type { BlobRefs } from "./tree";

export interface BlobStore extends BlobRefs {
  /**
   * Stores bytes and returns their hash, holding one reference that the caller releases once
   * the file is committed (or not): the hold keeps a concurrent sweep off. On disk the bytes
   * are durable when this resolves.
   */
  put(data: Buffer): Promise<string>;
  /** Moves a finished file (a tus upload) into the store, like put; the source is consumed. */
  putFile(path: string): Promise<{ hash: string; size: number }>;
  read(hash: string): Promise<Buffer>;
  /** The first `bytes` bytes: enough to tell an image's dimensions. */
  head(hash: string, bytes: number): Promise<Buffer>;
  open(hash: string): Readable;
  /** Drops content no file refers to any more (call once the journal has the removal). */
  sweep(): Promise<void>;
  /** Forgets every reference (the trees are rebuilt on reset). */
  clearRefs(): void;
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

abstract class RefCounted implements BlobRefs {
  private readonly refs = new Map<string, number>();
  private readonly unreferenced = new Set<string>();

  retain(hash: string): void {
    this.refs.set(hash, (this.refs.get(hash) ?? 0) + 1);
    this.unreferenced.delete(hash);
  }

  release(hash: string): void {
    const n = (this.refs.get(hash) ?? 1) - 1;
    if (n > 0) {
      this.refs.set(hash, n);
      return;
    }
    this.refs.delete(hash);
    this.unreferenced.add(hash);
  }

  protected referenced(hash: string): boolean {
    return this.refs.has(hash);
  }

  /** Hashes that lost their last reference since the previous call. */
  protected takeUnreferenced(): string[] {
    const doomed = [...this.unreferenced].filter((h) => !this.refs.has(h));
    this.unreferenced.clear();
    return doomed;
  }

  /** Forgets every reference (the trees are rebuilt on reset). */
  clearRefs(): void {
    for (const hash of this.refs.keys()) this.unreferenced.add(hash);
    this.refs.clear();
  }
}

export class MemoryBlobStore extends RefCounted implements BlobStore {
  private readonly blobs = new Map<string, Buffer>();

  async put(data: Buffer): Promise<string> {
    const hash = sha256(data);
    if (!this.blobs.has(hash)) this.blobs.set(hash, data);
    this.retain(hash);
    return hash;
  }

  async putFile(path: string): Promise<{ hash: string; size: number }> {
    const data = await fsp.readFile(path);
    await fsp.rm(path, { force: true });
    return { hash: await this.put(data), size: data.length };
  }

  async read(hash: string): Promise<Buffer> {
    return this.blobs.get(hash) ?? BUILTIN_BLOBS.get(hash) ?? Buffer.alloc(0);
  }

  async head(hash: string, bytes: number): Promise<Buffer> {
    return (await this.read(hash)).subarray(0, bytes);
  }

  open(hash: string): Readable {
    return Readable.from([this.blobs.get(hash) ?? BUILTIN_BLOBS.get(hash) ?? Buffer.alloc(0)]);
  }

  async sweep(): Promise<void> {
    for (const hash of this.takeUnreferenced()) this.blobs.delete(hash);
  }
}

export class DiskBlobStore extends RefCounted implements BlobStore {
  constructor(private readonly dir: string) {
    super();
  }

  static async open(dir: string): Promise<DiskBlobStore> {
    await fsp.mkdir(dir, { recursive: true });
    return new DiskBlobStore(dir);
  }

  private path(hash: string): string {
    return join(this.dir, hash);
  }

  async put(data: Buffer): Promise<string> {
    const hash = sha256(data);
    const tmp = join(this.dir, `tmp-${randomBytes(8).toString("hex")}`);
    await writeSynced(tmp, data);
    await this.install(tmp, hash);
    return hash;
  }

  async putFile(path: string): Promise<{ hash: string; size: number }> {
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const digest = hash.digest("hex");
    await syncPath(path, "r+");
    await this.install(path, digest);
    return { hash: digest, size };
  }

  /** Renames a durable temporary file into place and makes the rename durable too. */
  private async install(tmp: string, hash: string): Promise<void> {
    try {
      await fsp.rename(tmp, this.path(hash));
    } catch {
      // another folder (tus store on another device): copy, then drop the source
      await fsp.copyFile(tmp, this.path(hash));
      await fsp.rm(tmp, { force: true });
    }
    this.retain(hash);
    await syncPath(this.dir);
  }

  read(hash: string): Promise<Buffer> {
    const builtin = BUILTIN_BLOBS.get(hash);
    return builtin ? Promise.resolve(builtin) : fsp.readFile(this.path(hash));
  }

  async head(hash: string, bytes: number): Promise<Buffer> {
    const builtin = BUILTIN_BLOBS.get(hash);
    if (builtin) return builtin.subarray(0, bytes);
    const fh = await fsp.open(this.path(hash), "r");
    try {
      const { buffer, bytesRead } = await fh.read(Buffer.alloc(bytes), 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  open(hash: string): Readable {
    const builtin = BUILTIN_BLOBS.get(hash);
    return builtin ? Readable.from([builtin]) : createReadStream(this.path(hash));
  }

  async sweep(): Promise<void> {
    const doomed = this.takeUnreferenced();
    await Promise.all(doomed.map((h) => fsp.rm(this.path(h), { force: true })));
  }

  /** At start, after replay: removes leftovers of interrupted writes and orphaned content. */
  async collectOrphans(): Promise<void> {
    for (const name of await fsp.readdir(this.dir)) {
      if (!this.referenced(name)) await fsp.rm(join(this.dir, name), { force: true });
    }
  }
}
