/**
 * The "Sessions" tree: Live (agent threads and exec runs with status, agent, elapsed), then past threads
 * from the threads index grouped by day, filtered by workspace (default: this one) and agent.
 */
import * as vscode from "vscode";
import type { LiveSessions } from "./live-sessions";
import { sessionTooltip, shortAgent, statusIcon, statusLook } from "./session-item";
import { decorateHandoff, decorateLive, type HandoffSummary } from "./session-ops-look";
import type { SupervisorState } from "../core/watchdog/supervisor";
import type { LiveSession } from "./live-session";
import { loginText } from "./login-view";
import type { WorktreeRef } from "../core/model/records";
import type { WorktreeState } from "../core/worktree/state";
import { describeWorktreeState, type WorktreeStates } from "./worktrees/states";
import { age, dayLabel, elapsed } from "./time-format";

export interface PastThreadSummary {
  threadId: string;
  title: string;
  /** Display name of the agent, and its id (preset id or custom name) for Resume. */
  agent: string;
  agentId: string;
  cwd: string;
  sessionId?: string;
  updatedAt: string;
  mode: "acp" | "exec";
  /** Handoff links (#13). */
  handoff?: HandoffSummary;
  /** The thread's git worktree (#25). */
  worktree?: WorktreeRef;
}

export interface SessionsFilter {
  /** Workspace folder paths to show; empty = all workspaces. */
  cwds: string[];
  agent?: string;
}

export type SessionNode =
  | { type: "group"; id: string; label: string; children: SessionNode[] }
  | { type: "live"; threadId: string }
  | { type: "exec"; runId: string }
  | { type: "past"; thread: PastThreadSummary }
  /** A thread's git worktree (#25) with its state; its session (live or past) below it. */
  | { type: "worktree"; threadId: string; ref: WorktreeRef; children: SessionNode[] };

const TICK_MS = 5_000;
/** Ticks between two refreshes for the ages alone (60 s: the ages are in minutes at best). */
const AGE_TICKS = 12;

