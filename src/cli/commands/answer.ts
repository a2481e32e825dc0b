/**
 * `acp-threads answer THREAD --option allow|reject|OPTION_ID`: answers the permission question a thread in the
 * thread host waits on, from any shell. The first answer from any client wins: exit 1 when nothing is pending
 * or someone answered first (named). `--question ID` names the question answered (attach prints it): an answer
 * that comes after it was settled is refused, never given to the question the agent asked next.
 */
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { command } from "../command";
import { onHost } from "../host-client";
import { EXIT } from "../io";

const SPEC = {
  name: "answer",
  synopsis: "THREAD --option allow|reject|OPTION_ID [--question ID]",
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
      help: "the question answered (its id, as `attach` and `events` show it): refused once it was answered, never given to the next question; without it, the oldest question pending",
    },
  },
  notes: "exit codes: 0 answered, 1 nothing pending / answered already / no such option, 4 no thread host runs",
} as const;

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const threadId = new ThreadStore(resolveHome(io.env)).resolveId(args[0]!);
    return onHost(io, "answer", async (conn) => {
      const question = flags.question ? { requestId: flags.question } : {};
      const r = await conn.request({ t: "answer", threadId, option: flags.option, ...question });
      if (r.t === "answered") io.stdout.write(`${r.optionId}\n`);
      return EXIT.ok;
    });
  },
  "answer a permission question a thread in the thread host waits on (first answer wins)",
);
