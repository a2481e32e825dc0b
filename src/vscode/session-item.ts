/**
 * How a session reads in the sessions tree: at the default sidebar width only the (cut) title shows, so the
 * status is the icon (coloured, named in the tooltip), the description carries agent and age, and the tooltip
 * has everything. Pure apart from the vscode value types; unit-checked through the host suite.
 */
import * as vscode from "vscode";
import { displayTitle } from "./thread-title";

interface StatusLook {
  icon: string;
  color?: string;
  words: string;
}

const LOOK: Record<string, StatusLook> = {
  starting: { icon: "loading~spin", words: "Starting" },
  working: { icon: "sync~spin", color: "charts.blue", words: "Working" },
  waiting_permission: { icon: "shield", color: "charts.yellow", words: "Waiting for your permission" },
  idle: { icon: "circle-filled", color: "charts.green", words: "Ready for a follow-up" },
  failed: { icon: "error", color: "errorForeground", words: "Failed" },
  closed: { icon: "pass", words: "Finished" },
  running: { icon: "terminal", color: "charts.blue", words: "Running" },
  exited: { icon: "pass", words: "Exited" },
  killed: { icon: "circle-slash", words: "Killed" },
  timeout: { icon: "watch", color: "charts.orange", words: "Timed out" },
  lost: { icon: "question", words: "Lost (the process is gone)" },
  interrupted: { icon: "debug-disconnect", color: "charts.orange", words: "Interrupted (the thread host ended)" },
  past_acp: { icon: "comment-discussion", words: "Past session" },
  past_exec: { icon: "terminal", words: "Past exec run" },
};

export function statusLook(status: string): StatusLook {
  return LOOK[status] ?? { icon: "circle-outline", words: status.replace(/_/g, " ") };
}

export function statusIcon(status: string): vscode.ThemeIcon {
  const l = statusLook(status);
  return new vscode.ThemeIcon(l.icon, l.color ? new vscode.ThemeColor(l.color) : undefined);
}

/** Long agent labels ("Demo: Codex (local scripted model)") shortened for the description. */
export const shortAgent = (name: string) => name.replace(/\s*\(.*\)\s*$/, "").trim() || name;

export function sessionTooltip(p: {
  title: string;
  status: string;
  agent: string;
  cwd?: string;
  when?: string;
  sessionId?: string;
  extra?: string;
  /** The agent's login state as a running agent last reported it (login-view.ts). */
  login?: string;
}): vscode.MarkdownString {
  const l = statusLook(p.status);
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escapeMd(displayTitle(p.title))}**\n\n`);
  md.appendMarkdown(`$(${l.icon.replace(/~spin$/, "")}) ${escapeMd(l.words)} · ${escapeMd(p.agent)}`);
  if (p.when) md.appendMarkdown(` · ${escapeMd(p.when)}`);
  md.appendMarkdown("\n\n");
  if (p.cwd) md.appendMarkdown(`$(folder) \`${p.cwd.replace(/`/g, "'")}\`\n\n`);
  if (p.login) md.appendMarkdown(`$(account) ${escapeMd(p.login)}\n\n`);
  if (p.extra) md.appendMarkdown(`${escapeMd(p.extra)}\n\n`);
  if (p.sessionId) md.appendMarkdown(`session \`${p.sessionId.replace(/`/g, "'")}\``);
  return md;
}

export const escapeMd = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, "\\$&");
