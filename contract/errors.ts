// The error bodies the service documents (docs/api.md#errors). The client reads them, whatever the
// status; the emulator answers with them.
import { z } from "zod";

/**
 * A file-system error: `{"name":"<FsErrorName>","message":"<text>: <path>"}`. mkdir of a path that
 * exists answers it under HTTP 200: on an operation whose success has no body it is the error it
 * names, whatever the status.
 */
export const FsErrorBody = z.looseObject({ name: z.string(), message: z.string() });

/** An API error as the service's framework (hapi) shapes it: `{statusCode, error, message}`. */
export const HttpErrorBody = z.looseObject({
  statusCode: z.number(),
  error: z.string(),
  message: z.string().optional(),
});

/** The texts of the documented file-system errors, each followed by `: <path>`. */
export const FS_ERROR_TEXTS = [
  "Path already exists",
  "No such file or directory",
  "Directory not empty",
  "Not a directory",
  "File is a directory",
  "Permission denied",
  "Quota exceeded",
] as const;

/**
 * What an error body says, on one line: `message`, then `error`, then `name` of a JSON body; an
 * HTML page's title (a gateway or proxy in front of the service answered); else the text itself.
 */
export function errorText(text: string | undefined): string {
  try {
    const json = JSON.parse(text ?? "") as Record<string, unknown>;
    for (const key of ["message", "error", "name"]) {
      if (typeof json[key] === "string" && json[key]) return oneLine(json[key] as string);
    }
  } catch {
    // not JSON: the text
  }
  const raw = text ?? "";
  if (/^\s*<(!doctype|html|head|body)/i.test(raw)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(raw)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(raw)?.[1];
    return `${oneLine(title ?? "") || "an HTML page"} (an HTML page, not the service's answer: a gateway or proxy in front of it)`;
  }
  return oneLine(raw);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * Whether a 200 answer is a documented file-system error, on an operation that answers JSON: its
 * `message` begins with one of the documented texts (a real answer of such an operation never does).
 */
export function isFsErrorAnswer(named: { message: string } | undefined): boolean {
  return named !== undefined && FS_ERROR_TEXTS.some((t) => named.message.startsWith(t));
}

/** The file-system error a body names, if it is one. */
export function fsErrorOf(text: string | undefined): { name: string; message: string } | undefined {
  if (!text?.startsWith("{")) return undefined;
  try {
    const parsed = FsErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? { name: parsed.data.name, message: parsed.data.message } : undefined;
  } catch {
    return undefined;
  }
}
