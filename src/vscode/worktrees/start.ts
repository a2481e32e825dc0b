/**
 * "In a new worktree" (#25): what opening a thread (core/session/open-thread.ts) did with its worktree, told in the
 * editor: the new worktree in the log (its warnings shown), a folder outside git in a message (the session works
 * in the folder itself), a worktree made for a session that never opened removed again.
 */
import * as vscode from "vscode";
import type { Logger } from "../../core/log";
import type { OpenProgressListener } from "../../core/session/open-thread";

export function editorWorktreeProgress(logger: Logger, onRemoved?: () => void): OpenProgressListener {
  return (p) => {
    if (p.type === "worktree_created") {
      logger.info(`worktree ${p.ref.path} (base ${p.ref.base.slice(0, 10)}) for a session in ${p.ref.repo}`);
      if (p.warnings.length)
        void vscode.window.showWarningMessage(`ACP Threads: new worktree: ${p.warnings.join("; ")}`);
    } else if (p.type === "worktree_skipped") {
      void vscode.window.showInformationMessage(
        `ACP Threads: ${p.reason}; the session works in the folder itself (no worktree).`,
      );
    } else {
      logger.info(`worktree ${p.ref.path} removed: its session did not open`);
      for (const w of p.warnings) logger.warn(`removing the worktree ${p.ref.path}: ${w}`);
      onRemoved?.();
    }
  };
}
