// Content type and media dimensions of stored files (readdir and stat report
// `meta: {width, height, duration}`; unknown values are null).
import { imageSize } from "image-size";
import { lookup } from "mime-types";
import type { FileContent, MediaInfo } from "./tree";

/** By extension first (what a CDN does), else what the source said, else octet-stream. */
export function contentTypeOf(path: string, declared?: string | null): string {
  return lookup(path) || declared?.split(";")[0]?.trim() || "application/octet-stream";
}

export function mediaInfo(head: Buffer, contentType: string): MediaInfo {
  if (contentType.startsWith("image/")) {
    try {
      const { width, height } = imageSize(head);
      return { width: width ?? null, height: height ?? null, duration: null };
    } catch {
      // not an image after all, or a truncated one: dimensions unknown
    }
  }
  return { width: null, height: null, duration: null };
}

/** Bytes read from the start of a file to find its dimensions. */
export const HEAD_BYTES = 512 * 1024;

/** A stored file's description from its size and first bytes (`head`, or all of it). */
export function fileContent(
  blob: string,
  size: number,
  head: Buffer,
  path: string,
  declared?: string | null,
): FileContent {
  const contentType = contentTypeOf(path, declared);
  return { blob, size, contentType, media: mediaInfo(head, contentType) };
}
