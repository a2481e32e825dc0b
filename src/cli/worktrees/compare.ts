/**
 * The comparison `acp-threads run --agent A --agent B [--runs N] --worktrees` prints once every candidate is done:
 * one line per candidate, best first (`*` marks a passed check), in plain columns that fit 80 columns; which one
 * leads and why ("best" only for a reason beyond speed, else "fastest", as the compare view says); then each
 * candidate's thread, worktree, answer (its last line) and error; then the commands that bring one home and
 * discard the rest.
 */
import { checkPassed, leaderOf, type CandidateSummary, type CheckResult } from "../../core/worktree/ranking";
import { formatCosts, formatTokens } from "../../core/usage/format";
import { formatDuration, table } from "../exec/context";
import { shortId } from "../threads/common";

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function describeCheck(c: CheckResult | undefined): string {
  if (!c) return "-";
  if (c.timedOut) return "timed out";
  if (c.aborted) return "stopped";
  if (c.exitCode === null) return c.signal ? `killed (${c.signal})` : "did not run";
  return checkPassed(c) ? "pass" : `fail (${c.exitCode})`;
}

/** The last non-empty line of an answer (where agents sum up), on one line. */
function answerLine(answer: string): string {
  const lines = answer.split("\n").map((l) => l.trim());
  return lines.filter(Boolean).at(-1) ?? "";
}

export function compareTable(ranked: readonly CandidateSummary[]): string {
  const rows = [["", "CANDIDATE", "STATUS", "FILES", "+/-", "CHECK", "TOKENS", "COST", "TIME"]];
  for (const c of ranked) {
    const changed = c.worktree !== null;
    rows.push([
      checkPassed(c.check) ? "*" : "",
      clip(c.label, 20),
      c.status === "done" ? (c.stopReason ?? "done") : "failed",
      changed ? String(c.files.length) : "-",
      changed ? `+${c.added} -${c.removed}` : "-",
      describeCheck(c.check),
      c.usage ? formatTokens(c.usage.totalTokens) : "-",
      formatCosts(c.costs) || "-",
      formatDuration(c.durationMs),
    ]);
  }
  let out = table(rows);
  const leader = leaderOf(ranked);
  if (leader) out += `${leader.kind}: ${leader.label} (${leader.why})\n`;
  for (const c of ranked) {
    out += `\n${c.label}${c.threadId ? `  thread ${shortId(c.threadId)}` : ""}\n`;
    if (c.worktree) out += `  worktree ${c.worktree.path}\n`;
    const said = answerLine(c.answer);
    if (said) out += `  answer   ${clip(said, 68)}\n`;
    if (c.error) out += `  error    ${clip(c.error.replace(/\s+/g, " "), 68)}\n`;
    if (c.check && !checkPassed(c.check)) {
      const last = answerLine(c.check.outputTail);
      if (last) out += `  check    ${clip(last, 68)}\n`;
    }
    for (const n of c.notes) out += `  note     ${n}\n`;
  }
  const kept = ranked.filter((c) => c.threadId && c.worktree);
  if (kept.length) {
    const id = (c: CandidateSummary) => shortId(c.threadId!);
    out += `\nnext: bring one candidate's changes into ${kept[0]!.worktree!.repo}:\n`;
    for (const c of kept) out += `  acp-threads worktrees apply ${id(c)}    # ${c.label}\n`;
    out += `then discard the others (or keep them to look at):\n`;
    for (const c of kept) out += `  acp-threads worktrees discard ${id(c)} --force    # ${c.label}\n`;
  }
  return out;
}
