// Error answers of the emulator. Two body shapes exist (docs/api.md): hapi-style
// `{statusCode, error, message}` for API errors, and `{name, message}` for file-system errors.

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  507: "Insufficient Storage",
};

function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? "Internal Server Error" : "Bad Request");
}

/** An answer other than 200, thrown anywhere below a route and sent by the error handler. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? body.error ?? statusCode));
  }
}

export function httpError(statusCode: number, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(statusCode, { statusCode, error: reasonPhrase(statusCode), message }, headers);
}

export const badRequest = (message: string) => httpError(400, message);
export const notFound = (message: string) => httpError(404, message);
export const conflict = (message: string) => httpError(409, message);
export const unauthorized = (message = "Missing authentication") => new ApiError(401, { message });

/** docs/api.md's file-system error names, with the statuses the emulator chose for them. */
const FS_ERRORS = {
  exists: { name: "PathExistsError", text: "Path already exists", status: 409 },
  missing: { name: "NoSuchFileError", text: "No such file or directory", status: 404 },
  notEmpty: { name: "DirectoryNotEmptyError", text: "Directory not empty", status: 409 },
  notDirectory: { name: "NotADirectoryError", text: "Not a directory", status: 400 },
  isDirectory: { name: "IsADirectoryError", text: "File is a directory", status: 400 },
  permission: { name: "PermissionDeniedError", text: "Permission denied", status: 403 },
  quota: { name: "QuotaExceededError", text: "Quota exceeded", status: 507 },
  invalid: { name: "InvalidPathError", text: "Invalid path", status: 400 },
} as const;

export type FsErrorKind = keyof typeof FS_ERRORS;

export class FsError extends ApiError {
  constructor(
    readonly kind: FsErrorKind,
    readonly path: string,
  ) {
    const e = FS_ERRORS[kind];
    super(e.status, { name: e.name, message: `${e.text}: ${path}` });
  }
}
