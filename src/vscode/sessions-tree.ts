/**
 * The "Sessions" tree: "Since you left" (what ended, failed or waits for input since the window last lost focus),
 * Live (agent threads and exec runs with status, agent, elapsed), then past threads from the threads index, the
 * last week by day and older ones by month, a page at a time (sessions-groups.ts), filtered by workspace
 * (default: this one), agent, who started them, status and archived (persisted per workspace).
 */
import * as vscode from "vscode";
import { awayFileItem, type AwayFileNode, type AwayFiles } from "./away-files";
import type { LiveSessions } from "./live-sessions";
import { shortAgent, statusIcon } from "./session-item";
import { decorateHandoff, type HandoffSummary } from "./session-ops-look";
import type { SupervisorState } from "../core/model/watchdog";
import type { LiveSession } from "./live-session";
import type { ThreadMetadata } from "../core/model/metadata";
import type { WorktreeRef } from "../core/model/records";
import type { WorktreeStates } from "./worktrees/states";
import { age } from "./time-format";
import { page, pastGroups, PAGE } from "./sessions-groups";
import { localDay, tickRefresh, TICK_MS } from "./sessions-ticks";
import { hostedItem, type HostedRowSource } from "./host/hosted-row";
import type { HostedRow } from "./host/hosted-threads";
import { ownLiveRow, ownRunOf } from "./host/own-rows";
import { loginText } from "./login-view";
import { execItem, liveItem, worktreeItem, type LiveRow } from "./sessions-rows";
import { execTooltip, hostedTooltip, liveTooltip, pastTooltip } from "./sessions-tooltips";
import type { HostWatchdog } from "../core/host/protocol";
import { awayFileRows, awayItem, awayNode, withAwayFiles, type AwayNode, type PastNode } from "./sessions-away";

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
  /** The stored status (idle, done, failed, interrupted, live). */
  status?: string;
}

export interface SessionsFilter {
  /** Workspace folder paths to show; empty = all workspaces. */
  cwds: string[];
  agent?: string;
  /** Who started the threads (editor, cli, automation, exec, agent-import). */
  origin?: string;
  status?: string;
  /** Show the archived threads (only them) instead of the others. */
  archived?: boolean;
}

/** Where the filter is kept per workspace (workspaceState). */
const FILTER_KEY = "acpThreads.sessionsFilter";
/** When this window last lost focus (workspaceState): "Since you left" counts from there. */
const AWAY_KEY = "acpThreads.awaySince";

type GroupNode = { type: "group"; id: string; label: string; children: SessionNode[]; collapsed?: boolean };

export type SessionNode =
  | GroupNode
  /** "Show more" at the end of a group's page (#36). */
  | { type: "more"; groupId: string; left: number }
  | AwayNode<PastThreadSummary>
  | { type: "live"; threadId: string }
  /** A thread the thread host runs (#35): started by `run --detach` or another window; `thread` when listed. */
  | {
      type: "hosted";
      threadId: string;
      status: string;
      thread?: PastThreadSummary;
      watchdog?: HostWatchdog;
      detail?: string;
    }
  | { type: "exec"; runId: string }
  /** A past thread; `under` names the row it is repeated under ("away"), keeping tree ids unique. */
  | PastNode<PastThreadSummary>
  | AwayFileNode
  /** A thread's git worktree (#25) with its state; its session (live or past) below it. */
  | { type: "worktree"; threadId: string; ref: WorktreeRef; children: SessionNode[] };

