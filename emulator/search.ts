// File search (POST /v2/files/search and /v2/files/search/scroll) as the service documents it
// (docs/api.md#search): the query is Elasticsearch query-string syntax, parsed by the `lucene`
// package; the emulator evaluates the tree it parses over its own files. What it does not
// evaluate (fuzzy and proximity searches, unknown fields) is a 400 naming the part.
import { createHash } from "node:crypto";
import { parse as parseLucene } from "lucene";
import { baseName, parentOf } from "mediahost-contract";
import { badRequest } from "./errors";
import type { FileNode, Tree } from "./tree";

type Predicate = (doc: Doc) => boolean;

interface Doc {
  path: string;
  node: FileNode;
}

/** A term or range node of the parser's tree (the fields the emulator reads). */
interface TermNode {
  field: string;
  term?: string;
  quoted?: boolean;
  regex?: boolean;
  similarity?: number | null;
  proximity?: number | null;
  prefix?: string | null;
  term_min?: string;
  term_max?: string;
  inclusive?: "both" | "none" | "left" | "right";
}

interface Node {
  start?: string;
  left?: Node | TermNode;
  operator?: string;
  right?: Node | TermNode;
}

const isTerm = (n: Node | TermNode): n is TermNode => "field" in n;

/** The extension as the service indexes it: with its dot (`.jpg`), or "" without one. */
const extensionOf = (path: string) => {
  const base = baseName(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot) : "";
};

