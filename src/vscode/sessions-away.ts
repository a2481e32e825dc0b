/**
 * "Since you left" in the Sessions tree (sessions-tree.ts): its row (what ended, failed or waits for input since
 * the window last lost focus), the past threads below it, and below each of those the files it changed since
 * then (away-files.ts reads them).
 */
import * as vscode from "vscode";
import { awayKind, awayLine, type AwayKind } from "../core/index/away-summary";
import type { AwayFileNode } from "./away-files";

/** What of a past thread "Since you left" reads (a PastThreadSummary, sessions-tree.ts). */
interface AwayThread {
  threadId: string;
  cwd: string;
  updatedAt: string;
  status?: string;
}

/** A past thread's row (a SessionNode); under "Since you left", the files its turns changed since then. */
export interface PastNode<T extends AwayThread> {
  type: "past";
  thread: T;
  under?: "away";
  files?: string[];
}

/** "Since you left" (a SessionNode): what ended, failed or waits for input since `since`; its threads below it. */
export interface AwayNode<T extends AwayThread> {
  type: "away";
  since: string;
  counts: Record<AwayKind, number>;
  children: PastNode<T>[];
}

/** "Since you left": past threads active since `since` that ended, failed or wait for input; none: no row. */
export function awayNode<T extends AwayThread>(past: T[], since: string): AwayNode<T> | undefined {
  const counts: Record<AwayKind, number> = { ended: 0, failed: 0, waiting: 0, running: 0 };
  const children: PastNode<T>[] = [];
  for (const t of past) {
    if (t.updatedAt < since || !t.status) continue;
    const kind = awayKind(t.status);
    if (kind === "running") continue; // a live thread is in Live
    counts[kind]++;
    children.push({ type: "past", thread: t, under: "away" });
  }
  return children.length ? { type: "away", since, counts, children } : undefined;
}

/** The "Since you left" row: the counts, since when in its tooltip. */
export function awayItem(node: AwayNode<AwayThread>): vscode.TreeItem {
  const item = new vscode.TreeItem("Since you left", vscode.TreeItemCollapsibleState.Collapsed);
  item.id = "away";
  item.description = awayLine(node.counts);
  item.tooltip = `Since ${new Date(node.since).toLocaleString()}: ${awayLine(node.counts)}`;
  item.iconPath = new vscode.ThemeIcon(node.counts.failed ? "warning" : "bell");
  item.contextValue = "away";
  return item;
}

/** The rows below a past thread's row under "Since you left": the files it changed since then. */
export function awayFileRows(node: PastNode<AwayThread>): AwayFileNode[] {
  return (node.files ?? []).map((path): AwayFileNode => ({
    type: "file",
    threadId: node.thread.threadId,
    cwd: node.thread.cwd,
    path,
  }));
}

/** A past thread's row under "Since you left" with changed files: they are below it, the row says how many. */
export function withAwayFiles(item: vscode.TreeItem, files: string[] | undefined): void {
  if (!files?.length) return;
  item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
  item.description = `${item.description as string} · ${files.length} file${files.length === 1 ? "" : "s"}`;
}
