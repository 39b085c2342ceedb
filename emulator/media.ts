// Content type and media dimensions of stored files (readdir and stat report
// `meta: {width, height, duration}` for media, `{}` for other files; docs/api.md#files-and-folders).
import { imageSize } from "image-size";
import { lookup } from "mime-types";
import type { FileContent, MediaInfo } from "./tree";

/** Which comes first: the type the name's extension gives, or the one the source declared. */
export type TypeFirst = "extension" | "declared";

/**
 * By extension first for a fetch (what a CDN does), by what an upload declared first (it is sent
 * with the file: docs/api.md#uploads-and-fetches); else the other; else octet-stream.
 */
export function contentTypeOf(
  path: string,
  declared?: string | null,
  first: TypeFirst = "extension",
): string {
  const given = declared?.split(";")[0]?.trim() || undefined;
  const byName = lookup(path) || undefined;
  return (first === "declared" ? (given ?? byName) : (byName ?? given)) ?? "application/octet-stream";
}

/** Media the service describes with dimensions and a duration; anything else has `meta: {}`. */
const isMedia = (contentType: string) => /^(image|video|model)\//.test(contentType);

export function mediaInfo(head: Buffer, contentType: string): MediaInfo {
  if (!isMedia(contentType)) return {};
  // the emulator does not decode videos: their duration is 0 like a still's, dimensions unknown
  if (contentType.startsWith("image/")) {
    try {
      const { width, height } = imageSize(head);
      return { width: width ?? null, height: height ?? null, duration: 0 };
    } catch {
      // not an image after all, or a truncated one: dimensions unknown
    }
  }
  return { width: null, height: null, duration: 0 };
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
  first: TypeFirst = "extension",
): FileContent {
  const contentType = contentTypeOf(path, declared, first);
  return { blob, size, contentType, media: mediaInfo(head, contentType) };
}
