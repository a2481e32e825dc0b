/**
 * A new-thread panel's Send with "best of N" checked (#37): the box's prompt, with its `@` context resolved like
 * any prompt's, becomes the task of a Best of N (the wizard asks the agents, runs and check command next).
 */
import { errorMessage } from "../../core/errors";
import type { PromptPart } from "../../core/model/context";
import { promptPartsText } from "../../core/prompt/blocks";
import type { ComposerMessage } from "../../webview/thread/protocol";
import { EXEC_PREFIX } from "./agent-options";

/** What the panel hands over: the task as the box held it. */
export interface PanelTask {
  parts: PromptPart[];
  /** The parts' text: the compare view's task and the candidates' titles. */
  text: string;
  /** The repository the candidates' worktrees branch from. */
  cwd: string;
  /** The agent the panel had picked (an agent, not an agent CLI run): checked in the wizard's list. */
  agentId?: string;
  /** The panel's "sandboxed" box when the person changed it; absent: the settings decide. */
  sandbox?: boolean;
}

/** Hands the panel's prompt to Best of N; true when it started (the panel closes), else the prompt is given back. */
export async function startBestOf(
  links: { bestOf?(task: PanelTask): Promise<boolean> } | undefined,
  p: { parts: PromptPart[]; cwd: string; m: Extract<ComposerMessage, { type: "send" }> },
  restore: () => void,
  notice: (message: string) => void,
): Promise<boolean> {
  const { m } = p;
  try {
    if (!links?.bestOf) throw new Error("Best of N is not available yet; try again in a moment");
    const started = await links.bestOf({
      parts: p.parts,
      text: promptPartsText(p.parts),
      cwd: p.cwd,
      ...(m.agentId && !m.agentId.startsWith(EXEC_PREFIX) ? { agentId: m.agentId } : {}),
      ...(m.sandbox !== undefined ? { sandbox: m.sandbox } : {}),
    });
    if (!started) restore();
    return started;
  } catch (err) {
    restore();
    notice(errorMessage(err));
    return false;
  }
}