export class SessionsTree implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<SessionNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  filter: SessionsFilter = { cwds: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath) };
  readonly #sub: vscode.Disposable;
  readonly #ticker: NodeJS.Timeout;

  constructor(
    private readonly live: LiveSessions,
    private readonly listPast: (filter: SessionsFilter) => Promise<PastThreadSummary[]>,
    private readonly ops?: {
      stateOf(session: LiveSession): SupervisorState | undefined;
      handoffOf(session: LiveSession): HandoffSummary | undefined;
    },
    private readonly worktrees?: WorktreeStates,
  ) {
    this.#sub = live.onDidChange(() => this.refresh());
    // Elapsed times of working sessions tick every 5 s; the ages of the other rows ("5m") once a minute (#37)
    let ticks = 0;
    this.#ticker = setInterval(() => {
      const working = live.all().some((s) => s.status === "working" || s.status === "waiting_permission");
      if (working || ++ticks % AGE_TICKS === 0) this.refresh();
    }, TICK_MS);
  }

  refresh(): void {
    this.#changed.fire(undefined);
  }

  async getChildren(node?: SessionNode): Promise<SessionNode[]> {
    if (node) return node.type === "group" || node.type === "worktree" ? node.children : [];
    const worktreeNodes: SessionNode[] = [];
    const inWorktree = (threadId: string, ref: WorktreeRef | undefined, child: SessionNode): boolean => {
      if (!ref) return false;
      worktreeNodes.push({ type: "worktree", threadId, ref, children: [child] });
      return true;
    };
    const liveNodes: SessionNode[] = [
      ...this.live
        .all()
        .filter((s) => !inWorktree(s.threadId, s.worktree, { type: "live", threadId: s.threadId }))
        .map((s): SessionNode => ({ type: "live", threadId: s.threadId })),
      ...this.live.execs().map((e): SessionNode => ({ type: "exec", runId: e.runId })),
    ];
    const liveIds = new Set([
      ...this.live.all().map((s) => s.threadId),
      ...this.live.execs().map((e) => e.threadId ?? ""),
    ]);
    const past = (await this.listPast(this.filter).catch(() => [])).filter((t) => !liveIds.has(t.threadId));
    const groups = new Map<string, SessionNode[]>();
    for (const t of past) {
      if (inWorktree(t.threadId, t.worktree, { type: "past", thread: t })) continue;
      const label = dayLabel(t.updatedAt);
      if (!groups.has(label)) groups.set(label, []);
      groups.get(label)!.push({ type: "past", thread: t });
    }
    const out: SessionNode[] = [];
    if (liveNodes.length) out.push({ type: "group", id: "live", label: "Live", children: liveNodes });
    if (worktreeNodes.length) out.push({ type: "group", id: "worktrees", label: "Worktrees", children: worktreeNodes });
    for (const [label, children] of groups) out.push({ type: "group", id: `day:${label}`, label, children });
    return out;
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    switch (node.type) {
      case "group": {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.contextValue = "group";
        return item;
      }
      case "worktree":
        return worktreeItem(node, this.worktrees?.get(node.ref));
      case "live": {
        const s = this.live.get(node.threadId);
        const item = new vscode.TreeItem(s?.title ?? node.threadId);
        item.id = `live:${node.threadId}`;
        const status = s?.status ?? "closed";
        const agent = s?.agent.displayName ?? "";
        const running = elapsed(Date.now() - (s?.startedAt ?? Date.now()));
        item.description = `${shortAgent(agent)} · ${running}`;
        item.tooltip = sessionTooltip({
          title: s?.title ?? "",
          status,
          agent,
          cwd: s?.cwd,
          when: `started ${running} ago`,
          sessionId: s?.sessionId,
          extra: s?.statusDetail,
          login: s && loginText(s),
        });
        item.iconPath = statusIcon(status);
        item.accessibilityInformation = { label: `${item.label}, ${statusLook(status).words}, ${agent}, ${running}` };
        // Cancel is offered only while a turn runs (an idle session has nothing to cancel)
        item.contextValue = status === "working" || status === "waiting_permission" ? "live-working" : "live";
        item.command = { command: "acpThreads.openThread", title: "Open", arguments: [node] };
        if (s) decorateHandoff(item, this.ops?.handoffOf(s));
        if (s) decorateLive(item, this.ops?.stateOf(s));
        return item;
      }
      case "exec": {
        const e = this.live.exec(node.runId);
        const item = new vscode.TreeItem(e?.title ?? node.runId);
        item.id = `exec:${node.runId}`;
        const running = elapsed(Date.now() - (e?.startedAt ?? Date.now()));
        const code = e?.status === "failed" && e.exitCode != null ? ` · exit ${e.exitCode}` : "";
        item.description = `exec${code} · ${running}`;
        item.tooltip = sessionTooltip({
          title: e?.title ?? node.runId,
          status: e?.status ?? "lost",
          agent: "exec run",
          cwd: e?.cwd,
          when: `started ${running} ago`,
          extra: `${e?.commandLine ?? ""}${code ? `\n\nexited with code ${e!.exitCode}` : ""}`,
        });
        item.iconPath = statusIcon(e?.status ?? "lost");
        item.contextValue = "exec";
        item.command = { command: "acpThreads.openThread", title: "Show terminal", arguments: [node] };
        return item;
      }
      case "past": {
        const t = node.thread;
        const item = new vscode.TreeItem(t.title || "(untitled)");
        item.id = `past:${t.threadId}`;
        item.description = `${shortAgent(t.agent)} · ${age(t.updatedAt)}`;
        const status = t.mode === "exec" ? "past_exec" : "past_acp";
        item.tooltip = sessionTooltip({
          title: t.title,
          status,
          agent: t.agent,
          cwd: t.cwd,
          when: `last active ${new Date(t.updatedAt).toLocaleString()}`,
          sessionId: t.sessionId,
        });
        item.iconPath = statusIcon(status);
        const ago = age(t.updatedAt);
        item.accessibilityInformation = {
          label: `${item.label}, ${t.agent}, ${ago === "now" ? "just now" : `${ago} ago`}`,
        };
        item.contextValue = "past";
        item.command = { command: "acpThreads.openThread", title: "Open", arguments: [node] };
        decorateHandoff(item, t.handoff);
        return item;
      }
    }
  }

  dispose(): void {
    clearInterval(this.#ticker);
    this.#sub.dispose();
    this.#changed.dispose();
  }
}

/** A worktree node: the repository and the worktree's folder name, its state against the base. */
function worktreeItem(
  node: Extract<SessionNode, { type: "worktree" }>,
  state: WorktreeState | undefined,
): vscode.TreeItem {
  const name = node.ref.path.split(/[\\/]/).pop() ?? node.ref.path;
  const repo = node.ref.repo.split(/[\\/]/).pop() ?? node.ref.repo;
  const item = new vscode.TreeItem(`${repo} · ${name}`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `worktree:${node.threadId}`;
  item.description = describeWorktreeState(state);
  const files = state?.files.slice(0, 20).map((f) => `  ${f.change[0]!.toUpperCase()} ${f.path}`) ?? [];
  item.tooltip = [
    `Worktree ${node.ref.path}`,
    `of ${node.ref.repo}, base ${node.ref.base.slice(0, 10)}`,
    describeWorktreeState(state),
    ...files,
    ...(state && state.files.length > 20 ? [`  … ${state.files.length - 20} more`] : []),
  ].join("\n");
  item.iconPath = new vscode.ThemeIcon(state && !state.exists ? "warning" : "git-branch");
  item.contextValue = "worktree";
  item.accessibilityInformation = { label: `worktree ${repo} ${name}, ${describeWorktreeState(state)}` };
  return item;
}