/** `/a/b` → `["/a", "/a/b"]`, `/` → `["/"]`: what a path hierarchy tokenizer indexes. */
function folderPaths(dirname: string): string[] {
  if (dirname === "/") return ["/"];
  const parts = dirname.split("/").slice(1);
  return parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`);
}

/** Removes query-string escapes: `\/` is `/`. */
const unescapeTerm = (s: string) => s.replace(/\\(.)/g, "$1");

/** A term as a whole-value matcher: unescaped `*` and `?` are wildcards, case does not matter. */
function glob(raw: string): (value: string) => boolean {
  let source = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === "\\" && i + 1 < raw.length)
      source += (raw[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else source += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  const re = new RegExp(`^${source}$`, "is");
  return (value) => re.test(value);
}

const UNITS: Record<string, (d: Date, n: number) => void> = {
  y: (d, n) => d.setUTCFullYear(d.getUTCFullYear() + n),
  M: (d, n) => d.setUTCMonth(d.getUTCMonth() + n),
  w: (d, n) => d.setUTCDate(d.getUTCDate() + 7 * n),
  d: (d, n) => d.setUTCDate(d.getUTCDate() + n),
  h: (d, n) => d.setUTCHours(d.getUTCHours() + n),
  H: (d, n) => d.setUTCHours(d.getUTCHours() + n),
  m: (d, n) => d.setUTCMinutes(d.getUTCMinutes() + n),
  s: (d, n) => d.setUTCSeconds(d.getUTCSeconds() + n),
};
const ROUND: Record<string, (d: Date) => void> = {
  y: (d) => d.setUTCMonth(0, 1),
  M: (d) => d.setUTCDate(1),
  d: () => {},
  h: () => {},
  H: () => {},
  m: () => {},
  s: () => {},
};
const CLEAR_BELOW: Record<string, number> = { y: 4, M: 4, d: 4, h: 3, H: 3, m: 2, s: 1 };

/** A date: ISO 8601, or Elasticsearch date math from `now` (`now-30d`, `now+1h`, `now/d`). */
function dateOf(field: string, raw: string): number {
  const value = unescapeTerm(raw);
  const math = /^now((?:[+-]\d+[yMwdhHms])*)(?:\/([yMdhHms]))?$/.exec(value);
  if (math) {
    const d = new Date();
    for (const [, sign, n, unit] of (math[1] as string).matchAll(/([+-])(\d+)([yMwdhHms])/g)) {
      UNITS[unit as string]?.(d, (sign === "-" ? -1 : 1) * Number(n));
    }
    const round = math[2];
    if (round) {
      ROUND[round]?.(d);
      const below = CLEAR_BELOW[round] ?? 0;
      if (below >= 4) d.setUTCHours(0, 0, 0, 0);
      else if (below === 3) d.setUTCMinutes(0, 0, 0);
      else if (below === 2) d.setUTCSeconds(0, 0);
      else d.setUTCMilliseconds(0);
    }
    return d.getTime();
  }
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw badRequest(`query: ${field}: "${value}" is not a date or date math`);
  return t;
}

function numberOf(field: string, raw: string): number {
  const n = Number(unescapeTerm(raw));
  if (raw === "" || Number.isNaN(n))
    throw badRequest(`query: ${field}: "${unescapeTerm(raw)}" is not a number`);
  return n;
}

type Kind = "text" | "keyword" | "number" | "date";

/** The searchable fields: what `_source` documents, plus meta the emulator keeps (its choice). */
const FIELDS: Record<string, { kind: Kind; get: (d: Doc) => string | number | string[] | null | undefined }> =
  {
    filename: { kind: "keyword", get: (d) => d.path },
    "filename.raw": { kind: "keyword", get: (d) => d.path },
    dirname: { kind: "keyword", get: (d) => parentOf(d.path) },
    // [live] the vendor's plugins search `-dirname.paths:\/.Trash`: the folder and every folder above it
    "dirname.paths": { kind: "keyword", get: (d) => folderPaths(parentOf(d.path)) },
    basename: { kind: "keyword", get: (d) => baseName(d.path) },
    extension: { kind: "keyword", get: (d) => extensionOf(d.path) },
    contentType: { kind: "keyword", get: (d) => d.node.contentType },
    id: { kind: "keyword", get: (d) => idOf(d.path) },
    size: { kind: "number", get: (d) => d.node.size },
    ctime: { kind: "date", get: (d) => d.node.ctime },
    mtime: { kind: "date", get: (d) => d.node.mtime },
    "meta.width": { kind: "number", get: (d) => d.node.media.width },
    "meta.height": { kind: "number", get: (d) => d.node.media.height },
    "meta.duration": { kind: "number", get: (d) => d.node.media.duration },
    "meta.format": { kind: "keyword", get: (d) => formatOf(d.node) },
    "meta.title": { kind: "text", get: (d) => d.node.meta.title },
    "meta.description": { kind: "text", get: (d) => d.node.meta.description },
    "meta.tags": { kind: "keyword", get: (d) => d.node.meta.tags },
  };

/** A term without a field: a word of the path (wildcards allowed), the title, description or a tag. */
function anywhere(raw: string): Predicate {
  const wild = /(^|[^\\])[*?]/.test(raw);
  const m = glob(wild ? raw : `*${raw}*`);
  return (d) =>
    m(d.path) ||
    (d.node.meta.title !== undefined && m(d.node.meta.title)) ||
    (d.node.meta.description !== undefined && m(d.node.meta.description)) ||
    (d.node.meta.tags ?? []).some(m);
}

/** `>N`, `>=N`, `<N`, `<=N` (query-string shorthand for open ranges) or an exact value. */
function compareTerm(
  field: string,
  raw: string,
  parse: (f: string, v: string) => number,
): (n: number) => boolean {
  const m = /^(>=|<=|>|<)?(.*)$/s.exec(raw) as RegExpExecArray;
  const v = parse(field, m[2] as string);
  switch (m[1]) {
    case ">":
      return (n) => n > v;
    case ">=":
      return (n) => n >= v;
    case "<":
      return (n) => n < v;
    case "<=":
      return (n) => n <= v;
    default:
      return (n) => n === v;
  }
}

function termPredicate(node: TermNode): Predicate {
  let field = node.field;
  let negate = node.prefix === "-" || node.prefix === "!";
  // the parser keeps a leading `-` (or `+`) on a field as part of its name
  if (field.startsWith("-") || field.startsWith("+")) {
    negate = field.startsWith("-");
    field = field.slice(1);
  }
  if (node.similarity != null) throw badRequest(`query: fuzzy matching (~) is not supported: ${node.term}`);
  if (node.proximity != null)
    throw badRequest(`query: proximity search (~) is not supported: "${node.term}"`);
  let predicate: Predicate;
  if (field === "<implicit>") {
    if (node.term_min !== undefined) throw badRequest("query: a range needs a field");
    if (node.regex) throw badRequest("query: a regular expression needs a field");
    const raw = node.term ?? "";
    predicate = raw === "*" ? () => true : anywhere(node.quoted ? raw.replace(/[*?\\]/g, "\\$&") : raw);
  } else {
    if (!Object.hasOwn(FIELDS, field)) throw badRequest(`query: unsupported field "${field}"`);
    const spec = FIELDS[field] as (typeof FIELDS)[string];
    predicate =
      node.term_min !== undefined ? rangePredicate(field, spec, node) : valuePredicate(field, spec, node);
  }
  return negate ? (d) => !predicate(d) : predicate;
}

function valuePredicate(field: string, spec: (typeof FIELDS)[string], node: TermNode): Predicate {
  const raw = node.term ?? "";
  const values = (d: Doc) => {
    const v = spec.get(d);
    return v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  if (spec.kind === "number" || spec.kind === "date") {
    if (raw === "*") return (d) => values(d).length > 0;
    const c = compareTerm(field, raw, spec.kind === "date" ? dateOf : numberOf);
    return (d) => values(d).some((v) => c(Number(v)));
  }
  if (node.regex) {
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${raw})$`, "s");
    } catch {
      throw badRequest(`query: ${field}: /${raw}/ is not a valid regular expression`);
    }
    return (d) => values(d).some((v) => re.test(String(v)));
  }
  if (spec.kind === "text") {
    const m = glob(node.quoted ? `*${raw.replace(/[*?\\]/g, "\\$&")}*` : `*${raw}*`);
    return (d) => values(d).some((v) => m(String(v)));
  }
  const m = glob(node.quoted ? raw.replace(/[*?\\]/g, "\\$&") : raw);
  return (d) => values(d).some((v) => m(String(v)));
}

