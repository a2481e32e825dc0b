/**
 * `acp-threads answer THREAD --option allow|reject|OPTION_ID`: answers the permission question a thread in the
 * thread host waits on, from any shell. The first answer from any client wins: exit 1 when nothing is pending
 * or someone answered first (named). `--question ID` names the question answered (attach prints it): an answer
 * that comes after it was settled is refused, never given to the question the agent asked next. Without it, the
 * only question pending is answered; when the agent waits on more than one, none is (the person may have read
 * another than the host would take): the refusal lists them by id and title. Says which question it answered.
 */
import { HostRefusal } from "../../core/host/protocol-refusal";
import { localEngine } from "../../core/engine/local";
import { resolveHome } from "../../core/store/paths";
import { command } from "../command";
import { FORMAT } from "../flags";
import { onHost } from "../host-client";
import { EXIT } from "../io";
import { agentLine } from "../terminal-text";

const SPEC = {
  name: "answer",
  synopsis: "THREAD --option allow|reject|OPTION_ID [--question ID] [--format json]",
  args: { min: 1, max: 1, name: "THREAD" },
  flags: {
    option: {
      type: "string",
      required: true,
      arg: "OPTION",
      help: "allow or reject (the agent's allow-once / reject-once option), or one of its option ids",
    },
    question: {
      type: "string",
      arg: "ID",
      help: "the question answered (its id, as `attach` and `events` show it): refused once it was answered, never given to the next question; without it, the only question pending (refused, naming each, when there are more)",
    },
    format: FORMAT,
  },
  notes: `prints the option taken (its id and "label"), then the question answered ("question ID: TITLE"); json:
{requestId, title, optionId, optionName}
exit codes: 0 answered, 1 nothing pending / more than one pending and no --question / answered already / no such
option, 4 no thread host runs`,
} as const;

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const engine = localEngine({ home: resolveHome(io.env) });
    const { threadId } = await engine.call({ op: "threads.resolve", threadId: args[0]! });
    return onHost(io, "answer", async (conn) => {
      const question = flags.question ? { requestId: flags.question } : {};
      const r = await conn
        .request({ t: "answer", threadId, option: flags.option, ...question })
        .catch((err: unknown) => Promise.reject(listed(threadId, err)));
      if (r.t !== "answered") return EXIT.ok;
      const { requestId, title, optionId, name } = r;
      // the option's label next to its id, when the host names it (an older host does not)
      const label = name ? ` "${agentLine(name)}"` : "";
      io.stdout.write(
        flags.format === "json"
          ? `${JSON.stringify({ requestId, title, optionId, ...(name ? { optionName: name } : {}) })}\n`
          : `${agentLine(optionId)}${label}\nquestion ${agentLine(requestId)}: ${agentLine(title)}\n`,
      );
      return EXIT.ok;
    });
  },
  "answer a permission question a thread in the thread host waits on (first answer wins)",
);

/** The `ambiguous` refusal with each question waiting on its own line (id and title, made safe to print). */
function listed(threadId: string, err: unknown): unknown {
  if (!(err instanceof HostRefusal) || err.reason !== "ambiguous" || !err.pending) return err;
  const lines = err.pending.map((p) => `\n  ${agentLine(p.requestId)}  ${agentLine(p.title)}`).join("");
  const message = `thread ${threadId} has ${err.pending.length} questions pending, so none was answered; name the one you answer with --question ID:${lines}`;
  return new HostRefusal(err.reason, message, undefined, err.pending);
}
