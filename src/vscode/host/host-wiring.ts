/**
 * The window's part in the thread host (#35), wired at start. While not connected it looks every POLL_MS, with
 * two async stats and no connection, for a reason to: a host socket it has not seen (a host started by `run
 * --detach` or another window) or a change in the threads folder (a new thread, perhaps one a known host runs
 * now). Connecting to a host that holds nothing is let go at once (host-link.ts), and the socket it knows is not
 * tried again until something changes, so the window never keeps an idle host from leaving. A panel already open
 * on a thread the host turns out to hold (restored after a window reload, say) is drawn again, following it.
 */
import { stat } from "node:fs/promises";
import type * as vscode from "vscode";
import { hostPlace } from "../../core/host/door";
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

export const POLL_MS = 2_000;

export function wireHostedThreads(d: HostWiringDeps): vscode.Disposable {
  const socket = hostPlace(d.home).socket;
  let seen = "";
  let looking = false;
  const look = async () => {
    if (looking || d.hosted.link.connected) return;
    looking = true;
    try {
      const [s, t] = await Promise.all([
        stat(socket).catch(() => undefined),
        stat(d.threadsDir).catch(() => undefined),
      ]);
      const now = `${s?.ino ?? ""}:${s?.ctimeMs ?? ""}:${t?.mtimeMs ?? ""}`;
      if (!s || now === seen) return void (seen = now);
      seen = now;
      await d.hosted.link.check();
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => background(look(), "looking for the thread host"), POLL_MS);
  const sessions = d.hosted.link.onDidChange(() => {
    for (const s of d.hosted.link.sessions) {
      const p = d.panel(s.threadId);
      if (p?.showsPast && !d.runsHere(s.threadId)) d.refreshPanel(s.threadId);
    }
  });
  background(look(), "looking for the thread host");
  return toDisposable(() => {
    clearInterval(timer);
    sessions.dispose();
  });
}
