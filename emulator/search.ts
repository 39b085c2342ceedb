// File search (POST /v2/files/search). The query language is the emulator's own (the spec
// shows none); emulator/README.md documents it:
//
//   query  := term (" " term)*          all terms must match ("AND" between terms is ignored)
//   term   := ["-"] [field ":"] value    "-" negates; value may be "quoted with spaces"
//
// Without a field a term matches, case-insensitively, a substring of the path, title,
// description or a tag; `*` alone matches every file. Only files are searched.
import { createHash } from "node:crypto";
import { badRequest } from "./errors";
import { baseName, type FileNode, parentOf, type Tree } from "./tree";

type Predicate = (doc: Doc) => boolean;

interface Doc {
  path: string;
  node: FileNode;
}

const lower = (s: string) => s.toLowerCase();
const extensionOf = (path: string) => {
  const base = baseName(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1) : "";
};

function glob(pattern: string): (value: string) => boolean {
  const re = new RegExp(
    `^${pattern
      .split("")
      .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
    "is",
  );
  return (value) => re.test(value);
}

const contains = (needle: string) => (value: string | undefined) =>
  value !== undefined && lower(value).includes(lower(needle));

/** `>N`, `>=N`, `<N`, `<=N`, `A..B` or an exact value, over numbers or dates. */
function compare(field: string, raw: string, parse: (v: string) => number): (n: number | null) => boolean {
  const value = (v: string) => {
    const n = parse(v);
    if (Number.isNaN(n)) throw badRequest(`query: ${field}: "${v}" is not a valid value`);
    return n;
  };
  const range = /^(.*)\.\.(.*)$/.exec(raw);
  if (range) {
    const [lo, hi] = [value(range[1] as string), value(range[2] as string)];
    return (n) => n !== null && n >= lo && n <= hi;
  }
  const m = /^(>=|<=|>|<)?(.*)$/.exec(raw) as RegExpExecArray;
  const v = value(m[2] as string);
  switch (m[1]) {
    case ">":
      return (n) => n !== null && n > v;
    case ">=":
      return (n) => n !== null && n >= v;
    case "<":
      return (n) => n !== null && n < v;
    case "<=":
      return (n) => n !== null && n <= v;
    default:
      return (n) => n === v;
  }
}

const FIELDS: Record<string, (value: string, field: string) => Predicate> = {
  filename: (v) => {
    const m = glob(v);
    return (d) => m(d.path);
  },
  basename: (v) => {
    const m = glob(v);
    return (d) => m(baseName(d.path));
  },
  dirname: (v) => {
    const m = glob(v.length > 1 ? v.replace(/\/+$/, "") : v);
    return (d) => m(parentOf(d.path));
  },
  path: (v) => {
    const prefix = v.length > 1 ? v.replace(/\/+$/, "") : v;
    return (d) => prefix === "/" || d.path.startsWith(`${prefix}/`);
  },
  extension: (v) => {
    const m = glob(v.replace(/^\./, ""));
    return (d) => m(extensionOf(d.path));
  },
  contentType: (v) => {
    const m = glob(v);
    return (d) => m(d.node.contentType);
  },
  tags: (v) => (d) => (d.node.meta.tags ?? []).some((t) => lower(t) === lower(v)),
  title: (v) => (d) => contains(v)(d.node.meta.title),
  description: (v) => (d) => contains(v)(d.node.meta.description),
  product: (v) => (d) => Object.values(d.node.meta.product ?? {}).some(contains(v)),
  approved: (v, f) => {
    if (v !== "true" && v !== "false") throw badRequest(`query: ${f}: must be true or false`);
    return (d) => (d.node.meta.approval?.approved ?? false) === (v === "true");
  },
  size: (v, f) => {
    const c = compare(f, v, Number);
    return (d) => c(d.node.size);
  },
  width: (v, f) => {
    const c = compare(f, v, Number);
    return (d) => c(d.node.media.width ?? null);
  },
  height: (v, f) => {
    const c = compare(f, v, Number);
    return (d) => c(d.node.media.height ?? null);
  },
  ctime: (v, f) => {
    const c = compare(f, v, Date.parse);
    return (d) => c(d.node.ctime);
  },
  mtime: (v, f) => {
    const c = compare(f, v, Date.parse);
    return (d) => c(d.node.mtime);
  },
};

const ALIASES: Record<string, string> = {
  name: "basename",
  ext: "extension",
  type: "contentType",
  tag: "tags",
  "meta.tags": "tags",
  "meta.title": "title",
  "meta.description": "description",
  "meta.product": "product",
  "meta.approval.approved": "approved",
  "meta.width": "width",
  "meta.height": "height",
  created: "ctime",
  modified: "mtime",
};

const anywhere = (v: string): Predicate => {
  const m = contains(v);
  return (d) =>
    m(d.path) || m(d.node.meta.title) || m(d.node.meta.description) || (d.node.meta.tags ?? []).some(m);
};

export function parseQuery(query: string): Predicate {
  const terms: Predicate[] = [];
  for (const match of query.matchAll(/(-?)(?:([A-Za-z][\w.]*):)?("(?:[^"\\]|\\.)*"|\S+)/g)) {
    const [, negate, rawField, rawValue] = match as unknown as [string, string, string | undefined, string];
    const value = rawValue.startsWith('"') ? rawValue.slice(1, -1).replace(/\\(.)/g, "$1") : rawValue;
    if (!rawField && (value === "AND" || value === "*")) continue;
    let term: Predicate;
    if (rawField) {
      const field = ALIASES[rawField] ?? rawField;
      const make = FIELDS[field];
      if (!make) throw badRequest(`query: unknown field "${rawField}"`);
      term = make(value, rawField);
    } else {
      term = anywhere(value);
    }
    terms.push(negate ? (d) => !term(d) : term);
  }
  return (d) => terms.every((t) => t(d));
}

const SORTABLE: Record<string, (d: Doc) => string | number> = {
  filename: (d) => d.path,
  basename: (d) => baseName(d.path),
  dirname: (d) => parentOf(d.path),
  extension: (d) => extensionOf(d.path),
  contentType: (d) => d.node.contentType,
  size: (d) => d.node.size,
  ctime: (d) => d.node.ctime,
  mtime: (d) => d.node.mtime,
};

export interface SearchRequest {
  query?: string;
  sort?: Record<string, "asc" | "desc">;
  from?: number;
  size?: number;
  scroll?: boolean;
  scrollId?: string;
}

interface Cursor {
  query: string;
  sort: Record<string, "asc" | "desc">;
  offset: number;
  size: number;
}

/** Results reachable without scrolling (docs/api.md#bounds). */
const MAX_RESULTS = 1000;
const DEFAULT_SIZE = 100;

function decodeScroll(id: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(id, "base64url").toString("utf8")) as Cursor;
    if (typeof c.query === "string" && typeof c.offset === "number" && typeof c.size === "number") return c;
  } catch {
    // fall through
  }
  throw badRequest("scrollId: is not valid");
}

export function search(tree: Tree, req: SearchRequest): Record<string, unknown> {
  const cursor: Cursor = req.scrollId
    ? decodeScroll(req.scrollId)
    : {
        query: req.query ?? "*",
        sort: req.sort ?? {},
        offset: req.from ?? 0,
        size: req.size ?? DEFAULT_SIZE,
      };
  const matches = parseQuery(cursor.query);
  const keys = Object.entries(cursor.sort).map(([field, order]) => {
    const key = SORTABLE[field];
    if (!key) throw badRequest(`sort.${field}: cannot sort by this field`);
    return { key, sign: order === "desc" ? -1 : 1 };
  });
  keys.push({ key: SORTABLE.filename as (d: Doc) => string, sign: 1 });
  const docs: Doc[] = [];
  for (const [path, node] of tree.walk())
    if (node.kind === "file" && matches({ path, node })) docs.push({ path, node });
  docs.sort((a, b) => {
    for (const { key, sign } of keys) {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return 0;
  });
  const scrolling = req.scroll === true || req.scrollId !== undefined;
  const end = scrolling ? cursor.offset + cursor.size : Math.min(cursor.offset + cursor.size, MAX_RESULTS);
  const hits = docs.slice(cursor.offset, end).map(hit);
  const out: Record<string, unknown> = { hits, total: docs.length };
  if (scrolling && end < docs.length) {
    out.scrollId = Buffer.from(JSON.stringify({ ...cursor, offset: end })).toString("base64url");
  }
  return out;
}

function hit({ path, node }: Doc) {
  return {
    _id: createHash("sha1").update(path).digest("hex"),
    _source: {
      filename: path,
      dirname: parentOf(path),
      basename: baseName(path),
      extension: extensionOf(path),
      ctime: new Date(node.ctime).toISOString(),
      mtime: new Date(node.mtime).toISOString(),
      size: node.size,
      contentType: node.contentType,
      meta: { ...structuredClone(node.meta), ...node.media },
    },
  };
}
