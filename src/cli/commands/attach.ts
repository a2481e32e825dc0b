/**
 * `acp-threads attach THREAD [--from N] [--follow] [--format json]`: the thread's records from record N (default:
 * all), then, while the thread host runs it, its live records to the end of the running turn (`--follow`: to the
 * end of the run), printed as `run` prints them, nothing lost or doubled. Permission questions and the agent's
 * elicitations are asked on a terminal (first answer from any client wins); the watchdog's alerts are printed. A connection the host drops (this client fell behind) is
 * reopened from the cursor.
 */
import { hostFor } from "../host-client";
import type { HostConnection } from "../../core/host/client";
import type { HostPush } from "../../core/host/protocol";
import { readRecordsAsync } from "../../core/store/jsonl-reader";
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { background } from "../../core/util/unexpected";
import { AttachView } from "../attach-view";
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT, type CliIO } from "../io";
import { jsonOutput, textOutput } from "../output/turn-output";

const SPEC = {
  name: "attach",
  synopsis: "THREAD [--from N] [--follow] [--format json]",
  args: { min: 1, max: 1, name: "THREAD" },
  flags: {
    from: { type: "number", integer: true, min: 0, arg: "N", help: "start at record N (0: the whole thread)" },
    follow: { type: "boolean", help: "keep following after the running turn, to the end of the run in the host" },
    format: FORMAT,
  },
  notes: `exit codes: 0 the turn (or with --follow the run) ended, 1 the run failed or the host went away mid-turn`,
} as const;

/** Reattaches this many times in a row when the host drops the connection (a client that fell behind). */
const REATTACH_TRIES = 5;

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const store = new ThreadStore(resolveHome(io.env));
    const threadId = store.resolveId(args[0]!);
    const output = flags.format === "json" ? jsonOutput(io.stdout) : textOutput(io.stdout, io.stderr, "attach");
    const view = new AttachView(io, output, flags.from ?? 0);
    for (let tries = 0; tries < REATTACH_TRIES; tries++) {
      const conn = await hostFor(io, "attach", false);
      const outcome = conn ? await follow(io, conn, threadId, view, flags.follow === true) : "not-held";
      if (outcome === "not-held") {
        // not (or no longer) in the host: what the file holds is the whole story
        const { records } = await readRecordsAsync(store.pathFor(threadId));
        view.show(0, records);
        const lastPrompt = records.findLastIndex((r) => r.kind === "user_message");
        if (lastPrompt !== -1 && !records.slice(lastPrompt).some((r) => r.kind === "turn_end"))
          io.stderr.write(
            `acp-threads attach: the last turn of thread ${threadId} was interrupted (nothing runs it now); 'acp-threads run --thread ${threadId} PROMPT' goes on\n`,
          );
        return EXIT.ok;
      }
      if (typeof outcome === "number") return outcome;
      if (outcome === "progress") tries = 0;
    }
    io.stderr.write(`acp-threads attach: the thread host went away; thread ${threadId} was interrupted\n`);
    return EXIT.error;
  },
  "follow a thread the thread host runs: its records from a cursor, then live",
);

/** Follows until the turn (or run) ends: an exit code; "dropped"/"progress" when the connection went first. */
function follow(
  io: CliIO,
  conn: HostConnection,
  threadId: string,
  view: AttachView,
  toTheEnd: boolean,
): Promise<number | "not-held" | "dropped" | "progress"> {
  const start = view.cursor;
  const endedBefore = view.turnsEnded;
  return new Promise((resolve) => {
    const finish = (r: number | "not-held" | "dropped" | "progress") => {
      io.signal.removeEventListener("abort", interrupted);
      conn.close();
      resolve(r);
    };
    const interrupted = () => finish(EXIT.interrupted);
    io.signal.addEventListener("abort", interrupted, { once: true });
    conn.onClose(() => finish(view.cursor > start ? "progress" : "dropped"));
    conn.onPush((m: HostPush) => {
      if (m.t === "records" && m.threadId === threadId) {
        view.show(m.from, m.records);
        if (!toTheEnd && view.turnsEnded > endedBefore) finish(EXIT.ok);
      } else if (m.t === "question" && m.question.threadId === threadId) {
        background(
          view.ask(m.question).then(async (option) => {
            const { requestId } = m.question;
            if (option) await conn.request({ t: "answer", threadId, option, requestId }).catch(() => undefined);
          }),
          "asking a permission question",
        );
      } else if (m.t === "elicitation" && m.elicitation.threadId === threadId) {
        const { requestId } = m.elicitation;
        background(
          view.elicit(m.elicitation).then(async (answer) => {
            if (answer) await conn.request({ t: "elicited", threadId, requestId, answer }).catch(() => undefined);
          }),
          "asking the agent's question",
        );
      } else if (m.t === "watchdog" && m.threadId === threadId) view.watchdog(m.watchdog);
      else if (m.t === "settled" && m.threadId === threadId)
        view.settled(m.optionId, m.by, m.action && { requestId: m.requestId, action: m.action }, m.requestId);
      else if (m.t === "ended" && m.threadId === threadId) {
        if (m.error) io.stderr.write(`acp-threads attach: ${m.error}\n`);
        finish(m.exitCode === EXIT.ok ? EXIT.ok : EXIT.error);
      }
    });
    conn.request({ t: "attach", threadId, from: view.cursor, ...(view.elicits ? { elicits: true } : {}) }).then(
      (r) => r.t === "attached" && !r.live && finish("not-held"),
      () => finish("dropped"),
    );
  });
}
