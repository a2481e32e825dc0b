/**
 * The command table: one entry per contributed command (typed against COMMAND_IDS, so a missing handler
 * does not compile). Every handler's error is shown to the user instead of vanishing.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { CommandId } from "../command-ids";
import type { Hub } from "../hub";
import type { SessionNode } from "../sessions-tree";
import { cancelTurn, doctorCommand, stopSession } from "./misc";
import { deleteSelected, exportSelected, filterSessions, setArchived, showMoreSessions } from "./sessions-bulk";
import { addPermissionRule, revokePermissions, type AddRuleArgs } from "./permission-rules";
import { acceptProposed, rejectProposed } from "./proposals";
import { addFilesToThread, askAboutSelection, type ContextTargetDeps } from "../composer/context-commands";
import { logoutCommand } from "./logout";
import { importAgentSessionsCommand } from "../agent-import";
import { showProtocolLog } from "./protocol-log";
import { addAgentCommand, removeAgentCommand, updateAgentCommand } from "./registry";
import { spawnCommand } from "./spawn";
import {
  copySessionId,
  deleteThread,
  exportMarkdownCommand,
  exportSnapshot,
  importSnapshot,
  openThread,
  renameThread,
  resumeThread,
} from "./threads";
import { RECALL_VIEW_ID, importHistory } from "../recall-view";
import { retryCommand, saveBugBundleCommand } from "./ops";
import { clearDataCommand } from "../clear-data";
import { handoffCommand } from "../handoff/handoff-command";
import { forkThreadCommand } from "./fork";
import { rewindThreadCommand } from "./rewind";
import { briefEditors } from "../handoff/brief-editor";
import { applyToWorkspace, commitWorktreeToBranch, discardWorktreeCommand, reviewWorktree } from "../worktrees/actions";
import { mergeWorktreeConflicts, type MergeOptions } from "../worktrees/merge-conflicts";
import { bestOfEntry, type BestOfArgs } from "../worktrees/best-of-command";

/** Command arguments come from VS Code untyped; each handler declares (and checks) what it accepts. */
type Handler = (hub: Hub, ...args: never[]) => unknown;

