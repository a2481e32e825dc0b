/**
 * "In a new worktree" (#25): a new git worktree beside the repository for a new session or exec run, whose cwd
 * (and only reachable root) it becomes. A folder outside git gets a clear message and a plain session.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { Logger } from "../../core/log";
import type { WorktreeRef } from "../../core/model/records";
import { createWorktree, isNotARepository } from "../../core/worktree/create";

/** Where a new session runs: `cwd`'s place in a new worktree, or `cwd` itself outside git (told once). */
export async function worktreeFor(logger: Logger, cwd: string): Promise<{ cwd: string; worktree?: WorktreeRef }> {
  try {
    const made = await createWorktree(cwd);
    logger.info(`worktree ${made.ref.path} (base ${made.ref.base.slice(0, 10)}) for a session in ${cwd}`);
    if (made.warnings.length)
      void vscode.window.showWarningMessage(`ACP Threads: new worktree: ${made.warnings.join("; ")}`);
    return { cwd: made.cwd, worktree: made.ref };
  } catch (err) {
    if (!isNotARepository(err)) throw err;
    void vscode.window.showInformationMessage(
      `ACP Threads: ${errorMessage(err)}; the session works in the folder itself (no worktree).`,
    );
    return { cwd };
  }
}
