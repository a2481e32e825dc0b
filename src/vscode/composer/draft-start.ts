/**
 * A new thread's panel sent its first prompt: the picked agent's session starts with it (the panel becomes the
 * live thread's), an agent CLI runs it in a terminal, or with "best of N" checked it is a Best of N's task (#37).
 */
import { errorMessage } from "../../core/errors";
import type { PromptPart } from "../../core/model/context";
import { promptPartsText, type ContextSources } from "../../core/prompt/blocks";
import type { ComposerMessage } from "../../webview/thread/protocol";
import type { LiveSession } from "../live-session";
import { EXEC_PREFIX } from "./agent-options";
import { startBestOf, type PanelTask } from "./best-of-send";
import type { ComposerPanel } from "./composer-panel";
import type { DraftAgents } from "./draft-agents";
import { draftFolder } from "./draft-folder";
import { execTask } from "./exec-task";
import { sendWhenReady } from "./first-prompt";

/** A new thread's session: `worktree`: in a new git worktree of `cwd`'s repository (#25). */
export interface DraftSpawn {
  agentId: string;
  cwd: string;
  mode: "session" | "run";
  threadId: string;
  title: string;
  worktree?: boolean;
  /** The composer's "sandboxed" toggle when the user changed it (#34); absent: the settings decide. */
  sandbox?: boolean;
}

/** What a new thread's start needs from modules above the hub (ComposerLinks); set at activation. */
export interface DraftLinks {
  /** `task`: what the agent CLI gets, or for "custom" the command line itself; `title` names the run. */
  startExec(
    choiceId: string,
    task: string,
    cwd: string,
    title?: string,
    worktree?: boolean,
    sandbox?: boolean,
  ): Promise<void>;
  /** A new-thread panel's Send with "best of N" checked (#37): false when the person closed the wizard. */
  bestOf?(task: PanelTask): Promise<boolean>;
}

/** A new thread the thread host may run: its agent, folder, prompt as composed, worktree and sandbox choices. */
export interface DraftHostStart {
  agentId: string;
  cwd: string;
  parts: PromptPart[];
  worktree?: boolean;
  sandbox?: boolean;
  /** "Run once": the host's run ends after this prompt and takes no other. */
  once?: boolean;
}

export interface DraftStartHost {
  links: DraftLinks | undefined;
  agents: DraftAgents;
  sources(): ContextSources;
  spawn(p: DraftSpawn): LiveSession | Promise<LiveSession>;
  closePanel(threadId: string): void;
  /** The panel is a new thread's again (its session did not start), or no longer (`false`). */
  setDraft(threadId: string, draft: boolean): void;
  /** The repository a "Best of N…" panel was opened for, when a scripted caller named one. */
  bestOfCwd(threadId: string): string | undefined;
  /** Sends the prompt to the session once it is open. */
  run(live: LiveSession): Promise<void>;
  /**
   * Starts the thread in the thread host with this prompt (`acpThreads.host.runSessions: host`, #35) and opens its
   * panel; undefined when this window runs its sessions.
   */
  startInHost?(s: DraftHostStart): Promise<void> | undefined;
}

export async function startDraft(
  host: DraftStartHost,
  panel: ComposerPanel,
  m: Extract<ComposerMessage, { type: "send" }>,
  parts: PromptPart[],
  restore: () => void,
  notice: (s: string) => void,
): Promise<void> {
  const { threadId } = panel;
  const cwd = draftFolder(m.folder);
  const done = () => {
    host.setDraft(threadId, false);
    host.agents.forget(threadId);
  };
  if (m.bestOf) {
    const task = { parts, cwd: host.bestOfCwd(threadId) ?? cwd, m };
    if (!(await startBestOf(host.links, task, restore, notice))) return;
    done();
    return host.closePanel(threadId);
  }
  if (!m.agentId) return notice("Pick an agent first.");
  try {
    if (m.agentId.startsWith(EXEC_PREFIX)) {
      if (!host.links) throw new Error("exec runs are not available yet; try again in a moment");
      const choice = m.agentId.slice(EXEC_PREFIX.length);
      if (choice === "custom") {
        // the command line comes from its own field; the prompt text is at most the run's title
        if (!m.command?.trim()) return notice("Type the command line to run: the task text is never run as one.");
        const title = promptPartsText(parts).trim() || undefined;
        await host.links.startExec(choice, m.command, cwd, title, m.worktree, m.sandbox);
      } else {
        const task = await execTask(parts, host.sources());
        await host.links.startExec(choice, task, cwd, undefined, m.worktree, m.sandbox);
      }
      done();
      return host.closePanel(threadId);
    }
    // in the thread host, when the setting says so and it can take this prompt's context (hub.ts)
    const inHost = host.startInHost?.({
      agentId: m.agentId,
      cwd,
      parts,
      ...(m.worktree ? { worktree: true } : {}),
      ...(m.sandbox !== undefined ? { sandbox: m.sandbox } : {}),
      ...(m.mode === "run" ? { once: true } : {}),
    });
    if (inHost) {
      await inHost;
      done();
      host.closePanel(threadId);
      return await host.agents.remember(m.agentId);
    }
    done(); // the hub re-renders the panel for the live session
    let live: LiveSession;
    try {
      live = await host.spawn({
        agentId: m.agentId,
        cwd,
        mode: m.mode ?? "session",
        threadId,
        title: promptPartsText(parts),
        ...(m.worktree ? { worktree: true } : {}),
        ...(m.sandbox !== undefined ? { sandbox: m.sandbox } : {}),
      });
    } catch (err) {
      host.setDraft(threadId, true);
      throw err;
    }
    sendWhenReady(live, () => host.run(live));
    await host.agents.remember(m.agentId);
  } catch (err) {
    restore();
    notice(errorMessage(err));
  }
}
