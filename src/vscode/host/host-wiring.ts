/**
 * The window's part in the thread host (#35), wired at start. While not connected it looks, with two async stats
 * and no connection, for a reason to: a host socket it has not seen (a host started by `run --detach` or another
 * window) or a change in the threads folder (a new thread, perhaps one a known host runs now). It looks when the
 * watch of the socket's folder (socket-watch.ts) tells of a change, at once, so a window that serves files is
 * connected and has offered them before a new host's first run asks for one; and every POLL_MS, a slow safety net
 * (a platform that cannot watch, a thread started in a host that holds nothing, which a window serving nothing
 * let go). A window that serves nothing lets a host that holds nothing go at once (host-link.ts), and the socket it
 * knows is not tried again until something changes; a socket no host answered at is tried again at each look, and
 * a connection the host dropped is opened again at once. A panel already open on a thread the host turns out to hold
 * (restored after a window reload, say) is drawn again, following it.
 */
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import type * as vscode from "vscode";
import { hostPlace } from "../../core/host/door";
import { watchSocket } from "../../core/host/socket-watch";
import { toDisposable } from "../../core/lifecycle";
import { background } from "../../core/util/unexpected";
import type { HostedThreads } from "./hosted-threads";

export interface HostWiringDeps {
  home: string;
  threadsDir: string;
  hosted: HostedThreads;
  /** The thread's open panel: whether it was drawn as a stored thread (so not following the host). */
  panel(threadId: string): { showsPast: boolean } | undefined;
  /** A session of the thread runs in this window. */
  runsHere(threadId: string): boolean;
  refreshPanel(threadId: string): void;
}

export const POLL_MS = 10_000;

export function wireHostedThreads(d: HostWiringDeps): vscode.Disposable {
  const socket = hostPlace(d.home).socket;
  let seen = "";
  let looking = false;
  let again = false;
  const look = async (): Promise<void> => {
    if (looking) return void (again = true); // a change told while looking: looked at once after
    looking = true;
    again = false;
    try {
      // connected, or on the way to a host (perhaps one that is leaving: a new host's socket told meanwhile is
      // looked at once that attempt settled with nothing)
      if (d.hosted.link.connected) {
        const c = await d.hosted.link.connection();
        if (c && !c.closed) return;
      }
      const [s, t] = await Promise.all([
        stat(socket).catch(() => undefined),
        stat(d.threadsDir).catch(() => undefined),
      ]);
      const now = `${s?.ino ?? ""}:${s?.ctimeMs ?? ""}:${t?.mtimeMs ?? ""}`;
      if (!s || now === seen) return void (seen = now);
      // a socket no host answered at (one starting or leaving, a refused door) is tried again at the next look
      seen = (await d.hosted.link.check()) ? now : "";
    } finally {
      looking = false;
    }
    if (again) await look();
  };
  const timer = setInterval(() => background(look(), "looking for the thread host"), POLL_MS);
  // the socket in the data home, or in the temporary folder when the data home's path is too long for one
  const top = socket.startsWith(d.home) ? d.home : dirname(dirname(socket));
  const watch = watchSocket(socket, top, () => background(look(), "looking for the thread host"));
  // a host that left while another started (a socket told while this window was still connected to the old one);
  // a connection the host dropped (this window fell behind) is opened again at once: the host and its socket are
  // the same, so nothing the look compares would change
  const lost = d.hosted.link.onDidLose(({ letGo }) => {
    if (!letGo) seen = "";
    background(look(), "looking for the thread host");
  });
  const sessions = d.hosted.link.onDidChange(() => {
    for (const s of d.hosted.link.sessions) {
      const p = d.panel(s.threadId);
      if (p?.showsPast && !d.runsHere(s.threadId)) d.refreshPanel(s.threadId);
    }
  });
  background(look(), "looking for the thread host");
  return toDisposable(() => {
    clearInterval(timer);
    watch.close();
    lost.dispose();
    sessions.dispose();
  });
}
