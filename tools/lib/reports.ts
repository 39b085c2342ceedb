// What mediahost-drift prints, for one stack or a fleet: a plain table, JSON, JUnit XML (CI systems
// show each drifted resource as a failed test) or Markdown (a pull-request comment).
import { cell, displayName, type ResourceDrift, renderTable, rowsOf } from "./diff";

export type Format = "table" | "json" | "junit" | "markdown";
export const FORMATS: Format[] = ["table", "json", "junit", "markdown"];

export interface StackReport {
  stack: string;
  /** Resources the refresh looked at (the stack and provider resources excluded), by display name. */
  checked: number;
  drift: boolean;
  resources: ResourceDrift[];
  /** Every checked resource ("Kind name"), for reports that list the clean ones too. */
  names?: string[];
  /** Why the stack could not be checked; its drift is then unknown. */
  error?: string;
  seconds?: number;
  /** The calls the check cost, by account, then counter, as the account's counters counted them. */
  calls?: AccountCalls;
  /** Resources a `--budget` left unchecked, for the next run (display names). */
  left?: string[];
  /** When the counter that held the check back frees up again (ISO time). */
  resumeAfter?: string;
}

export interface CounterSpend {
  calls: number;
  /** The counter's hourly limit. */
  limit: number;
}

/** Calls by account (`<client id> at <host>`), then by counter. */
export type AccountCalls = Record<string, Record<string, CounterSpend>>;

/**
 * `rest:global 2,412 (34.5% of the hour's 7,000)` for each counter the check spent on, each
 * account named first when there are several.
 */
export function spendLine(calls: AccountCalls): string {
  const accounts = Object.entries(calls).sort(([a], [b]) => a.localeCompare(b));
  if (accounts.length === 1) return counterLine(accounts[0]![1]);
  return accounts.length
    ? accounts.map(([account, c]) => `${account}: ${counterLine(c)}`).join("; ")
    : "none";
}

function counterLine(calls: Record<string, CounterSpend>): string {
  const parts = Object.entries(calls)
    .filter(([, c]) => c.calls > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([name, c]) =>
        `${name} ${c.calls.toLocaleString("en-US")} (${shareOf(c)} of the hour's ${c.limit.toLocaleString("en-US")})`,
    );
  return parts.length ? parts.join(", ") : "none";
}

const shareOf = (c: CounterSpend) => `${((100 * c.calls) / c.limit).toFixed(1)}%`;

/** What a check held back by its budget left, in one line. */
function leftLine(r: StackReport): string {
  const n = r.left?.length ?? 0;
  const when = r.resumeAfter ? `; the counter frees up at ${r.resumeAfter}` : "";
  return `${n} resource${n === 1 ? "" : "s"} left for the next run (--budget)${when}`;
}

export interface FleetSummary {
  stacks: number;
  clean: number;
  drifted: number;
  failed: number;
  resources: number;
  driftedResources: number;
  /** Stacks a `--budget` checked in part, with no drift in that part. */
  partial: number;
  /** The fleet's calls by account and counter (every stack's check), where any were counted. */
  calls?: AccountCalls;
}

export function summarize(reports: StackReport[]): FleetSummary {
  return {
    stacks: reports.length,
    clean: reports.filter((r) => !r.error && !r.drift && !r.left?.length).length,
    drifted: reports.filter((r) => !r.error && r.drift).length,
    failed: reports.filter((r) => r.error).length,
    resources: reports.reduce((n, r) => n + r.checked, 0),
    driftedResources: reports.reduce((n, r) => n + r.resources.length, 0),
    partial: reports.filter((r) => !r.error && !r.drift && r.left?.length).length,
    ...(reports.some((r) => r.calls) ? { calls: totalCalls(reports) } : {}),
  };
}

/** Every stack's calls added up by account and counter. */
export function totalCalls(reports: { calls?: AccountCalls }[]): AccountCalls {
  const total: AccountCalls = {};
  for (const r of reports)
    for (const [account, counters] of Object.entries(r.calls ?? {})) {
      const sum = total[account] ?? {};
      for (const [name, c] of Object.entries(counters))
        sum[name] = { calls: (sum[name]?.calls ?? 0) + c.calls, limit: c.limit };
      total[account] = sum;
    }
  return total;
}

/**
 * 0 clean, 2 drift in any stack, 1 error in any stack (the others still reported), 3 no drift in
 * what was checked but a `--budget` left resources for the next run.
 */
export function exitCode(reports: StackReport[]): number {
  if (reports.some((r) => r.error)) return 1;
  if (reports.some((r) => r.drift)) return 2;
  return reports.some((r) => r.left?.length) ? 3 : 0;
}

function summaryLine(s: FleetSummary): string {
  return (
    `${s.stacks} stack${s.stacks === 1 ? "" : "s"}: ${s.clean} clean, ${s.drifted} drifted, ${s.failed} failed` +
    `${s.partial ? `, ${s.partial} checked in part` : ""}; ` +
    `${s.resources} resources checked, ${s.driftedResources} drifted` +
    `${s.calls ? `; calls: ${spendLine(s.calls)}` : ""}`
  );
}

export function render(format: Format, reports: StackReport[]): string {
  switch (format) {
    case "json":
      return json(reports);
    case "junit":
      return junit(reports);
    case "markdown":
      return markdown(reports);
    default:
      return table(reports);
  }
}

