/**
 * `acp-threads host status|stop|serve`: the thread host (src/core/host), the process that keeps detached runs
 * going (`run --detach`) for every client. `serve` is what a client starts; it is not meant to be typed.
 */
import { DEFAULT_IDLE_MS, ThreadHost, type HostRunner } from "../../core/host/server";
import type { HostStatus } from "../../core/host/protocol";
import type { Logger } from "../../core/log";
import { stderrLogger } from "../stderr-logger";
import type { HostConnection } from "../../core/host/client";
import { AcpThreadsError } from "../../core/errors";
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { background } from "../../core/util/unexpected";
import { command, subcommands } from "../command";
import { FORMAT, timerFlag } from "../flags";
import { describeOther, type OtherHost } from "../../core/host/others";
import { hostFor, hostPlaceFor, otherHostsFor } from "../host-client";
import { EXIT, type CliIO } from "../io";
import { agentLine } from "../terminal-text";
import { watchdogLine } from "../watchdog-line";

const duration = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m${s % 60}s`
      : `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
};

function printStatus(io: CliIO, st: HostStatus): void {
  io.stdout.write(
    `host pid ${st.pid}, version ${st.version}, up ${duration(st.uptimeMs)}, ${st.clients} client(s), socket ${st.socket}\n`,
  );
  if (!st.sessions.length) io.stdout.write("no sessions\n");
  for (const e of st.execs ?? [])
    io.stdout.write(`exec ${e.runId}  running  ${agentLine(e.commandLine)}  (${e.cwd})\n`);
  for (const s of st.sessions) {
    const watch = s.watchdog && watchdogLine(s.watchdog, s.watchdog.auto);
    io.stdout.write(
      `${s.threadId}  ${s.state}  ${s.clients} attached${s.pending ? `  waiting for an answer: ${agentLine(s.pending.title)}` : ""}${watch ? `  ${agentLine(watch)}` : ""}\n`,
    );
  }
}

/** The hosts of other versions (text: one line each; json: the `others` field). */
function printOthers(io: CliIO, format: unknown, others: OtherHost[]): void {
  if (format !== "json") for (const h of others) io.stdout.write(`${describeOther(h)}\n`);
}

/**
 * The run path (the engine, the ACP SDK) is loaded with the first run: a host waiting idle holds the server only
 * (its idle RSS is a target of #35).
 */
function lazyRunner(home: string, logger: Logger): HostRunner {
  let runner: Promise<HostRunner> | undefined;
  return async (run, ctl) => {
    runner ??= import("../host-runner").then((m) => m.hostRunner(home, logger));
    return (await runner)(run, ctl);
  };
}

/**
 * How long the host stays with no session and no client: `--idle-minutes` (what the starting client passes: the
 * editor its `acpThreads.host.idleMinutes`), else `ACP_THREADS_HOST_IDLE_SECONDS` (the tests), else 10 minutes.
 */
function idleMs(env: NodeJS.ProcessEnv, minutes: number | undefined): number {
  if (minutes !== undefined) return minutes * 60_000;
  const s = Number(env.ACP_THREADS_HOST_IDLE_SECONDS);
  return Number.isFinite(s) && s > 0 ? s * 1000 : DEFAULT_IDLE_MS;
}

/**
 * `host stop THREAD`: ends the host's run on one thread (a run the editor keeps open between prompts, or a turn
 * still running: cancelled) and waits for its `ended`; the host stays. Exit 1 when the host does not hold it.
 */
async function stopThread(io: CliIO, conn: HostConnection, thread: string): Promise<number> {
  const threadId = new ThreadStore(resolveHome(io.env)).resolveId(thread);
  try {
    const ended = new Promise<void>((r) => conn.onPush((m) => m.t === "ended" && m.threadId === threadId && r()));
    const att = await conn.request({ t: "attach", threadId, from: Number.MAX_SAFE_INTEGER });
    if (att.t !== "attached" || !att.live)
      throw new AcpThreadsError("protocol", `the host does not hold thread ${threadId}`);
    await conn.request({ t: "stop_thread", threadId });
    await ended;
    io.stderr.write(`acp-threads host stop: the host's run on thread ${threadId} ended\n`);
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof AcpThreadsError && err.code === "protocol")) throw err;
    io.stderr.write(`acp-threads host stop: ${err.message}\n`);
    return EXIT.error;
  }
}

export const main = subcommands({
  name: "host",
  synopsis: "<subcommand> [options]",
  subs: {
    status: command(
      { name: "host status", synopsis: "[--format json]", flags: { format: FORMAT }, args: { max: 0 } },
      async ({ io, flags }) => {
        const others = await otherHostsFor(io, "host status");
        const conn = await hostFor(io, "host status", false);
        if (!conn) {
          if (flags.format === "json") io.stdout.write(`${JSON.stringify({ running: false, others })}\n`);
          else io.stdout.write("no thread host runs for this data home\n");
          printOthers(io, flags.format, others);
          return EXIT.noSession;
        }
        try {
          const r = await conn.request({ t: "status" });
          if (r.t !== "status") return EXIT.error;
          if (flags.format === "json") io.stdout.write(`${JSON.stringify({ running: true, ...r.status, others })}\n`);
          else printStatus(io, r.status);
          printOthers(io, flags.format, others);
          return EXIT.ok;
        } finally {
          conn.close();
        }
      },
      "the thread host: pid, version, uptime, clients, sessions; and the hosts of other versions still running",
    ),
    stop: command(
      {
        name: "host stop",
        synopsis: "[THREAD] [--force]",
        flags: { force: { type: "boolean", help: "stop the sessions that still run (their turns are cancelled)" } },
        args: { max: 1 },
      },
      async ({ io, flags, args }) => {
        const conn = await hostFor(io, "host stop", false);
        if (!conn) {
          io.stderr.write("acp-threads host stop: no thread host runs for this data home\n");
          return EXIT.noSession;
        }
        try {
          if (args[0] !== undefined) return await stopThread(io, conn, args[0]);
          const closed = new Promise<void>((r) => conn.onClose(r));
          await conn.request({ t: "stop", force: flags.force === true });
          await closed; // the host closes every connection as it leaves
          io.stderr.write("acp-threads host stop: the thread host left\n");
          return EXIT.ok;
        } finally {
          conn.close();
        }
      },
      "stop the thread host (--force: with the sessions it runs), or (THREAD) the host's run on one thread",
    ),
    serve: command(
      {
        name: "host serve",
        synopsis: "[--idle-minutes N]",
        flags: {
          "idle-minutes": {
            type: "number",
            above: 0,
            ...timerFlag(60_000),
            arg: "N",
            help: "leave N minutes after the last session and client (default 10)",
          },
        },
        args: { max: 0 },
      },
      async ({ io, flags }) => {
        const home = resolveHome(io.env);
        const logger = stderrLogger("info");
        const place = hostPlaceFor(io);
        const host = new ThreadHost({
          home,
          place,
          runner: lazyRunner(home, logger),
          idleMs: idleMs(io.env, flags["idle-minutes"]),
          logger,
        });
        if (!(await host.listen())) {
          logger.info("another thread host serves this data home; leaving");
          return EXIT.ok;
        }
        io.signal.addEventListener("abort", () => background(host.stop(), "stopping the thread host"), { once: true });
        logger.info(`thread host ${process.pid} (version ${place.version}) serves ${place.socket}`);
        await host.closed;
        return EXIT.ok;
      },
      "run the thread host in this process (clients start it by themselves)",
    ),
  },
});
