/**
 * Normalized events produced by an agent runtime during a prompt turn.
 *
 * The ACP `session/update` notification has many shapes; every consumer (CLI printer, thread store,
 * thread panel) reads this one union instead. Tool calls are merged by `toolCallId`, so each
 * `tool_call` event carries the full current state, never a patch.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ContextRef } from "./context";
import type { TurnUsage } from "./usage";

export type StreamKind = "output" | "thought";

export interface ToolCallState {
  toolCallId: string;
  title: string;
  kind: acp.ToolKind;
  /**
   * `cancelled`: still open when its turn was cancelled. `unfinished` (view only): still open when its turn ended
   * otherwise — codex's background commands (`unified_exec`) can outlive the turn, and an agent may never report
   * them done; the card keeps what it has without claiming a cancel.
   */
  status: acp.ToolCallStatus | "cancelled" | "unfinished";
  content: acp.ToolCallContent[];
  locations: acp.ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /**
   * Display-only terminal output streamed by agents via `_meta.terminal_output` (Zed convention; codex-acp 2.6 also
   * sends `_meta.terminal_output_delta`).
   */
  terminalOutput?: string;
  /** The command's end as reported in `_meta.terminal_exit` (codex-acp 2.6, pi-acp). */
  terminalExit?: { exitCode: number | null; signal: string | null };
  /**
   * The tool call of the subagent (Agent / Task) this call ran in, as the agent reported it
   * (`_meta.claudeCode.parentToolUseId` from claude-agent-acp). Shown nested under that call when it is known.
   */
  parentToolCallId?: string;
  /** Epoch ms when the client first saw the call running (not set for calls replayed already finished). */
  startedAt?: number;
  /** Epoch ms when a call that was seen running reached completed / failed / cancelled. */
  endedAt?: number;
}

export interface PermissionDecision {
  toolCallId: string;
  title: string;
  kind: acp.ToolKind | "other";
  /** The option chosen, or null when the request was cancelled (turn cancel). */
  optionId: string | null;
  optionKind: acp.PermissionOptionKind | null;
  /**
   * The chosen option's name as the person saw it (the engine's "Always allow (everywhere)" too), env values and
   * key-like strings left out (core/text/option-label.ts); absent for a cancel and in older records.
   */
  optionName?: string;
  /** Who decided: the policy, a remembered allow_always rule, the user (host), or a cancel. */
  decidedBy: "policy" | "remembered" | "user" | "cancelled";
  /** Who answered, for a question of the thread host (the client that answered first: "acp-threads answer (pid 12)"). */
  answeredBy?: string;
  options: acp.PermissionOption[];
  /** The readable rule that decided (`allow execute "npm test"`), when a rule did. */
  rule?: string;
  /** Why, in words for the card: "allowed by rule: npm test", "asked: outside the workspace". */
  reason?: string;
  /** The request's paths that lie outside the session's roots. */
  outside?: string[];
}

export type RuntimeEvent =
  | { type: "text"; stream: StreamKind; text: string; messageId?: string }
  /** `context`: the chips of a prompt typed in ACP Threads (mentions, images); absent for agent replays. */
  | { type: "user_text"; text: string; messageId?: string; context?: ContextRef[]; steered?: boolean }
  | { type: "tool_call"; toolCall: ToolCallState }
  | { type: "plan"; entries: acp.PlanEntry[] }
  | { type: "commands"; commands: acp.AvailableCommand[] }
  | { type: "mode"; modeId: string }
  | { type: "config_options"; options: acp.SessionConfigOption[] }
  | { type: "session_info"; title?: string | null; updatedAt?: string | null }
  | { type: "usage"; used: number; size: number; cost?: { amount: number; currency: string } | null }
  | { type: "notice"; severity: "info" | "warning" | "error"; title: string; description?: string }
  | { type: "compaction"; compactionId: string; status: string; summary?: string }
  | { type: "permission"; decision: PermissionDecision }
  | { type: "done"; stopReason: acp.StopReason; usage?: TurnUsage }
  | { type: "error"; message: string; code?: number | string };

export type RuntimeEventType = RuntimeEvent["type"];