function table(reports: StackReport[]): string {
  const one = reports.length === 1;
  const parts = reports.map((r) => {
    const head = one ? "" : `Stack ${r.stack}: `;
    const costs = [
      ...(r.calls ? [`Calls: ${spendLine(r.calls)}.`] : []),
      ...(r.left?.length ? [`${leftLine(r)}.`] : []),
    ];
    if (r.error) return [`${head}ERROR: ${r.error}`, ...costs].join("\n");
    if (!r.drift) return [`${head}No drift: ${r.checked} resources match the account.`, ...costs].join("\n");
    const drifted = `${one ? "" : `Stack ${r.stack}: ${r.resources.length} drifted\n`}${renderTable(rowsOf(r.resources))}`;
    return [drifted, ...costs].join("\n");
  });
  if (!one) parts.push(summaryLine(summarize(reports)));
  return parts.join("\n\n");
}

/** One stack: its report as it always was; several: every report and one summary. */
function json(reports: StackReport[]): string {
  const strip = ({ names: _, ...r }: StackReport) => r;
  if (reports.length === 1) return JSON.stringify(strip(reports[0]!), null, 2);
  return JSON.stringify({ summary: summarize(reports), stacks: reports.map(strip) }, null, 2);
}

const xml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function junit(reports: StackReport[]): string {
  const s = summarize(reports);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mediahost-drift" tests="${s.resources + s.failed}" failures="${s.driftedResources}" errors="${s.failed}">`,
  ];
  for (const r of reports) {
    const drifted = new Map(r.resources.map((d) => [displayName(d), d]));
    const names = [...new Set([...(r.names ?? []), ...drifted.keys()])].sort();
    const tests = names.length + (r.error ? 1 : 0);
    lines.push(
      `  <testsuite name="${xml(r.stack)}" tests="${tests}" failures="${drifted.size}" errors="${r.error ? 1 : 0}" time="${(r.seconds ?? 0).toFixed(1)}">`,
    );
    if (r.calls || r.left?.length) {
      lines.push("    <properties>");
      const accounts = Object.entries(r.calls ?? {}).sort(([a], [b]) => a.localeCompare(b));
      for (const [account, counters] of accounts)
        for (const [name, c] of Object.entries(counters).sort(([a], [b]) => a.localeCompare(b))) {
          const what = accounts.length > 1 ? `${account} ${name}` : name;
          lines.push(
            `      <property name="calls ${xml(what)}" value="${c.calls} of ${c.limit} an hour (${shareOf(c)})"/>`,
          );
        }
      if (r.left?.length) lines.push(`      <property name="left" value="${xml(leftLine(r))}"/>`);
      lines.push("    </properties>");
    }
    if (r.error) {
      lines.push(`    <testcase classname="${xml(r.stack)}" name="refresh preview">`);
      lines.push(`      <error message="${xml(r.error.split("\n")[0] ?? "")}">${xml(r.error)}</error>`);
      lines.push("    </testcase>");
    }
    for (const name of names) {
      const d = drifted.get(name);
      if (!d) {
        lines.push(`    <testcase classname="${xml(r.stack)}" name="${xml(name)}"/>`);
        continue;
      }
      const what =
        d.kind === "gone"
          ? "gone from the account"
          : `drift: ${d.properties.map((p) => p.property).join(", ")}`;
      const detail =
        d.kind === "gone"
          ? `${name} is in the stack's state but no longer in the account`
          : d.properties
              .map((p) => `${p.property}: ${cell(p.state)} in the state, ${cell(p.account)} in the account`)
              .join("\n");
      lines.push(`    <testcase classname="${xml(r.stack)}" name="${xml(name)}">`);
      lines.push(`      <failure message="${xml(what)}">${xml(detail)}</failure>`);
      lines.push("    </testcase>");
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return lines.join("\n");
}

const md = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function markdown(reports: StackReport[]): string {
  const s = summarize(reports);
  const lines = [
    "## mediahost drift check",
    "",
    summaryLine(s),
    "",
    "| stack | result | resources checked | drifted | calls (share of the hour) |",
    "|---|---|---|---|---|",
  ];
  for (const r of reports) {
    const result = r.error
      ? "❌ error"
      : r.drift
        ? "⚠️ drift"
        : r.left?.length
          ? "⏸ part checked"
          : "✅ clean";
    const calls = r.calls ? spendLine(r.calls) : "";
    lines.push(
      `| ${md(r.stack)} | ${result} | ${r.checked} | ${r.error ? "?" : r.resources.length} | ${md(calls)} |`,
    );
  }
  for (const r of reports.filter((x) => x.left?.length))
    lines.push("", `${md(r.stack)}: ${md(leftLine(r))}.`);
  for (const r of reports.filter((x) => x.error || x.drift)) {
    lines.push("", `### ${md(r.stack)}`, "");
    if (r.error) {
      lines.push("```", r.error, "```");
      continue;
    }
    lines.push("| resource | property | in state | in account |", "|---|---|---|---|");
    for (const row of rowsOf(r.resources)) {
      lines.push(`| ${md(row.resource)} | ${md(row.property)} | ${md(row.state)} | ${md(row.account)} |`);
    }
  }
  return lines.join("\n");
}
