/**
 * The prompt box's state from a running session: the agent's prompt capabilities (images, embedded context), its
 * name for the box's messages, its slash commands (the `/` completion) and why "Send now" cannot steer. One
 * builder for a window session (composer-host.ts) and a thread the thread host runs (its pushed session state,
 * host/hosted-composer.ts).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PromptCaps } from "../../core/prompt/blocks";
import type { ComposerState } from "../../webview/thread/protocol";

export interface BoxSource {
  promptCaps?: PromptCaps | null;
  agentName: string;
  commands: readonly acp.AvailableCommand[];
  steerBlocked?: string | null;
}

export function sessionBoxState(s: BoxSource): ComposerState {
  return {
    draft: null,
    caps: s.promptCaps ?? null,
    agentName: s.agentName,
    commands: s.commands.map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.input && "hint" in c.input ? { hint: c.input.hint } : {}),
    })),
    steerBlocked: s.steerBlocked ?? null,
  };
}