/** `[a TO b]` includes its bounds, `{a TO b}` excludes them; `*` leaves a side open. */
function rangePredicate(field: string, spec: (typeof FIELDS)[string], node: TermNode): Predicate {
  const inclusive = node.inclusive ?? "both";
  const lowIn = inclusive === "both" || inclusive === "left";
  const highIn = inclusive === "both" || inclusive === "right";
  const [min, max] = [node.term_min ?? "*", node.term_max ?? "*"];
  if (spec.kind === "number" || spec.kind === "date") {
    const parse = spec.kind === "date" ? dateOf : numberOf;
    const lo = min === "*" ? Number.NEGATIVE_INFINITY : parse(field, min);
    const hi = max === "*" ? Number.POSITIVE_INFINITY : parse(field, max);
    return (d) => {
      const v = spec.get(d);
      if (typeof v !== "number") return false;
      return (lowIn ? v >= lo : v > lo) && (highIn ? v <= hi : v < hi);
    };
  }
  const [lo, hi] = [unescapeTerm(min), unescapeTerm(max)];
  return (d) => {
    const v = spec.get(d);
    if (typeof v !== "string") return false;
    const aboveLow = min === "*" || (lowIn ? v >= lo : v > lo);
    const belowHigh = max === "*" || (highIn ? v <= hi : v < hi);
    return aboveLow && belowHigh;
  };
}

function nodePredicate(node: Node | TermNode): Predicate {
  if (isTerm(node)) return termPredicate(node);
  if (!node.left) return () => true;
  const left = nodePredicate(node.left);
  const first: Predicate = node.start === "NOT" ? (d) => !left(d) : left;
  if (!node.right) return first;
  const right = nodePredicate(node.right);
  // `a -b` is "a and not b" (a negated clause must not match), as Elasticsearch reads it
  const rightNegated = isTerm(node.right) && (node.right.field.startsWith("-") || node.right.prefix === "-");
  switch (node.operator) {
    case "AND":
    case "&&":
      return (d) => first(d) && right(d);
    case "OR":
    case "||":
      return (d) => first(d) || right(d);
    case "AND NOT":
      return (d) => first(d) && !right(d);
    case "OR NOT":
      return (d) => first(d) || !right(d);
    case "<implicit>":
      return rightNegated ? (d) => first(d) && right(d) : (d) => first(d) || right(d);
    default:
      throw badRequest(`query: unsupported operator "${node.operator}"`);
  }
}

/** Parses a query-string query into a predicate over files; 400 naming what it cannot read. */
export function parseQuery(query: string): Predicate {
  if (query.trim() === "") return () => true;
  let tree: Node;
  try {
    tree = parseLucene(query) as unknown as Node;
  } catch (e) {
    throw badRequest(`query: ${(e as Error).message}`);
  }
  return nodePredicate(tree);
}

/** Sort fields; looked up with Object.hasOwn, so `hasOwnProperty` is an unknown field, not a crash. */
const SORTABLE: Record<string, (d: Doc) => string | number> = {
  "filename.raw": (d) => d.path,
  filename: (d) => d.path,
  basename: (d) => baseName(d.path),
  dirname: (d) => parentOf(d.path),
  extension: (d) => extensionOf(d.path),
  contentType: (d) => d.node.contentType,
  size: (d) => d.node.size,
  ctime: (d) => d.node.ctime,
  mtime: (d) => d.node.mtime,
  "meta.width": (d) => d.node.media.width ?? -1,
  "meta.height": (d) => d.node.media.height ?? -1,
};

export interface SearchRequest {
  query?: string;
  sort?: Record<string, "asc" | "desc">;
  from?: number;
  size?: number;
  scroll?: boolean;
}