const COMMANDS: Record<CommandId, Handler> = {
  "acpThreads.spawn": spawnCommand,
  "acpThreads.doctor": doctorCommand,
  "acpThreads.showProtocolLog": showProtocolLog,
  "acpThreads.revokePermissions": revokePermissions,
  "acpThreads.addPermissionRule": (hub, args?: unknown) =>
    addPermissionRule(hub, args && typeof args === "object" ? (args as AddRuleArgs) : undefined),
  "acpThreads.openThread": (hub, node?: SessionNode | string, focus?: number) => openThread(hub, node, focus),
  "acpThreads.resume": async (hub, node?: SessionNode | string, task?: string) =>
    void (await resumeThread(hub, node, task)),
  "acpThreads.rename": renameThread,
  // several rows selected: one folder for all their snapshots
  "acpThreads.exportSnapshot": (hub, node?: SessionNode, more?: unknown) =>
    Array.isArray(more) && more.length > 1
      ? exportSelected(hub, node, more as SessionNode[])
      : exportSnapshot(hub, node, more instanceof vscode.Uri ? more : undefined),
  "acpThreads.exportMarkdown": exportMarkdownCommand,
  "acpThreads.importSnapshot": importSnapshot,
  "acpThreads.delete": (hub, node?: SessionNode, more?: unknown) =>
    Array.isArray(more) && more.length > 1
      ? deleteSelected(hub, node, more as SessionNode[])
      : deleteThread(hub, node, more && !Array.isArray(more) ? (more as { agentSession?: boolean }) : undefined),
  "acpThreads.archive": (hub, node?: SessionNode, nodes?: SessionNode[]) => setArchived(hub, true, node, nodes),
  "acpThreads.unarchive": (hub, node?: SessionNode, nodes?: SessionNode[]) => setArchived(hub, false, node, nodes),
  "acpThreads.showMoreSessions": showMoreSessions,
  "acpThreads.clearData": (hub) => clearDataCommand(hub.engine, hub.config.trafficMaxTotalMB, () => hub.tree.refresh()),
  "acpThreads.copySessionId": copySessionId,
  "acpThreads.searchRecall": () => vscode.commands.executeCommand(`${RECALL_VIEW_ID}.focus`),
  "acpThreads.refreshSessions": (hub) => {
    hub.past.catalog.rescan();
    hub.tree.refresh();
  },
  "acpThreads.filterSessions": filterSessions,
  "acpThreads.cancel": cancelTurn,
  "acpThreads.stopSession": stopSession,
  "acpThreads.showPendingPermission": (hub) => hub.broker.showFirst(),
  "acpThreads.importHistory": importHistory,
  "acpThreads.acceptProposed": acceptProposed,
  "acpThreads.rejectProposed": rejectProposed,
  // #11 checkpoints, review and provenance (src/vscode/ledger)
  "acpThreads.reviewTurn": (hub, thread?: unknown, turn?: number | { op: string }) =>
    hub.ledger.reviewTurn(thread, turn),
  "acpThreads.reviewThread": (hub, thread?: unknown) => hub.ledger.reviewThread(thread),
  "acpThreads.restoreTurn": (
    hub,
    thread?: unknown,
    turn?: number | { op: string },
    opts?: { yes?: boolean; force?: boolean },
  ) => hub.ledger.restoreTurn(thread, turn, opts),
  "acpThreads.keepTurn": (hub, thread?: unknown, turn?: number | { op: string }) => hub.ledger.keepTurn(thread, turn),
  "acpThreads.keepChange": (hub, target?: unknown) => hub.ledger.keep(target),
  "acpThreads.undoChange": (hub, target?: unknown) => hub.ledger.undo(target),
  "acpThreads.keepFileChanges": (hub) => hub.ledger.settleFile("keep"),
  "acpThreads.undoFileChanges": (hub) => hub.ledger.settleFile("undo"),
  "acpThreads.openTurn": (hub, thread?: unknown, turn?: number) => hub.ledger.openTurn(thread, turn),
  // #25 review that talks back (src/vscode/ledger/review-comments.ts)
  "acpThreads.addReviewComment": (hub, reply?: unknown) => hub.ledger.addComment(reply),
  "acpThreads.editReviewComment": (hub, c?: unknown) => hub.ledger.commentAction("edit", c),
  "acpThreads.saveReviewComment": (hub, c?: unknown) => hub.ledger.commentAction("save", c),
  "acpThreads.cancelReviewComment": (hub, c?: unknown) => hub.ledger.commentAction("cancel", c),
  "acpThreads.deleteReviewComment": (hub, c?: unknown) => hub.ledger.commentAction("delete", c),
  "acpThreads.sendReview": (hub, target?: unknown, opts?: { intro?: unknown }) => hub.ledger.sendReview(target, opts),
  "acpThreads.handoff": handoffCommand,
  "acpThreads.forkThread": forkThreadCommand,
  "acpThreads.rewindThread": rewindThreadCommand,
  "acpThreads.sendHandoff": (_hub, target?: unknown) => briefEditors.send(target),
  "acpThreads.cancelHandoff": (_hub, target?: unknown) => briefEditors.cancel(target),
  "acpThreads.saveBugBundle": saveBugBundleCommand,
  "acpThreads.showUsage": (hub) => hub.usageView.show(),
  "acpThreads.retry": retryCommand,
  "acpThreads.askAboutSelection": (hub) => askAboutSelection(targets(hub)),
  "acpThreads.addFileToThread": (hub, clicked?: vscode.Uri, selected?: vscode.Uri[]) =>
    addFilesToThread(targets(hub), clicked, selected),
  // #22 the ACP Registry (src/vscode/registry)
  "acpThreads.addAgent": addAgentCommand,
  "acpThreads.updateAgent": updateAgentCommand,
  "acpThreads.removeAgent": removeAgentCommand,
  // #23 the rest of ACP v1
  "acpThreads.logoutAgent": logoutCommand,
  "acpThreads.importAgentSessions": importAgentSessionsCommand,
  // #25 worktrees (src/vscode/worktrees)
  "acpThreads.applyWorktree": (hub, target?: unknown, opts?: { yes?: boolean }) =>
    applyToWorkspace(hub, target, opts ?? {}),
  "acpThreads.commitWorktree": (hub, target?: unknown, opts?: { branch?: string; message?: string }) =>
    commitWorktreeToBranch(hub, target, opts ?? {}),
  "acpThreads.discardWorktree": (hub, target?: unknown, opts?: { yes?: boolean }) =>
    discardWorktreeCommand(hub, target, opts ?? {}),
  "acpThreads.reviewWorktree": (hub, target?: unknown) => reviewWorktree(hub, target),
  "acpThreads.mergeWorktreeConflicts": (hub, target?: unknown, opts?: MergeOptions) =>
    mergeWorktreeConflicts(hub, target, opts ?? {}),
  "acpThreads.bestOfN": (hub, args?: Partial<BestOfArgs> & { inputBox?: boolean }) => bestOfEntry(hub, args),
};

/** Where the context menus put their chips: the focused thread, a live one, or a new thread. */
const targets = (hub: Hub): ContextTargetDeps => ({
  composer: hub.composer,
  liveThreads: () => hub.live.all(),
  lastActivePanel: () => hub.panels.lastActive(),
  hostedOpen: (id) => hub.hosted.get(id)?.once === false,
});

export function registerCommands(hub: Hub): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(hub, ...(args as never[]));
      } catch (err) {
        hub.log.logger.error(`${id} failed`, err);
        void vscode.window.showErrorMessage(`ACP Threads: ${errorMessage(err)}`);
        return undefined;
      }
    }),
  );
}
