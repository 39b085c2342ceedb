// Content type and media dimensions of stored files (readdir and stat report
// `meta: {width, height, duration}` for media, `{}` for other files; docs/api.md#files-and-folders).
// What the emulator cannot tell is stored as null: the live service answers it so, and
// `documented-shapes` answers a null duration as 0 (emulator/handlers/files.ts).
import { imageSize } from "image-size";
import { lookup } from "mime-types";
import type { FileContent, MediaInfo } from "./tree";

/** Which comes first: the type the name's extension gives, or the one the source declared. */
export type TypeFirst = "extension" | "declared";

/**
 * By extension first (a fetch, and an upload as the live service types it), else what the source
 * declared; by what an upload declared first under `content-type-declared`, else the extension;
 * else octet-stream (docs/api.md#uploads-and-fetches).
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
  if (contentType.startsWith("image/")) {
    // a still: duration 0, as documented; dimensions null when the header does not tell them
    try {
      const { width, height } = imageSize(head);
      return { width: width ?? null, height: height ?? null, duration: 0 };
    } catch {
      return { width: null, height: null, duration: 0 };
    }
  }
  // the emulator decodes no video or model: duration and dimensions unknown, null as the live
  // service answers them
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
  first: TypeFirst = "extension",
): FileContent {
  const contentType = contentTypeOf(path, declared, first);
  return { blob, size, contentType, media: mediaInfo(head, contentType) };
}
