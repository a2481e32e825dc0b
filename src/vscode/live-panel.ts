/**
 * What a thread panel shows of a live session in this window (thread-panel.ts): its header and status, with when
 * its running turn started (the elapsed time in the header), and feedback sent once it is idle.
 */
import type { HostMessage } from "../webview/thread/protocol";
import { background } from "../core/util/unexpected";
import type { LiveSession } from "./live-session";

/** When each live session's running turn started (for the elapsed time in the panel header). */
const turnStarts = new WeakMap<LiveSession, number>();
const running = (s: string) => s === "working" || s === "waiting_permission";

/** The `init` message's header and status for a live session (its turn clock started if it runs). */
export function liveInit(
  live: LiveSession,
): Pick<Extract<HostMessage, { type: "init" }>, "header" | "status" | "since"> {
  if (running(live.status) && !turnStarts.has(live)) turnStarts.set(live, Date.now());
  return {
    header: {
      threadId: live.threadId,
      title: live.title,
      agent: live.agent.displayName,
      cwd: live.cwd,
      sessionId: live.sessionId,
      acceptsInput: live.mode === "session",
      resumable: true, // once it ends, a prompt typed here resumes the thread
      cancels: true,
      ...(live.sandboxed ? { sandboxed: true } : {}),
    },
    status: live.status,
    since: running(live.status) ? turnStarts.get(live) : undefined,
  };
}

/** The `status` message for a live session's new status `s` (its turn clock started or stopped). */
export function liveStatus(live: LiveSession, s: LiveSession["status"]): Extract<HostMessage, { type: "status" }> {
  if (!running(s)) turnStarts.delete(live);
  else if (!turnStarts.has(live)) turnStarts.set(live, Date.now());
  const sandboxed = live.sandboxed ? { sandboxed: true } : {};
  return { type: "status", status: s, detail: live.statusDetail, since: turnStarts.get(live), ...sandboxed };
}

/** Sends `text` as the next prompt once the session is idle (feedback given with a rejected permission). */
export function promptWhenIdle(live: LiveSession, text: string): void {
  if (live.status === "idle") return void live.prompt(text);
  const sub = live.onStatus((s) => {
    if (s === "idle") {
      sub.dispose();
      background(live.prompt(text), "sending a prompt");
    } else if (s === "closed" || s === "failed") sub.dispose();
  });
}
