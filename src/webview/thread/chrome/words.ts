/** Human words for protocol values shown in the panel: stop reasons and live statuses. */
import type { LiveStatus, PickerView } from "../protocol";

const STOP: Record<string, string> = {
  end_turn: "Finished",
  cancelled: "Cancelled",
  max_tokens: "Hit the token limit",
  max_turn_requests: "Hit the limit of model requests for one turn",
  refusal: "The agent refused to continue",
};

export function stopReasonText(reason: string): string {
  return STOP[reason] ?? reason.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export const STATUS_TEXT: Record<LiveStatus, string> = {
  draft: "Not started",
  starting: "Starting…",
  working: "Working",
  waiting_permission: "Waiting for you",
  idle: "Ready",
  failed: "Failed",
  closed: "Finished",
  readonly: "Past session",
};

/** "0:07", "1:02:03": elapsed time on a working turn. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** "Who decides what needs permission": the agent's mode, its description, and who approves actions. */
export function whoDecidesText(w: NonNullable<PickerView["permissions"]>): string {
  // the sentence goes on after the description: one the agent ended with a period got two ("internet..", #37)
  const about = w.description ? ` — ${w.description.replace(/[\s.]+$/, "")}` : "";
  return w.agentDecides
    ? `⚠ Agent mode "${w.mode}"${about}. The agent approves some actions itself; only what it asks about reaches you.`
    : `Agent mode "${w.mode}"${about}. Actions go through your permission setting.` +
        (w.switchedFrom ? ` (Switched from "${w.switchedFrom}" to follow it.)` : "");
}
