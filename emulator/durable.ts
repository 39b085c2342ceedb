// The two fsync steps that make an acknowledged write survive `kill -9`, shared by the
// journal (persistence.ts) and the blob store (blobs.ts).
import * as fsp from "node:fs/promises";

/** Writes `data` to `path` and fsyncs it before returning. */
export async function writeSynced(path: string, data: string | Buffer): Promise<void> {
  const fh = await fsp.open(path, "w");
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Fsyncs an existing file or a directory (after a rename into it). */
export async function syncPath(path: string, flags = "r"): Promise<void> {
  const fh = await fsp.open(path, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
