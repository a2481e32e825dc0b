/**
 * `acp-threads usage [--since 7d] [--by day|agent|model|thread] [--agent A] [--thread ID] [--format text|json]`:
 * tokens and costs the agents reported, summed from the usage ledger (derived from the thread files).
 */
import { localEngine } from "../../core/engine/local";
import type { EngineReplies } from "../../core/engine/requests";
import { resolveHome } from "../../core/store/paths";
import { formatContext, formatCosts, formatTokens } from "../../core/usage/format";
import { parseSince } from "../../core/usage/since";
import { USAGE_GROUPS } from "../../core/usage/groups";
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";

export const main = command(
  {
    name: "usage",
    synopsis: "[--since S] [--by day|agent|model|thread] [--agent A] [--thread ID] [--format text|json]",
    flags: {
      since: {
        type: "string",
        arg: "S",
        help: "from S: a duration (30m, 24h, 7d, 2w), 'today' or a date (2026-05-01); default: everything",
      },
      by: { type: "enum", values: USAGE_GROUPS, default: "day", help: "rows per" },
      agent: { type: "string", arg: "A", help: "only this agent (id or name)" },
      thread: { type: "string", arg: "ID", help: "only this thread (id or unique prefix)" },
      format: FORMAT,
    },
    notes: `Costs are what the agents reported (claude-agent-acp and opencode report one; codex-acp and gemini do not),
in their own currency; tokens are the turn usage agents report. Nothing is estimated.`,
  },
  async ({ io, flags }) => {
    const { by, format } = flags;
    const since = flags.since !== undefined ? parseSince(flags.since) : undefined;
    const engine = localEngine({ home: resolveHome(io.env) });
    const threadId =
      flags.thread !== undefined
        ? (await engine.call({ op: "threads.resolve", threadId: flags.thread })).threadId
        : undefined;
    const report = await engine.call({
      op: "usage.report",
      by,
      ...(since !== undefined ? { since } : {}),
      ...(threadId !== undefined ? { threadId } : {}),
      ...(flags.agent !== undefined ? { agent: flags.agent } : {}),
    });
    if (format === "json") io.stdout.write(JSON.stringify(report, null, 2) + "\n");
    else io.stdout.write(renderText(report));
    return EXIT.ok;
  },
);

type UsageReport = EngineReplies["usage.report"];
type UsageRow = UsageReport["rows"][number];

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
