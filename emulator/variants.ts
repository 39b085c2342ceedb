// Variants: the other answers a real service plausibly gives where docs/api.md marks a fact
// [likely] or [unknown], or where the live service ([live]) answers otherwise than the
// documentation shows. By default the emulator answers as a real account does (docs/api.md's
// [live] facts, then its "Emulator" column); each variant (`--variant NAME`, repeatable) makes it
// answer one fact the other way, so the provider's suites can run against every service the
// documentation and the live captures allow.

/** Each variant: the fact it plays (a section of docs/api.md) and what the emulator then does. */
export const VARIANTS = {
  "token-scope-string": {
    section: "authentication-and-tokens",
    plays:
      "the token answer's `scope` is one space-separated string (as OAuth 2 writes it), not an array holding it",
  },
  "errors-plain": {
    section: "errors",
    plays:
      "API errors (not file-system ones) come as plain text, not hapi's JSON `{statusCode, error, message}`",
  },
  "fs-errors-400": {
    section: "errors",
    plays: "every file-system error answers HTTP 400, whatever it names (a missing path included)",
  },
  "fs-errors-200": {
    section: "errors",
    plays: "every file-system error answers HTTP 200 with its `{name, message}` body, as mkdir does",
  },
  "mkdir-exists-409": {
    section: "errors",
    plays: "mkdir of an existing path answers 409 instead of the documented 200 with an error body",
  },
  "rate-headers-absent": {
    section: "rate-limits",
    plays: "answers carry no rate-limit headers; a 429 says only in its message when calls may resume",
  },
  "secrets-masked": {
    section: "account",
    plays: "the account's fetching secrets come back masked (`********`) instead of empty",
  },
  "secrets-clear": {
    section: "account",
    plays: "the account's fetching secrets come back in clear",
  },
  "custom-domain-hidden": {
    section: "account",
    plays: "the account object never shows an alias's `customDomain`",
  },
  "sparse-answers": {
    section: "account",
    plays:
      "the account object leaves out what the provider does not need: `dateCreated`, `isPartner`, " +
      "`fileSizeLimit`, `customRedirectUrl`, `cdnURL`, `cdnTempURL`, `fetching.maxFilesize`, `status`",
  },
  "aliases-replace": {
    section: "account",
    plays: "`aliases` in an account update replaces the whole map instead of merging entries by name",
  },
  "writes-204": {
    section: "custom-domains-and-sub-accounts",
    plays: "every write whose success has no body answers 204 No Content instead of 200",
  },
  "subaccount-empty": {
    section: "custom-domains-and-sub-accounts",
    plays: "sub-account creation answers an empty 200 instead of `{alias}`",
  },
  "mkdir-parents": {
    section: "files-and-folders",
    plays: "mkdir makes missing parent folders instead of failing with `No such file or directory`",
  },
  "delete-missing-ok": {
    section: "files-and-folders",
    plays: "deleting a path that does not exist answers 200 instead of `No such file or directory`",
  },
  "delete-final": {
    section: "files-and-folders",
    plays: "deleting a file removes it at once instead of moving it to `/.Trash` + its path",
  },
  "documented-shapes": {
    section: "files-and-folders",
    plays:
      "answers in the documentation's stricter shapes instead of the live ones: `meta.duration` never null (0), " +
      "system folders' entries and `stat` complete, no `continuation: null`, search hits with `_type`, the billing " +
      "plan with `description`, the token's `scope` an array of single scopes",
  },
  "content-type-declared": {
    section: "uploads-and-fetches",
    plays:
      "an upload keeps the content type it was sent with, instead of the one the file name's extension gives",
  },
  "upload-no-mkdir": {
    section: "uploads-and-fetches",
    plays: "an upload into a missing folder fails with `No such file or directory` instead of making it",
  },
  "tus-bare": {
    section: "uploads-and-fetches",
    plays: "the tus link answers a bare JSON string, the locations `[{name}]` objects",
  },
  "fetch-attempt-alt": {
    section: "uploads-and-fetches",
    plays:
      "a fetch attempt's `headers.result.code` is a string, header names keep their case, `date` is the start",
  },
  "no-date-header": {
    section: "uploads-and-fetches",
    plays: "answers carry no `Date` header",
  },
  "options-merge": {
    section: "folder-options",
    plays: "a folder options POST merges with the options set instead of replacing them",
  },
  "poi-set-conflict": {
    section: "points-of-interest",
    plays: "setting a point of interest under a name that exists fails with 409 instead of replacing it",
  },
  "poi-delete-missing-ok": {
    section: "points-of-interest",
    plays: "deleting a point of interest the file does not have answers 200 instead of 404",
  },
  "jobs-progress-only": {
    section: "jobs",
    plays: "a job's status is only `{progress, result?, error?}`: no `status`, a failure only as `error`",
  },
  "spin-views-alt": {
    section: "statistics",
    plays: 'spin views read unknown user-agent parts as `"Unknown"`, and rows and columns as 0',
  },
  "events-alt": {
    section: "users-and-events",
    plays:
      "an event's `fetching.contentLength` counts the bytes received, and marking events seen changes nothing",
  },
  "extra-fields": {
    section: "errors",
    plays: "every GET answer grows fields nobody documents, at every level of every object",
  },
  "gateway-502": {
    section: "errors",
    plays:
      "a gateway in front answers one call in four with 502 and an HTML page, before the service sees it " +
      "(reads and writes alike)",
  },
} as const satisfies Record<string, { section: string; plays: string }>;

export type VariantName = keyof typeof VARIANTS;
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

export function isVariant(name: string): name is VariantName {
  return Object.hasOwn(VARIANTS, name);
}

/** `--help`'s lines: one a variant. */
export function variantHelp(): string {
  const width = Math.max(...VARIANT_NAMES.map((n) => n.length));
  return VARIANT_NAMES.map((n) => `  ${n.padEnd(width)}  ${VARIANTS[n].plays}`).join("\n");
}

/** The field every object of an answer grows under `extra-fields`. */
export const EXTRA_FIELD = "undocumentedField";

/**
 * `value` with an undocumented field added to every object, except the maps keyed by data
 * (aliases, points, counters, days): a new key there would be a new entry, not a new field.
 */
export function withExtraFields(
  value: unknown,
  isMap: (path: string[]) => boolean,
  path: string[] = [],
): unknown {
  if (Array.isArray(value)) return value.map((v) => withExtraFields(v, isMap, [...path, "[]"]));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = withExtraFields(v, isMap, [...path, isMap(path) ? "*" : k]);
  if (!isMap(path)) out[EXTRA_FIELD] = { note: "not in the documentation", level: path.length };
  return out;
}

/** The maps keyed by data in each operation's answer, as paths (`*` one key of a map, `[]` an element). */
const MAPS: Partial<Record<string, string[]>> = {
  getAccount: ["aliases"],
  getPoi: [""],
  getLimits: [""],
  getHttpStats: [""],
  getStorageStats: [""],
  getTrafficStats: [""],
  download: [""],
};

export function mapsOf(operation: string): (path: string[]) => boolean {
  const maps = new Set(MAPS[operation] ?? []);
  return (path) => maps.has(path.join("."));
}

/** What a gateway in front answers when it cannot reach the service (`gateway-502`). */
export const GATEWAY_PAGE =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n" +
  "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
