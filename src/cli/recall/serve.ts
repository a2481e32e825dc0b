/**
 * `recall serve`: the warm recall process (core/recall/warm/server.ts). CLI queries start it on demand; run it
 * yourself to keep it warm, `--stop` to end the running one, `--status` to see whether one runs.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { askWarm, DEFAULT_IDLE_SECONDS, warmTarget } from "../../core/recall/warm/client";
import { codeKey } from "../../core/recall/warm/socket";
import { serveWarm } from "../../core/recall/warm/server";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { AcpThreadsError } from "../../core/errors";
import { command } from "../command";
import { timerFlag } from "../flags";
import { EXIT } from "../io";

export const serve = command(
  {
    name: "recall serve",
    synopsis: "[--idle-seconds N] | --stop | --status",
    flags: {
      "idle-seconds": {
        type: "number",
        min: 1,
        ...timerFlag(1000),
        arg: "N",
        help: `exit after N seconds without a request (${DEFAULT_IDLE_SECONDS})`,
      },
      stop: { type: "boolean", help: "stop the warm recall process of this index" },
      status: { type: "boolean", help: "say whether one is running" },
    },
    notes: "CLI queries start the warm process themselves; ACP_THREADS_RECALL_DAEMON=0 turns it off.",
  },
  async ({ io, flags }) => {
    const home = resolveHome(io.env);
    const dbPath = homeLayout(home).recallDb;
    const target = warmTarget(dbPath, { ...io.env, ACP_THREADS_RECALL_DAEMON: "" });
    if (!target) throw new AcpThreadsError("usage", "no warm recall process on this platform or build");
    if (flags.stop || flags.status) {
      const up = await askWarm(target, flags.stop ? { op: "stop" } : { op: "status" }, 5000).then(
        () => true,
        () => false,
      );
      io.stdout.write(`${up ? (flags.stop ? "stopped" : "running") : "not running"}: ${target.socket}\n`);
      return EXIT.ok;
    }
    process.umask(0o077); // the socket: only this user may connect
    mkdirSync(dirname(target.socket), { recursive: true, mode: 0o700 });
    const idle = flags["idle-seconds"] ?? (Number(io.env.ACP_THREADS_RECALL_IDLE_SECONDS) || DEFAULT_IDLE_SECONDS);
    const key = target.key;
    const stale = () => codeKey(target.bundle) !== key;
    const logFile = `${target.socket}.log`;
    const log = (line: string) => {
      try {
        appendFileSync(logFile, `${new Date().toISOString()} pid ${process.pid} ${line}\n`, { mode: 0o600 });
      } catch {
        // the folder is gone: nothing to tell
      }
    };
    log("starting");
    const why = await serveWarm({
      home,
      dbPath,
      socket: target.socket,
      keyFile: target.keyFile,
      idleMs: idle * 1000,
      stale,
      log,
      signal: io.signal,
    });
    if (why === "busy") io.stderr.write(`acp-threads recall serve: already running on ${target.socket}\n`);
    return EXIT.ok;
  },
  "the warm recall process (started on demand by queries)",
);
