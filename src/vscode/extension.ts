/**
 * Entry point. `activate` only wires: one Hub (the context object), the command table, the views and the
 * serializer. Activation is lazy (commands, views, restored panels) and its time is measured. VS Code
 * shows nothing when activation throws, so errors are caught and shown here.
 */
import * as vscode from "vscode";
import { watchAgentStarts } from "./agent-import";
import { errorMessage } from "../core/errors";
import { setLockLabel } from "../core/store/file-lock";
import { resolveHome } from "../core/store/paths";
import { registerCommands } from "./commands";
import { offerMissingAgent } from "./agent-actions";
import { bestOfFromPanel } from "./worktrees/best-of-command";
import { restoreComparePanel } from "./worktrees/best-of-resume";
import { BestOfWatch } from "./worktrees/best-of-watch";
import { COMPARE_VIEW_TYPE } from "../webview/compare/protocol";
import { resumeInWindow } from "./commands/threads";
import { recallMentions } from "./composer/recall-mentions";
import { EXEC_CHOICES, startExec } from "./exec-terminal";
import { Hub } from "./hub";
import { watchPtyFallback } from "./pty-notice";
import { importWithProgress } from "./recall/import-history";
import { offerImportOnce, openRecallHit, RECALL_VIEW_ID, RecallViewProvider, searchRecall } from "./recall-view";
import { background, setUnexpectedErrorHandler } from "../core/util/unexpected";
import type { ThreadEventsApi } from "./api";
import { ThreadEvents } from "./api/thread-events";
import { followHosts } from "./host/hosted-events";
import { notifyHostedTurns } from "./host/hosted-turn-notify";
import { HostedUsage } from "./host/hosted-usage";
import { watchTurnHook } from "./api/turn-hook";

export interface AcpThreadsApi extends ThreadEventsApi {
  hub: Hub;
  /** Milliseconds `activate` took (reported by the host suite as the activation figure). */
  activationMs: number;
  /** The recall view's search and open actions (same module instance as the view). */
  recall: { search: typeof searchRecall; open: typeof openRecallHit; importWithProgress: typeof importWithProgress };
  /** The Best of N runs another process records while the window is open, picked up (#35). */
  bestOfWatch: BestOfWatch;
}

let hub: Hub | undefined;

function homeFor(context: vscode.ExtensionContext): string {
  // ACP_THREADS_HOME wins (tests, CLI users); else the editor's global storage, which the CLI also finds.
  return process.env.ACP_THREADS_HOME ? resolveHome(process.env) : context.globalStorageUri.fsPath;
}

export function activate(context: vscode.ExtensionContext): AcpThreadsApi | undefined {
  const started = performance.now();
  try {
    const folder = vscode.workspace.name;
    setLockLabel(`VS Code window${folder ? ` (${folder})` : ""}`);
    hub = new Hub(context, homeFor(context));
    const h = hub;
    // work nobody awaits and throwing event listeners report to the output channel, not to the console
    const restoreHandler = setUnexpectedErrorHandler((what, err) => h.log.logger.error(`${what} failed`, err));
    context.subscriptions.push({ dispose: restoreHandler }, h, ...registerCommands(h), watchPtyFallback(h));
    context.subscriptions.push(watchAgentStarts(h)); // acpThreads.history.importAgentSessions
    // other extensions and the user's hook hear the thread events of the window and of the thread hosts (#35): the
    // user's at its socket and the window's own (its `window` mode's threads under the hosted engine)
    const hosted = followHosts([h.hosted.link, h.hosted.own], async (id) => (await h.threads.readAsync(id))?.records);
    const events = new ThreadEvents(h.live, h.broker, h.hosted.client, hosted.onEvent, h.elicitations.event);
    const hostedUsage = new HostedUsage({
      onEvent: hosted.onEvent,
      read: (id) => h.threads.readAsync(id),
      views: h.hosted, // a thread a panel here follows: its figure from that view's events, as its header's
    });
    context.subscriptions.push(
      hosted,
      events,
      hostedUsage,
      h.usageStatus.follow(hostedUsage), // the status bar's figure for the host's threads too
      notifyHostedTurns({
        onEvent: hosted.onEvent,
        startedHere: (id) => h.hosted.startedHere.has(id),
        isVisible: (id) => h.panels.isVisible(id),
        read: (id) => h.threads.readAsync(id),
        notifier: h.broker.notifier,
        open: (id) => h.panels.open(id, { preserveFocus: false }),
      }),
      h.ledger.followHosted(hosted.onEvent), // a hosted turn's "files changed" rows and inline review
      watchTurnHook({
        onThreadEvent: events.onWindowEvent,
        command: () => h.config.turnEndedHook,
        cwdOf: (id) => h.live.get(id)?.cwd,
        logger: h.log.logger,
      }),
    );
    h.composer.connect({
      startExec: async (id, task, cwd, title, worktree, sandbox) => {
        const choice = EXEC_CHOICES.find((c) => c.id === id);
        if (!choice) throw new Error(`no agent CLI "${id}"`);
        await startExec(h, choice, task, cwd, title, worktree, sandbox);
      },
      recall: (query, signal) => recallMentions(h, query, signal),
      bestOf: (task) => bestOfFromPanel(h, task),
      resume: (threadId) => resumeInWindow(h, threadId), // the box already offered the prompt to the host
      agentActions: (agentId) => offerMissingAgent(h, agentId),
    });
    context.subscriptions.push(
      h.tree.attach(
        vscode.window.createTreeView("acpThreads.sessions", {
          treeDataProvider: h.tree,
          showCollapseAll: true,
          canSelectMany: true,
        }),
      ),
      vscode.window.registerWebviewViewProvider(RECALL_VIEW_ID, new RecallViewProvider(h), {
        webviewOptions: { retainContextWhenHidden: true },
      }),
      h.config.onDidChange(() => h.tree.refresh()),
    );
    // Integrated terminals get ACP_THREADS_HOME so the CLI there shares the extension's data.
    context.environmentVariableCollection.replace("ACP_THREADS_HOME", h.home);
    context.environmentVariableCollection.description =
      "ACP Threads: lets the acp-threads CLI find the extension's threads";
    // a hosted Best of N's compare view, open before a reload, comes back following its candidates (#35)
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => void (await restoreComparePanel(h, panel, state)),
      }),
    );
    // After activation, off the critical path: the one-time offer to import existing history, and the hosted Best of
    // N runs no window follows (a second window on the folder; a view VS Code did not restore), then those another
    // process records while the window is open (a terminal's `run --detach`)
    const bestOfWatch = new BestOfWatch(h);
    context.subscriptions.push(bestOfWatch);
    setTimeout(() => {
      background(offerImportOnce(h), "offering to import history");
      bestOfWatch.start();
    }, 2000);
    const activationMs = performance.now() - started;
    h.log.logger.info(`activated in ${activationMs.toFixed(1)} ms (home ${h.home})`);
    return {
      hub: h,
      activationMs,
      recall: { search: searchRecall, open: openRecallHit, importWithProgress },
      bestOfWatch,
      onThreadEvent: events.onThreadEvent,
    };
  } catch (err) {
    void vscode.window.showErrorMessage(`ACP Threads failed to start: ${errorMessage(err)}`);
    return undefined;
  }
}

/** Stops running agents, exec runs and the recall workers; VS Code then disposes the Hub (a context subscription). */
export async function deactivate(): Promise<void> {
  await hub?.shutdown();
  hub = undefined;
}
