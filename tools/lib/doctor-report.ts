// mediahost-doctor's report as the user sees it: a table of the facts, each cell wrapped, and
// every value it must never show hidden.
import type { DoctorReport } from "./doctor-facts";

/** Every value the output must never show; everything printed goes through `redact`. */
export class Secrets {
  private readonly values = new Set<string>();
  add(value: unknown): void {
    if (typeof value === "string" && value.length >= 4 && !/^\*+$/.test(value)) this.values.add(value);
  }
  redact(text: string): string {
    let out = text;
    for (const v of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(v).join("[hidden]");
    return out;
  }
}

const WIDTHS = [44, 36, 48, 24];

/** `text` in lines of at most `width` characters, broken between words where it can be. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    for (let w = word; w.length > 0; ) {
      const room = line ? width - line.length - 1 : width;
      if (w.length <= room) {
        line = line ? `${line} ${w}` : w;
        w = "";
      } else if (line && w.length <= width) {
        lines.push(line);
        line = "";
      } else {
        lines.push(line ? `${line} ${w.slice(0, room)}` : w.slice(0, room));
        line = "";
        w = w.slice(room);
      }
    }
  }
  return [...lines, line];
}

/** The report as a table, one row per fact, its cells wrapped. */
export function renderTable(report: DoctorReport): string {
  const header = [
    "fact (section of docs/api.md)",
    "docs/api.md expects",
    "the service answered",
    "provider handles it",
  ];
  const rows = report.facts.map((f) => [
    `${f.fact} (#${f.section})`,
    f.expects,
    f.answered,
    f.handled === "yes" && f.variant
      ? `yes: ${f.variant}`
      : f.handled === "n/a" && f.variant
        ? `n/a (${f.variant})`
        : f.handled,
  ]);
  const cells = rows.map((r) => r.map((c, i) => wrap(c, WIDTHS[i] as number)));
  const widths = header.map((h, i) =>
    Math.max(h.length, ...cells.flatMap((r) => (r[i] as string[]).map((l) => l.length))),
  );
  const line = (parts: string[]) =>
    parts
      .map((c, i) => c.padEnd(widths[i] as number))
      .join(" | ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("-+-");
  const body = cells.flatMap((r) => {
    const height = Math.max(...r.map((c) => c.length));
    return Array.from({ length: height }, (_, k) => line(r.map((c) => c[k] ?? "")));
  });
  const failing = report.facts.filter((f) => f.handled === "NO");
  const mode = report.writeProbe ? `, write probe under ${report.writeProbe}` : ", read-only";
  return [
    `${report.baseUrl}${report.account ? ` (account ${report.account})` : ""}${mode}`,
    line(header),
    rule,
    ...body,
    rule,
    failing.length
      ? `${failing.length} fact${failing.length === 1 ? "" : "s"} the provider does not handle: ` +
        failing.map((f) => f.fact).join("; ")
      : "every fact observed holds or is handled",
  ].join("\n");
}
