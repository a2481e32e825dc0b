/**
 * How #13's state shows on a sessions-tree item: a live session the watchdog flagged gets a warning icon, the
 * trouble in its description (and, on hover, its tooltip); a thread that continues
 * another or was handed off says so. Kept apart
 * from the tree's own look (session-item.ts): the tree calls `decorateLive` / `decorateHandoff` on its items.
 */
import * as vscode from "vscode";
import type { SupervisorState } from "../core/model/watchdog";

const WORDS: Record<string, string> = {
  stalled: "Stalled",
  rate_limited: "Rate-limited",
  overloaded: "API overloaded",
  died: "Agent died",
};

export interface HandoffSummary {
  /** The thread this one continues. */
  from?: string;
  /** Threads this one was handed off to. */
  to: string[];
}

export function decorateLive(
  item: vscode.TreeItem,
  state: SupervisorState | undefined,
  contextValue = "live-alert",
): void {
  const alert = state?.alert;
  if (!alert) return;
  const words = WORDS[alert.kind] ?? alert.kind;
  item.iconPath = new vscode.ThemeIcon("warning", new vscode.ThemeColor("list.warningForeground"));
  item.description = `${words} · ${String(item.description ?? "")}`;
  item.accessibilityInformation = { label: `${String(item.label)}, ${words}: ${alert.message}` };
  item.contextValue = contextValue;
}

/** A thread (live or past) that continues another or was handed off says so; its tooltip names the other. */
export function decorateHandoff(item: vscode.TreeItem, handoff: HandoffSummary | undefined): void {
  if (!handoff || (!handoff.from && !handoff.to.length)) return;
  const parts = [handoff.from ? "continues a handoff" : "", handoff.to.length ? "handed off" : ""].filter(Boolean);
  item.description = `${String(item.description ?? "")} · ${parts.join(", ")}`;
}

/** The watchdog's alert at the end of a row's tooltip (built on hover: sessions-tooltips.ts). */
export function alertTip(md: vscode.MarkdownString, state: SupervisorState | undefined): vscode.MarkdownString {
  const alert = state?.alert;
  if (!alert) return md;
  const next = state.running ? `${state.running}…` : state.next ? `next: ${state.next}` : "no retry left";
  return md.appendMarkdown(`\n\n$(warning) ${alert.message} (${next})`);
}

/** The threads a row's thread continues or was handed off to, at the end of its tooltip. */
export function handoffTip(md: vscode.MarkdownString, handoff: HandoffSummary | undefined): vscode.MarkdownString {
  if (handoff?.from) md.appendMarkdown(`\n\n$(arrow-left) continues thread \`${handoff.from}\``);
  for (const id of handoff?.to ?? []) md.appendMarkdown(`\n\n$(arrow-right) handed off to thread \`${id}\``);
  return md;
}
