/**
 * Renderers for `acp-threads run`: text (the agent's answer plus short tool-call lines) or json (one
 * normalized RuntimeEvent per line with its turn number, then a summary line).
 */
import { PROMPT_UNSENT } from "../../core/model/records";
import type { RuntimeEvent } from "../../core/model/events";
import type { RunOutcome } from "../../core/model/run";
import { agentLine } from "../terminal-text";

/** A run's end as `run` prints it: the engine's outcome (core/model/run.ts) with its exit code for how it ended. */
export interface RunSummary extends Omit<RunOutcome, "end" | "threadId"> {
  type: "summary";
  exitCode: number;
  /** The thread this run was recorded as (null when recording failed). */
  threadId?: string | null;
}

export interface TurnOutput {
  event(event: RuntimeEvent, turn: number): void;
  summary(summary: RunSummary): void;
}

export function jsonOutput(out: NodeJS.WritableStream): TurnOutput {
  return {
    event: (event, turn) => void out.write(JSON.stringify({ ...event, turn }) + "\n"),
    summary: (summary) => void out.write(JSON.stringify(summary) + "\n"),
  };
}

/** `command`: the command whose lines these are (`acp-threads attach: …`). */
export function textOutput(out: NodeJS.WritableStream, err: NodeJS.WritableStream, command = "run"): TurnOutput {
  const shown = new Map<string, string>();
  let atLineStart = true;
  const line = (text: string) => {
    out.write(`${atLineStart ? "" : "\n"}${text}\n`);
    atLineStart = true;
  };
  return {
    event(event) {
      switch (event.type) {
        case "text":
          if (event.stream !== "output" || !event.text) return;
          out.write(event.text);
          atLineStart = event.text.endsWith("\n");
          return;
        case "tool_call": {
          const { toolCallId, title, kind, status } = event.toolCall;
          // One line when a call first shows up and one when its status changes, not one per chunk.
          if (shown.get(toolCallId) === status) return;
          shown.set(toolCallId, status);
          line(`[${kind}] ${agentLine(title || toolCallId)} (${status})`);
          return;
        }
        case "permission": {
          const d = event.decision;
          const answer = d.optionKind?.startsWith("allow")
            ? "allowed"
            : d.decidedBy === "cancelled"
              ? "cancelled"
              : "denied";
          // the reason says why, headless too: "refused: outside the workspace (nobody can be asked)"; a client of the
          // thread host that answered is named: "(user: acp-threads answer (pid 12); asked: …)"
          const who = d.answeredBy ? `${d.decidedBy}: ${agentLine(d.answeredBy)}` : d.decidedBy;
          const why = d.reason ? `${d.answeredBy ? "; " : ": "}${agentLine(d.reason)}` : "";
          // the option chosen, by the name the person saw, next to its id: ` — "Always allow" [proceed_always]`
          const option = d.optionName && d.optionId ? ` — "${agentLine(d.optionName)}" [${agentLine(d.optionId)}]` : "";
          line(`[permission] ${agentLine(d.title || d.kind)}: ${answer} (${who}${why})${option}`);
          return;
        }
        case "notice":
          line(
            `[${event.severity}] ${agentLine(event.title)}${event.description ? `: ${agentLine(event.description)}` : ""}`,
          );
          return;
        case "error":
          if (!atLineStart) out.write("\n");
          atLineStart = true;
          // a prompt the host could not prepare failed before the agent saw it: not the agent's error
          err.write(
            `acp-threads ${command}: ${event.code === PROMPT_UNSENT ? "the thread host could not prepare the prompt" : "agent error"}: ${agentLine(event.message)}\n`,
          );
          return;
        case "done":
          if (!atLineStart) out.write("\n");
          atLineStart = true;
          return;
        default:
          return;
      }
    },
    summary(summary) {
      if (summary.stopReason && summary.stopReason !== "end_turn")
        err.write(`acp-threads ${command}: stopped (${summary.stopReason})\n`);
    },
  };
}
