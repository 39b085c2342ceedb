// Readable, unique names for generated resources and the variables that hold them.

/** `/products/Shoes & Bags` -> `products-shoes-bags`; empty input gives `root`. */
export function slug(text: string): string {
  const s = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s || "root";
}

/**
 * The names of a file's meta and of one of its points (`/a/b.jpg`, `face` -> `a-b-jpg-meta`,
 * `a-b-jpg-face`): the generated program and the import document name them alike.
 */
export const fileMetaName = (path: string) => `${slug(path)}-meta`;
export const pointName = (path: string, name: string) => `${slug(path)}-${slug(name)}`;

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await any boolean number string " +
    "symbol pulumi mediahost config undefined arguments eval"
  ).split(" "),
);

/** `products-shoes` -> `productsShoes`; a leading digit or a reserved word gets a prefix. */
export function identifier(text: string, prefix = "r"): string {
  const parts = slug(text).split("-");
  const camel = parts.map((p, i) => (i === 0 ? p : p.charAt(0).toUpperCase() + p.slice(1))).join("");
  if (/^[0-9]/.test(camel) || RESERVED.has(camel))
    return `${prefix}${camel.charAt(0).toUpperCase()}${camel.slice(1)}`;
  return camel;
}

/** Hands out names, adding `-2`, `-3`... (or `2`, `3`... for identifiers) on collision. */
export class NameAllocator {
  private readonly used = new Set<string>();
  constructor(private readonly separator = "-") {}

  take(wanted: string): string {
    if (!this.used.has(wanted)) {
      this.used.add(wanted);
      return wanted;
    }
    for (let n = 2; ; n++) {
      const candidate = `${wanted}${this.separator}${n}`;
      if (!this.used.has(candidate)) {
        this.used.add(candidate);
        return candidate;
      }
    }
  }
}