export class SessionsTree implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<SessionNode | SessionNode[] | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  filter: SessionsFilter = { cwds: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath) };
  readonly #sub: vscode.Disposable;
  readonly #ticker: NodeJS.Timeout;
  readonly #subs: vscode.Disposable[] = [];
  #view: vscode.TreeView<SessionNode> | undefined;
  /** Rows on show per group beyond the first page ("Show more"). */
  readonly #shown = new Map<string, number>();
  /**
   * Each top-level node (the Live, Worktrees, day and month groups by their ids, "Since you left" as "away"), the
   * same object from one listing to the next: VS Code refreshes one element by the object it was given, so "Show
   * more" refreshes its group alone and the tick the groups whose times move (a relisting of 10,000 threads stalled
   * the view: 81 ms a step under load, #36).
   */
  readonly #kept = new Map<string, SessionNode>();
  /** The last listing's top-level nodes, and its local day: what the tick refreshes (sessions-ticks.ts). */
  #top: SessionNode[] = [];
  #listedOn = "";
  /** Since when "Since you left" counts (the window's last loss of focus), while it is to be shown. */
  away: string | undefined;
  /** The files each "Since you left" thread changed since then (away-files.ts); none when unset. */
  awayFiles: AwayFiles | undefined;

  constructor(
    private readonly live: LiveSessions,
    private readonly listPast: (filter: SessionsFilter) => Promise<PastThreadSummary[]>,
    private readonly ops?: {
      stateOf(session: LiveSession): SupervisorState | undefined;
      handoffOf(session: LiveSession): HandoffSummary | undefined;
    },
    private readonly worktrees?: WorktreeStates,
    private readonly state?: vscode.Memento,
    private readonly hosted?: HostedRowSource,
    /** The thread catalog's metadata of a thread (no file read): what a row of the window's own host shows. */
    private readonly stored?: (threadId: string) => ThreadMetadata | undefined,
  ) {
    this.#sub = live.onDidChange(() => this.refresh());
    if (hosted) this.#subs.push(hosted.onDidChange(() => this.refresh()));
    const saved = state?.get<Omit<SessionsFilter, "cwds"> & { all?: boolean }>(FILTER_KEY);
    if (saved) this.filter = { ...saved, cwds: saved.all ? [] : this.filter.cwds };
    // "Since you left" counts from the window's last loss of focus
    if (state)
      this.#subs.push(vscode.window.onDidChangeWindowState((w) => (w.focused ? this.windowBack() : this.windowLeft())));
    // Elapsed times of working sessions tick every 5 s; the ages of the other rows ("5m") once a minute (#37)
    let ticks = 0;
    this.#ticker = setInterval(() => this.tick(++ticks), TICK_MS);
  }

  refresh(): void {
    this.#changed.fire(undefined);
  }

  /**
   * The `n`th 5 s tick: the groups whose rows show a time that moved are redrawn from the last listing, not listed
   * again (sessions-ticks.ts; at 10,000 threads a relisting each 5 s of every turn, #36).
   */
  tick(n: number): void {
    const busy = (status: string) => status === "working" || status === "waiting_permission";
    const working =
      this.live.all().some((s) => busy(s.status)) ||
      this.live.execs().some((e) => e.status === "running") ||
      this.#ownRows().some((r) => busy(r.status));
    const nodes = tickRefresh(this.#top, topKey, { n, working, dayChanged: localDay() !== this.#listedOn });
    if (nodes === "root") this.refresh();
    else if (nodes.length) this.#changed.fire(nodes);
  }

  /**
   * The threads the window's own thread host runs (#35 item 7), each drawn as a window session's `live` row (one
   * look whichever engine runs the window's threads); a thread a session of this window runs is that session's.
   */
  #ownRows(): HostedRow[] {
    return (this.hosted?.rows() ?? []).filter((r) => r.own && !this.live.get(r.threadId)?.isOpen);
  }

  /** What the `live` row of `threadId` shows: its open window session, else the window's own host's run of it. */
  liveRow(threadId: string): LiveRow | undefined {
    const run = ownRunOf({ live: this.live, hosted: this.hosted }, threadId);
    if (run) return ownLiveRow(run, this.stored?.(threadId));
    const s = this.live.get(threadId);
    if (!s) return undefined;
    return {
      ...{ title: s.title, status: s.status, agent: s.agent.displayName, startedAt: s.startedAt, cwd: s.cwd },
      ...{ sessionId: s.sessionId, detail: s.statusDetail, login: loginText(s) },
      ...{ watchdog: this.ops?.stateOf(s), handoff: this.ops?.handoffOf(s) },
    };
  }

  /** Sets and keeps (per workspace) the filter; the view's description says what it hides. */
  setFilter(f: SessionsFilter): void {
    this.filter = f;
    const { cwds, ...rest } = f;
    void this.state?.update(FILTER_KEY, { ...rest, all: cwds.length === 0 });
    if (this.#view) this.#view.description = this.describeFilter();
    void vscode.commands.executeCommand("setContext", "acpThreads.showingArchived", !!f.archived);
    this.refresh();
  }

  /** The view showing this tree: its description names the filter; returns it (to be disposed by the caller). */
  attach(view: vscode.TreeView<SessionNode>): vscode.TreeView<SessionNode> {
    this.#view = view;
    view.description = this.describeFilter();
    void vscode.commands.executeCommand("setContext", "acpThreads.showingArchived", !!this.filter.archived);
    return view;
  }

  /** The rows selected in the view (several with Ctrl/Shift), or `node` when the command came from one row. */
  selection(node?: SessionNode, nodes?: readonly SessionNode[]): SessionNode[] {
    if (nodes?.length) return [...nodes];
    if (node) return [node];
    return [...(this.#view?.selection ?? [])];
  }

  /** The filter in words for the view's description ("" when it shows this workspace's unarchived threads). */
  describeFilter(): string {
    const f = this.filter;
    return [
      f.cwds.length ? "" : "all workspaces",
      f.agent ?? "",
      f.origin ? `by ${f.origin}` : "",
      f.status ?? "",
      f.archived ? "archived" : "",
    ]
      .filter(Boolean)
      .join(" · ");
  }

  /** The window lost focus: remember when (kept per workspace, so a reload still knows). */
  windowLeft(now = new Date()): void {
    void this.state?.update(AWAY_KEY, now.toISOString());
  }

  /** The window has focus again: "Since you left" shows what happened since it last lost it. */
  windowBack(): void {
    this.away = this.state?.get<string>(AWAY_KEY);
    this.refresh();
  }

  /** "Show more" on a group: one more page of its rows. */
  showMore(groupId: string): void {
    this.#shown.set(groupId, (this.#shown.get(groupId) ?? PAGE) + PAGE);
    this.#changed.fire(this.#kept.get(groupId)); // the group's rows only (none yet listed: every row)
  }

  /** `fresh` as the top-level node of its id last listed (its object kept: `#kept`). */
  #keep<N extends GroupNode | AwayNode<PastThreadSummary>>(fresh: N): N {
    const node = this.#kept.get(topKey(fresh)) as N | undefined;
    if (!node) return (this.#kept.set(topKey(fresh), fresh), fresh);
    if (node.type === "group") delete node.collapsed;
    return Object.assign(node, fresh);
  }

  async getChildren(node?: SessionNode): Promise<SessionNode[]> {
    if (node?.type === "group") {
      const { rows, left } = page(node.children, this.#shown.get(node.id));
      return left ? [...rows, { type: "more", groupId: node.id, left }] : rows;
    }
    if (node?.type === "past") return awayFileRows(node);
    if (node) return node.type === "worktree" || node.type === "away" ? node.children : [];
    const day = localDay();
    const worktreeNodes: SessionNode[] = [];
    const inWorktree = (threadId: string, ref: WorktreeRef | undefined, child: SessionNode): boolean => {
      if (!ref) return false;
      worktreeNodes.push({ type: "worktree", threadId, ref, children: [child] });
      return true;
    };
    const own = this.#ownRows().map((r) => r.threadId);
    // a run of the window's own host: its worktree as the thread catalog has it
    const worktreeOf = (id: string) =>
      own.includes(id) ? (this.stored?.(id)?.worktree ?? undefined) : this.live.get(id)?.worktree;
    const sessionIds = [
      ...this.live
        .all()
        .map((s) => s.threadId)
        .filter((id) => !own.includes(id)),
      ...own,
    ];
    const liveNodes: SessionNode[] = [
      ...sessionIds
        .filter((id) => !inWorktree(id, worktreeOf(id), { type: "live", threadId: id }))
        .map((threadId): SessionNode => ({ type: "live", threadId })),
      ...this.live.execs().map((e): SessionNode => ({ type: "exec", runId: e.runId })),
    ];
    const liveIds = new Set([...sessionIds, ...this.live.execs().map((e) => e.threadId ?? "")]);
    // threads the socket thread host runs are live rows too (unless a session of them runs in this window)
    const hosted = (this.hosted?.rows() ?? []).filter((r) => !r.own && !this.live.get(r.threadId)?.isOpen);
    for (const r of hosted) liveIds.add(r.threadId);
    const listed = await this.listPast(this.filter).catch(() => []);
    liveNodes.push(
      ...hosted.map((r): SessionNode => ({
        type: "hosted",
        ...r,
        thread: listed.find((t) => t.threadId === r.threadId) ?? r.thread,
      })),
    );
    const past = listed.filter((t) => !liveIds.has(t.threadId));
    const rest = past.filter((t) => !inWorktree(t.threadId, t.worktree, { type: "past", thread: t }));
    const out: SessionNode[] = [];
    const away = this.away && awayNode(past, this.away);
    if (away) out.push(this.#keep(this.awayFiles ? await this.awayFiles.attach(away) : away));
    if (liveNodes.length) out.push(this.#keep({ type: "group", id: "live", label: "Live", children: liveNodes }));
    if (worktreeNodes.length)
      out.push(this.#keep({ type: "group", id: "worktrees", label: "Worktrees", children: worktreeNodes }));
    for (const g of pastGroups(rest, (t) => t.updatedAt))
      out.push(
        this.#keep({
          type: "group",
          id: g.id,
          label: g.label,
          children: g.items.map((thread): SessionNode => ({ type: "past", thread })),
          ...(g.expanded ? {} : { collapsed: true }),
        }),
      );
    this.#top = out;
    this.#listedOn = day;
    return out;
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    switch (node.type) {
      case "file":
        return awayFileItem(node);
      case "group": {
        const state = node.collapsed
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded;
        const item = new vscode.TreeItem(node.label, state);
        item.id = node.id;
        item.description = node.collapsed ? String(node.children.length) : undefined;
        item.contextValue = "group";
        return item;
      }
      case "more": {
        const item = new vscode.TreeItem(`Show ${Math.min(PAGE, node.left)} more (${node.left} left)`);
        item.id = `more:${node.groupId}`;
        item.iconPath = new vscode.ThemeIcon("ellipsis");
        item.contextValue = "more";
        item.command = { command: "acpThreads.showMoreSessions", title: "Show more", arguments: [node] };
        return item;
      }
      case "away":
        return awayItem(node);
      case "worktree":
        return worktreeItem(node.threadId, node.ref, this.worktrees?.get(node.threadId, node.ref));
      case "live":
        return liveItem(node, this.liveRow(node.threadId));
      case "hosted":
        return hostedItem(node);
      case "exec":
        return execItem(node, this.live.exec(node.runId));
      case "past": {
        const t = node.thread;
        const item = new vscode.TreeItem(t.title || "(untitled)");
        item.id = `${node.under ? `${node.under}:` : ""}past:${t.threadId}`;
        item.description = `${shortAgent(t.agent)} · ${age(t.updatedAt)}`;
        const status = t.mode === "exec" ? "past_exec" : "past_acp";
        item.iconPath = statusIcon(status);
        const ago = age(t.updatedAt);
        item.accessibilityInformation = {
          label: `${item.label}, ${t.agent}, ${ago === "now" ? "just now" : `${ago} ago`}`,
        };
        item.contextValue = "past";
        item.command = { command: "acpThreads.openThread", title: "Open", arguments: [node] };
        withAwayFiles(item, node.files); // under "Since you left": the files it changed since then, below it
        decorateHandoff(item, t.handoff);
        if (this.filter.archived) item.description = `archived · ${item.description as string}`;
        return item;
      }
    }
  }

  /** A row's tooltip, built when it is hovered (VS Code asks for a row whose tooltip is unset). */
  resolveTreeItem(item: vscode.TreeItem, node: SessionNode): vscode.TreeItem {
    item.tooltip ??= this.#tooltipOf(node);
    return item;
  }

  #tooltipOf(node: SessionNode): vscode.MarkdownString | undefined {
    switch (node.type) {
      case "live":
        return liveTooltip(this.liveRow(node.threadId));
      case "past":
        return pastTooltip(node.thread);
      case "hosted":
        return hostedTooltip(node);
      case "exec":
        return execTooltip(node.runId, this.live.exec(node.runId));
      default:
        return undefined; // the other rows set theirs in getTreeItem (short plain text)
    }
  }

  dispose(): void {
    clearInterval(this.#ticker);
    this.#sub.dispose();
    for (const s of this.#subs.splice(0)) s.dispose();
    this.#changed.dispose();
  }
}

/** A top-level node's key among the kept (`#kept`): a group's id, "away" for "Since you left". */
const topKey = (node: SessionNode): string => (node.type === "group" ? node.id : node.type);
