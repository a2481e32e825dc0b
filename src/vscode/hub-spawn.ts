/**
 * The "start an agent thread" path shared by the spawn command, the prompt box, Resume, Best of N and the host
 * tests: a live session for a new or stored thread (one id for the session, its panel and the stored thread), in
 * the workspace's folders or a worktree of its own, with the editor's permission asker, terminals, sandbox and
 * recall tools; a turn that ends while its panel is hidden is told in a notification.
 */
import * as vscode from "vscode";
import type { HostEvent } from "../core/host/protocol";
import type { AgentSpec } from "../core/model/agent";
import type { RuntimeEvent } from "../core/model/events";
import type { ThreadStartRecord, WorktreeRef } from "../core/model/records";
import type { SandboxPlan } from "../core/sandbox/plan";
import { recallMcpServer, type RecallMcpCommand } from "../core/recall/mcp-offer";
import { newThreadId } from "../core/store/thread-id";
import type { ThreadStore } from "../core/store/thread-store";
import { background } from "../core/util/unexpected";
import type { Config } from "./config";
import type { LedgerFeature } from "./ledger/ledger-feature";
import { LiveSession, type RunMode, type RuntimeFactory } from "./live-session";
import type { LiveSessions } from "./live-sessions";
import type { ExtensionLog } from "./log";
import { turnFinishedNotice } from "./notifier";
import type { PermissionBroker } from "./permission-broker";
import { editorElicitor } from "./elicitation-asker";
import { announcedElicitor } from "./api/elicitation-events";
import { editorSandbox } from "./sandbox";
import type { SessionsTree } from "./sessions-tree";
import type { PseudoterminalHost } from "./terminal-host";
import type { ThreadOps } from "./thread-ops";
import type { ThreadPanels } from "./thread-panels";
import { assertTrusted } from "./trust";
import type { EditorWorkspaceFiles } from "./workspace-files";
import { worktreeFor } from "../core/session/open-thread";
import { editorWorktreeProgress } from "./worktrees/start";
import type { WorktreeStates } from "./worktrees/states";

export interface SpawnParams {
  agent: AgentSpec;
  task: string;
  mode: RunMode;
  cwd: string;
  /** Resume this stored thread (its history is shown first). */
  resumeThreadId?: string;
  history?: RuntimeEvent[];
  /** Open the thread panel (default true). */
  showPanel?: boolean;
  /** A new thread's origin (a handoff names the thread it continues). */
  origin?: ThreadStartRecord["origin"];
  /** The panel's id when a new-thread panel is already open (the prompt box's draft). */
  threadId?: string;
  /** The thread's title until the agent names it (default: the task's first line). */
  title?: string;
  /** The git worktree the new thread works in (`cwd` is inside it): the only root its fs / terminals reach. */
  worktree?: WorktreeRef;
  /** The worktree was made for this session (spawnInWorktree): removed again when the session never opens. */
  worktreeMade?: boolean;
  /** Run the agent in the OS sandbox (#34; the composer's toggle, Best of N); undefined: the settings decide. */
  sandbox?: boolean;
  /** A Best of N candidate: the unattended sandbox default applies (as for worktree sessions). */
  unattended?: boolean;
}

/** What starting a session uses of the hub. */
export interface SpawnHost {
  readonly context: vscode.ExtensionContext;
  readonly home: string;
  readonly config: Config;
  readonly log: ExtensionLog;
  readonly threads: ThreadStore;
  readonly ledger: LedgerFeature;
  readonly live: LiveSessions;
  readonly panels: ThreadPanels;
  readonly broker: PermissionBroker;
  readonly files: EditorWorkspaceFiles;
  readonly terminals: PseudoterminalHost;
  readonly ops: ThreadOps;
  readonly tree: SessionsTree;
  readonly worktrees: WorktreeStates;
  /** Where the sessions' elicitations are told, asked and answered (the window's thread events). */
  readonly elicitations: { fire(e: HostEvent): void };
  /** This window's name, as the thread host names it (who answered). */
  readonly hosted: { readonly client: string };
  runtimeFactory: RuntimeFactory;
}

/**
 * Starts an agent thread, or resumes a stored one (which keeps its id: the live session, its panel and the
 * stored thread are one id). A thread already running in this window is shown, not started twice. Refuses
 * in an untrusted workspace (before anything is spawned).
 */
