/**
 * A parent-death guard for agent process groups.
 *
 * When the host dies without stopping its agents (SIGKILL, a crash of the extension host), only its end of
 * the agent's stdin closes. gemini and opencode exit on that EOF, but codex-acp and claude-agent-acp ignore it
 * while idle and live on as orphans. Node has no PR_SET_PDEATHSIG, so a tiny detached shell watches the host
 * pid and, once it is gone, sends SIGTERM and then SIGKILL to the agent's group. It also ends by itself as soon
 * as the agent's group is gone, so a normal stop leaves nothing behind.
 *
 * Windows needs no watcher for the agent itself: libuv puts every non-detached child in a job object that is
 * killed when the host's last handle to it closes, i.e. when the host dies however it dies. Processes the
 * agent starts leave that job (libuv allows silent breakaway), so they can outlive a crashed host there; a
 * watcher could not help, because the job has already killed the agent whose tree it would walk.
 */
import { spawn } from "node:child_process";
import { isPosix } from "../platform/host";

export const GUARD_POLL_S = 1;
export const GUARD_KILL_GRACE_S = 2;

const SCRIPT = [
  'host="$1"; group="$2"',
  `while kill -0 "$host" 2>/dev/null && kill -0 -"$group" 2>/dev/null; do sleep ${GUARD_POLL_S}; done`,
  'kill -0 -"$group" 2>/dev/null || exit 0',
  'kill -TERM -"$group" 2>/dev/null',
  `sleep ${GUARD_KILL_GRACE_S}`,
  'kill -KILL -"$group" 2>/dev/null',
  "exit 0",
].join("\n");

/** Starts the guard for the group led by `groupPid`; returns a function that stops it (idempotent). */
export function guardAgainstParentDeath(groupPid: number, hostPid = process.pid): () => void {
  if (!isPosix() || groupPid <= 0) return () => {};
  let guard: ReturnType<typeof spawn> | undefined;
  try {
    guard = spawn("/bin/sh", ["-c", SCRIPT, "acp-threads-guard", String(hostPid), String(groupPid)], {
      detached: true,
      stdio: "ignore",
    });
    guard.on("error", () => {});
    guard.unref();
  } catch {
    return () => {};
  }
  return () => {
    if (guard?.pid && guard.exitCode === null) {
      try {
        process.kill(-guard.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
}
