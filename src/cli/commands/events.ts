/**
 * `acp-threads events [--follow] [--format json]`: what happens in the thread host's sessions, for other tools:
 * a thread started, needs an answer, was answered, a turn ended (stop reason, files edited) and what the agent
 * reported it used (tokens, cost, context), a run ended. Without
 * --follow: the questions waiting now, then exit; with it, every event as it comes until the host leaves.
 */
import type { ElicitationNeed, HostEvent } from "../../core/host/protocol";
import { command } from "../command";
import { FORMAT } from "../flags";
import { hostFor } from "../host-client";
import { EXIT, type CliIO } from "../io";
import { agentLine } from "../terminal-text";

const SPEC = {
  name: "events",
  synopsis: "[--follow] [--format json]",
  args: { max: 0 },
  flags: {
    follow: { type: "boolean", help: "keep printing events as they come (until the host leaves or Ctrl-C)" },
    format: FORMAT,
  },
  notes:
    "json: one event per line: {kind, threadId, at, ...}; kinds: started, needs_input (a permission question, or with " +
    "`elicitation` an agent's form or web page step), answered, turn_started, turn_ended, usage, ended",
} as const;

/** What was answered: the option's name as the person saw it (and its id), an elicitation's action, or `-`. */
function answer(e: Extract<HostEvent, { kind: "answered" }>): string {
  if (e.optionId === null) return e.action ?? "-";
  return e.optionName && e.optionName !== e.optionId ? `${e.optionName} (${e.optionId})` : e.optionId;
}

function line(e: HostEvent): string {
  switch (e.kind) {
    case "needs_input":
      return `${e.at} needs_input ${e.threadId} ${agentLine(e.question.title)}${e.elicitation ? ` (${needed(e.elicitation)})` : ""}`;
    case "answered":
      return `${e.at} answered ${e.threadId} ${agentLine(answer(e))} by ${agentLine(e.by)}`;
    case "turn_ended":
      return `${e.at} turn_ended ${e.threadId} ${e.stopReason ?? "-"}${e.filesChanged.length ? ` ${e.filesChanged.join(" ")}` : ""}`;
    case "usage":
      return `${e.at} usage ${e.threadId}${usageText(e)}`;
    case "ended":
      return `${e.at} ended ${e.threadId} exit ${e.exitCode}`;
    default:
      return `${e.at} ${e.kind} ${e.threadId}`;
  }
}

export const main = command(
  SPEC,
  async ({ io, flags }) => {
    const print = (e: HostEvent) => io.stdout.write(`${flags.format === "json" ? JSON.stringify(e) : line(e)}\n`);
    const conn = await hostFor(io, "events", false);
    if (!conn) {
      io.stderr.write("acp-threads events: no thread host runs for this data home\n");
      return EXIT.noSession;
    }
    try {
      const closed = new Promise<void>((r) => conn.onClose(r));
      conn.onPush((m) => m.t === "event" && print(m.event));
      if (flags.follow) await conn.request({ t: "events" });
      const st = await conn.request({ t: "status" });
      if (st.t === "status")
        for (const s of st.status.sessions)
          if (s.pending)
            print({ kind: "needs_input", threadId: s.threadId, at: new Date().toISOString(), question: s.pending });
      if (!flags.follow) return EXIT.ok;
      await Promise.race([closed, untilAborted(io)]);
      return io.signal.aborted ? EXIT.interrupted : EXIT.ok;
    } finally {
      conn.close();
    }
  },
  "thread host events across all sessions (started, needs input, turn ended...), for other tools",
);

/** What an elicitation asks for, in a text line. */
const needed = (n: ElicitationNeed) =>
  n.mode === "url" ? `web page on ${agentLine(n.host)}` : `form: ${n.fields.map(agentLine).join(", ")}`;

function usageText(e: Extract<HostEvent, { kind: "usage" }>): string {
  const parts = [
    ...(e.tokens ? [`${e.tokens.totalTokens} tokens`] : []),
    ...(e.cost ?? []).map((c) => `${c.amount} ${agentLine(c.currency)}`),
    ...(e.context ? [`context ${e.context.used}/${e.context.size}`] : []),
  ];
  return parts.length ? ` ${parts.join(", ")}` : "";
}

const untilAborted = (io: CliIO) =>
  new Promise<void>((r) => io.signal.addEventListener("abort", () => r(), { once: true }));
