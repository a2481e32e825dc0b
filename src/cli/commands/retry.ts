/**
 * `acp-threads retry THREAD [--step cancel|continue|restart] [--dismiss]`: takes the watchdog's retry rung of a
 * thread the thread host runs, from any shell, as the window's Retry does (the host's `retry` request): the next
 * rung by default (cancel → continue → restart), or the one named; `--dismiss` forgets the alert instead. Exit 1
 * when the host does not hold the thread, its run has no watchdog, or there is nothing to retry.
 */
import type { HostConnection } from "../../core/host/client";
import type { HostSessionInfo } from "../../core/host/protocol";
import { RETRY_STEPS } from "../../core/model/watchdog";
import { localEngine } from "../../core/engine/local";
import { resolveHome } from "../../core/store/paths";
import { command } from "../command";
import { onHost } from "../host-client";
import { EXIT } from "../io";
import { agentLine } from "../terminal-text";

const SPEC = {
  name: "retry",
  synopsis: "THREAD [--step cancel|continue|restart] [--dismiss]",
  args: { min: 1, max: 1, name: "THREAD" },
  flags: {
    step: {
      type: "enum",
      values: RETRY_STEPS,
      help: "the rung to take (default: the next one the watchdog offers)",
    },
    dismiss: { type: "boolean", help: "forget the watchdog's alert instead of retrying" },
  },
  notes:
    "restart: a new agent process, the session reopened (load, resume or seeded), then 'continue' if a turn was cut; " +
    "exit codes: 0 done, 1 not held by the host / no watchdog / nothing to retry, 4 no thread host runs",
} as const;

export const main = command(
  SPEC,
  async ({ io, flags, args }) => {
    const engine = localEngine({ home: resolveHome(io.env) });
    const { threadId } = await engine.call({ op: "threads.resolve", threadId: args[0]! });
    return onHost(io, "retry", async (conn) => {
      const held = await session(conn, threadId);
      if (!held) {
        io.stderr.write(`acp-threads retry: the thread host does not hold thread ${threadId}\n`);
        return EXIT.error;
      }
      if (flags.dismiss && !held.watchdog?.alert) {
        io.stderr.write(`acp-threads retry: thread ${threadId} has no watchdog alert to dismiss\n`);
        return EXIT.error;
      }
      await conn.request({
        t: "retry",
        threadId,
        ...(flags.step ? { step: flags.step } : {}),
        ...(flags.dismiss ? { dismiss: true } : {}),
      });
      const taken = (await session(conn, threadId))?.watchdog?.history.at(-1);
      if (!flags.dismiss && taken) io.stdout.write(`${taken.step}: ${agentLine(taken.outcome)}\n`);
      return EXIT.ok;
    });
  },
  "take the watchdog's retry step (cancel, continue, restart) of a thread in the thread host",
);

async function session(conn: HostConnection, threadId: string): Promise<HostSessionInfo | undefined> {
  const r = await conn.request({ t: "status" });
  return r.t === "status" ? r.status.sessions.find((s) => s.threadId === threadId && s.state !== "ended") : undefined;
}
