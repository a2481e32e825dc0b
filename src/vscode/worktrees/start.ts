/**
 * "In a new worktree" (#25): a new git worktree beside the repository for a new session or exec run, whose cwd
 * (and only reachable root) it becomes. A folder outside git gets a clear message and a plain session.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { WorktreeRef } from "../../core/model/records";
import { createWorktree, isNotARepository } from "../../core/worktree/create";
import type { Hub, SpawnParams } from "../hub";
import type { LiveSession } from "../live-session";
import { assertTrusted } from "../trust";

/** Where a new session runs: `cwd`'s place in a new worktree, or `cwd` itself outside git (told once). */
export async function worktreeFor(hub: Hub, cwd: string): Promise<{ cwd: string; worktree?: WorktreeRef }> {
  try {
    const made = await createWorktree(cwd);
    hub.log.logger.info(`worktree ${made.ref.path} (base ${made.ref.base.slice(0, 10)}) for a session in ${cwd}`);
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

/** `hub.spawnSession` in a new worktree of `p.cwd`'s repository (a plain session outside git). */
export async function spawnInWorktree(hub: Hub, p: SpawnParams): Promise<LiveSession> {
  assertTrusted(); // before a worktree is made
  const where = await worktreeFor(hub, p.cwd);
  const session = hub.spawnSession({ ...p, ...where });
  hub.worktrees.refresh();
  return session;
}
