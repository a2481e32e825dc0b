/**
 * `acp-threads usage [--since 7d] [--by day|agent|model|thread] [--agent A] [--thread ID] [--format text|json]`:
 * tokens and costs the agents reported, summed from the usage ledger (derived from the thread files).
 */
import { openSyncedIndex } from "../../core/index/threads-index";
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { formatContext, formatCosts, formatTokens, parseSince } from "../../core/usage/format";
import { openUsageIndex } from "../../core/usage/usage-index";
import { queryUsage, USAGE_GROUPS, type UsageReport, type UsageRow } from "../../core/usage/usage-query";
import { reportError } from "../exec/context";
import { oneOf, parseFlags } from "../flags";
import { EXIT, type CliIO } from "../io";

const USAGE = `usage: acp-threads usage [options]

  --since S        from S: a duration (30m, 24h, 7d, 2w), 'today' or a date (2026-05-01); default: everything
  --by G           day (default) | agent | model | thread
  --agent A        only this agent (id or name)
  --thread ID      only this thread (id or unique prefix)
  --format F       text (default) | json

Costs are what the agents reported (claude-agent-acp and opencode report one; codex-acp and gemini do not),
in their own currency; tokens are the turn usage agents report. Nothing is estimated.
`;

const FLAGS = {
  since: { type: "string" },
  by: { type: "string" },
  agent: { type: "string" },
  thread: { type: "string" },
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function main(io: CliIO): Promise<number> {
  try {
    const { values, positionals } = parseFlags(io.argv, FLAGS);
    if (values.help) {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (positionals.length) {
      io.stderr.write(`acp-threads usage: unexpected argument '${positionals[0]}'\n\n${USAGE}`);
      return EXIT.usage;
    }
    const by = oneOf("by", values.by, USAGE_GROUPS, "day");
    const format = oneOf("format", values.format, ["text", "json"] as const, "text");
    const since = typeof values.since === "string" ? parseSince(values.since) : undefined;
    const store = new ThreadStore(resolveHome(io.env));
    const threadId = typeof values.thread === "string" ? store.resolveId(values.thread) : undefined;
    const { index } = openUsageIndex(store);
    let report: UsageReport;
    try {
      report = queryUsage(index, {
        by,
        since,
        threadId,
        agent: typeof values.agent === "string" ? values.agent : undefined,
      });
    } finally {
      index.close();
    }
    if (by === "thread") labelThreads(store, report.rows);
    if (format === "json") io.stdout.write(JSON.stringify(report, null, 2) + "\n");
    else io.stdout.write(renderText(report));
    return EXIT.ok;
  } catch (err) {
    return reportError(io, "usage", err);
  }
}

function labelThreads(store: ThreadStore, rows: UsageRow[]): void {
  const { index } = openSyncedIndex(store);
  try {
    for (const r of rows) r.label = index.get(r.key)?.title ?? r.key;
  } finally {
    index.close();
  }
}

const COLUMNS = ["turns", "input", "output", "cache r/w", "total", "cost", "context (max)"];

function cells(r: Omit<UsageRow, "key" | "label">): string[] {
  const cache =
    r.cachedReadTokens || r.cachedWriteTokens
      ? `${formatTokens(r.cachedReadTokens)}/${formatTokens(r.cachedWriteTokens)}`
      : "";
  return [
    String(r.turns),
    r.turns ? formatTokens(r.inputTokens) : "",
    r.turns ? formatTokens(r.outputTokens) : "",
    cache,
    r.turns ? formatTokens(r.totalTokens) : "",
    formatCosts(r.costs),
    formatContext(r.contextUsed, r.contextSize),
  ];
}

export function renderText(report: UsageReport): string {
  if (!report.rows.length)
    return `no usage recorded${report.since ? ` since ${new Date(report.since).toLocaleString()}` : ""}\n`;
  const table = [
    [report.by, ...COLUMNS],
    ...report.rows.map((r) => [r.label.length > 48 ? `${r.label.slice(0, 47)}…` : r.label, ...cells(r)]),
    ["total", ...cells(report.total)],
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = table.map(line);
  out.splice(table.length - 1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  const since = report.since ? `since ${new Date(report.since).toLocaleString()}` : "all time";
  return `Usage by ${report.by}, ${since} (blank = not reported by the agent)\n${out.join("\n")}\n`;
}
