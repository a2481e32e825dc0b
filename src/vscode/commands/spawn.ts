/**
 * "Spawn coding agent": opens a new thread's panel at once, with its prompt box (multi-line, `@` context) and
 * the agent picker in it; Send starts a session, "Run once" a single turn, an agent CLI runs in a terminal.
 * Scripted callers (tests, other extensions) pass `{agentId, task, mode?, cwd?}` and skip the panel's picker; where
 * `acpThreads.host.runSessions` resolves to `host` (the default on POSIX) their thread starts in the thread host: with
 * its task as the first prompt, or with none (an empty task) its agent's session open and idle, its panel ready for
 * the first prompt, which runs there. "Run once" with an empty task stays in the window (the host's once-run takes
 * the prompt it starts with only).
 */
import * as vscode from "vscode";
import { requiredAgent } from "../agents";
import type { Hub, SpawnParams } from "../hub";
import { startsInHost, startThreadInHost } from "../host/host-entry";
import type { RunMode } from "../live-session";
import { assertTrusted } from "../trust";

async function pickFolder(): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri.fsPath ?? process.cwd();
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: "Run the agent in which folder?" }))?.uri.fsPath;
}

/** Arguments for scripted use (tests, other extensions): skips the pickers it covers. */
export interface SpawnArgs {
  agentId: string;
  task: string;
  mode?: RunMode;
  cwd?: string;
  /** Work in a new git worktree of `cwd`'s repository (#25; a folder outside git gets a plain session). */
  worktree?: boolean;
}

/** Returns the new thread's id (a draft id when the panel waits for the user to pick an agent and send). */
export async function spawnCommand(hub: Hub, args?: SpawnArgs): Promise<string | undefined> {
  assertTrusted();
  if (args && typeof args === "object" && typeof args.agentId === "string") {
    const agent = await requiredAgent(hub.config, hub.registry, args.agentId);
    const cwd = args.cwd ?? (await pickFolder());
    if (!cwd) return undefined;
    const task = String(args.task ?? "");
    // where acpThreads.host.runSessions resolves to `host`, the thread starts in the thread host, as from the box
    const once = args.mode === "run";
    const parts = task.trim() ? [{ type: "text" as const, text: task }] : [];
    if ((parts.length || !once) && startsInHost(hub, cwd, parts))
      return await startThreadInHost(hub, {
        agent: agent.spec,
        cwd,
        parts,
        ...(args.worktree ? { worktree: true } : {}),
        ...(once ? { once: true } : {}),
      });
    const p = { agent: agent.spec, task, mode: once ? "run" : "session", cwd };
    const session =
      args.worktree === true ? await hub.spawnInWorktree(p as SpawnParams) : hub.spawnSession(p as SpawnParams);
    return session.threadId;
  }
  return hub.composer.openDraft();
}
