/**
 * `acp-threads answer THREAD --option allow|reject|OPTION_ID`: answers the permission question a thread in the
 * thread host waits on, from any shell. The first answer from any client wins: exit 1 when nothing is pending
 * or someone answered first (named).
 */
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { command } from "../command";
import { onHost } from "../host-client";
import { EXIT } from "../io";

const SPEC = {
  name: "answer",
  synopsis: "THREAD --option allow|reject|OPTION_ID",
  args: { min: 1, max: 1, name: "THREAD" },
  flags: {
    option: {
      type: "string",
      required: true,
      arg: "OPTION",
      help: "allow or reject (the agent's allow-once / reject-once option), or one of its option ids",
    },
  },
  notes: "exit codes: 0 answered, 1 nothing pending / answered already / no such option, 4 no thread host runs",
} as const;

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const threadId = new ThreadStore(resolveHome(io.env)).resolveId(args[0]!);
    return onHost(io, "answer", async (conn) => {
      const r = await conn.request({ t: "answer", threadId, option: flags.option });
      if (r.t === "answered") io.stdout.write(`${r.optionId}\n`);
      return EXIT.ok;
    });
  },
  "answer a permission question a thread in the thread host waits on (first answer wins)",
);