export function spawnSession(hub: SpawnHost, p: SpawnParams): LiveSession {
  assertTrusted();
  const running = p.resumeThreadId ? hub.live.get(p.resumeThreadId) : undefined;
  if (running?.isOpen) {
    if (p.showPanel !== false) hub.panels.open(running.threadId, { preserveFocus: false });
    return running;
  }
  const label = p.agent.displayName;
  const threadId = p.resumeThreadId ?? p.threadId ?? newThreadId();
  const roots = p.worktree ? [p.worktree.path] : [p.cwd, ...otherFolders(p.cwd)];
  const session = new LiveSession(
    {
      threadId,
      store: hub.threads,
      ledger: hub.ledger.ledger,
      logger: hub.log.logger,
      resumeThreadId: p.resumeThreadId,
      history: p.history,
      origin: p.origin,
      startedFrom: p.unattended ? "automation" : "editor", // a Best of N candidate runs unattended (#36)
      recordTraffic: hub.config.recordTraffic,
      onThread: (s) => hub.ops.watch(s),
      // stallSeconds 0 turns stall detection off; deaths and throttles are still watched
      watchdog: () => ({ stallMs: hub.config.watchdogStallSeconds * 1000, mode: hub.config.watchdogRetry }),
      onProgress: editorWorktreeProgress(hub.log.logger, () => hub.worktrees.refresh()),
      ...(p.worktree ? { worktree: p.worktree, worktreeMade: p.worktreeMade === true } : {}),
      sandbox: () => sandboxOf(hub, p, roots),
      agent: p.agent,
      cwd: p.cwd,
      task: p.task,
      ...(p.title ? { title: p.title } : {}),
      mode: p.mode,
      runtimeOptions: {
        // cwd is the first root; the other workspace folders are reachable too, and the agent is told about
        // them (`additionalDirectories`, sent only when it advertises the capability); a worktree session
        // reaches its worktree only
        workspaceRoots: roots,
        additionalDirectories: p.worktree ? [] : otherFolders(p.cwd),
        permissionPolicy: hub.config.permissionMode,
        permissionStoreDir: hub.home,
        files: hub.files,
        asker: hub.broker.askerFor(threadId, () => label),
        elicitor: announcedElicitor(
          threadId,
          editorElicitor(() => label),
          hub.hosted.client,
          (e) => hub.elicitations.fire(e),
        ),
        terminalHost: hub.terminals,
        // Protocol lines carry the agent and the thread, so one session's traffic can be followed.
        logger: hub.log.protocol(`${p.agent.id} ${threadId.slice(-6)}`),
        env: { ACP_THREADS_HOME: hub.home },
        mcpServers: hub.config.recallOfferToAgents
          ? [recallMcpServer(recallMcpCommand(hub.context.extensionUri), hub.home)]
          : undefined,
      },
    },
    (opts, command) => hub.runtimeFactory(opts, command),
  );
  hub.live.add(session);
  session.onTurnDone(() => {
    if (session.worktree) hub.worktrees.invalidate(session.threadId, session.worktree);
    background(turnFinished(hub, session), "notifying a finished turn");
  });
  hub.panels.refresh(session.threadId); // a panel that showed this thread before now shows the live session
  if (p.showPanel !== false) hub.panels.open(session.threadId, { preserveFocus: false });
  hub.log.logger.info(`spawned ${p.agent.id} (${p.mode}) in ${p.cwd}`);
  background(
    session.start(p.task).then(() => hub.tree.refresh()),
    "starting the session",
  );
  return session;
}

/** The session's OS sandbox (#34): asked, the setting, or the unattended default of worktree sessions. */
function sandboxOf(hub: SpawnHost, p: SpawnParams, roots: string[]): Promise<SandboxPlan | undefined> {
  return editorSandbox(
    hub.config,
    {
      roots,
      agentId: p.agent.id,
      env: { ...process.env, ...p.agent.env, ACP_THREADS_HOME: hub.home },
      dataHome: hub.home,
      ...(p.sandbox !== undefined ? { asked: p.sandbox } : {}),
      unattended: !!p.worktree || !!p.unattended,
    },
    (m) => background(hub.broker.notifier.show("info", m), "telling the sandbox default"),
  );
}

/** `spawnSession` in a new worktree of `p.cwd`'s repository (#25; a plain session outside git). */
export async function spawnInWorktree(hub: SpawnHost, p: SpawnParams): Promise<LiveSession> {
  assertTrusted(); // before a worktree is made
  const where = await worktreeFor(p.cwd, editorWorktreeProgress(hub.log.logger));
  const session = spawnSession(hub, { ...p, ...where, worktreeMade: where.worktree !== undefined });
  hub.worktrees.refresh();
  return session;
}

/** A turn that ends while its panel is hidden is told in a notification naming its prompt, with Open. */
async function turnFinished(hub: SpawnHost, s: LiveSession): Promise<void> {
  if (s.lastPrompt === undefined || hub.panels.isVisible(s.threadId)) return;
  const n = turnFinishedNotice(s.agent.displayName, s.lastPrompt, s.status === "failed", s.statusDetail);
  const choice = await hub.broker.notifier.show(n.severity, n.message, ...n.items);
  if (choice === "Open") hub.panels.open(s.threadId, { preserveFocus: false });
}

/**
 * How this window starts `acp-threads mcp` (recall tools, offered to agents when acpThreads.recall.offerToAgents is
 * on): the extension's CLI under the editor's own runtime, as plain node. The thread host's agents start it the
 * same way (the host runs under that runtime too).
 */
export function recallMcpCommand(extensionUri: vscode.Uri): RecallMcpCommand {
  return {
    command: process.execPath,
    args: [vscode.Uri.joinPath(extensionUri, "dist", "cli.js").fsPath, "mcp"],
    env: { ELECTRON_RUN_AS_NODE: "1" },
  };
}

/** The workspace folders other than `cwd` (multi-root workspaces). */
export function otherFolders(cwd: string): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).filter((r) => r !== cwd);
}