interface Cursor {
  query: string;
  sort: Record<string, "asc" | "desc">;
  offset: number;
  size: number;
}

/** Results reachable without scrolling (docs/api.md#search). */
const MAX_RESULTS = 1000;
const DEFAULT_SIZE = 100;

/**
 * The first page; with `scroll: true`, a `scrollId` while more pages follow. `live`: hits as the
 * live service answers them (no `_type`, no `_routing`); else as documented.
 */
export function search(
  tree: Tree,
  account: string,
  req: SearchRequest,
  live = true,
): Record<string, unknown> {
  const cursor: Cursor = {
    query: req.query ?? "*",
    sort: req.sort ?? {},
    offset: req.from ?? 0,
    size: req.size ?? DEFAULT_SIZE,
  };
  return page(tree, account, cursor, req.scroll === true, live);
}

/**
 * The page after the one a `scrollId` came with. Scroll ids are the cursor itself (the
 * emulator's choice): they do not expire, and the same id answers the same page again.
 */
export function scroll(tree: Tree, account: string, scrollId: string, live = true): Record<string, unknown> {
  return page(tree, account, decodeScroll(scrollId), true, live);
}

function decodeScroll(id: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(id, "base64url").toString("utf8")) as Cursor;
    if (typeof c.query === "string" && typeof c.offset === "number" && typeof c.size === "number") return c;
  } catch {
    // fall through
  }
  throw badRequest("scrollId: is not valid");
}

function page(
  tree: Tree,
  account: string,
  cursor: Cursor,
  scrolling: boolean,
  live: boolean,
): Record<string, unknown> {
  const matches = parseQuery(cursor.query);
  const keys = Object.entries(cursor.sort).map(([field, order]) => {
    if (!Object.hasOwn(SORTABLE, field)) throw badRequest(`sort.${field}: cannot sort by this field`);
    return { field, key: SORTABLE[field] as (d: Doc) => string | number, sign: order === "desc" ? -1 : 1 };
  });
  const sorted = keys.length > 0;
  const order = [
    ...keys,
    { field: "filename.raw", key: SORTABLE["filename.raw"] as (d: Doc) => string, sign: 1 },
  ];
  const docs: Doc[] = [];
  for (const [path, node] of tree.walk())
    if (node.kind === "file" && matches({ path, node })) docs.push({ path, node });
  docs.sort((a, b) => {
    for (const { key, sign } of order) {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return 0;
  });
  const end = scrolling ? cursor.offset + cursor.size : Math.min(cursor.offset + cursor.size, MAX_RESULTS);
  const hits = docs
    .slice(cursor.offset, end)
    .map((doc) => hit(doc, account, sorted ? keys.map((k) => k.key(doc)) : undefined, live));
  const out: Record<string, unknown> = { hits, total: docs.length, _relation: "eq" };
  if (scrolling && end < docs.length) {
    out.scrollId = Buffer.from(JSON.stringify({ ...cursor, offset: end })).toString("base64url");
  }
  return out;
}

const idOf = (path: string) => createHash("sha1").update(path).digest("hex");

/** The media format as the index names it: the content type's subtype, for media only. */
function formatOf(node: FileNode): string | undefined {
  return node.media.duration !== undefined ? node.contentType.split("/")[1]?.split(";")[0] : undefined;
}

/** The index the live service's hits name. */
const INDEX = "sirvfs-v4";

/**
 * A hit: `{_index, _id, _score, _source}` as the live service answers it, or in the documented
 * shape with `_type: "_doc"` and `_routing` (`documented-shapes`); `sort` holds the sort values
 * when a sort was asked for. `meta` has `format` for media, and a duration the emulator cannot
 * tell is null, or 0 as documented.
 */
function hit({ path, node }: Doc, account: string, sort: (string | number)[] | undefined, live: boolean) {
  const id = idOf(path);
  const duration = live ? node.media.duration : (node.media.duration ?? 0);
  const media = node.media.duration !== undefined ? { ...node.media, duration, format: formatOf(node) } : {};
  return {
    _index: INDEX,
    ...(live ? {} : { _type: "_doc" }),
    _id: id,
    _score: sort ? null : 1,
    ...(live ? {} : { _routing: account }),
    _source: {
      accountId: account,
      filename: path,
      dirname: parentOf(path),
      basename: baseName(path),
      extension: extensionOf(path),
      id,
      ctime: new Date(node.ctime).toISOString(),
      mtime: new Date(node.mtime).toISOString(),
      size: node.size,
      contentType: node.contentType,
      meta: media,
    },
    ...(sort ? { sort } : {}),
  };
}
