/**
 * A thread panel following a thread the thread host runs (#35): its init (the records from the view's cursor as
 * events, the header from the stored thread, the host's pushes after) and where its prompt, cancel and a rejected
 * permission's feedback go (the host, which runs a prompt after the running turn). thread-panel.ts draws the
 * window's own sessions and stored threads.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type * as vscode from "vscode";
import type { RuntimeEvent } from "../../core/model/events";
import { background } from "../../core/util/unexpected";
import { displayTitle } from "../thread-title";
import type { HostMessage, WebviewMessage } from "../../webview/thread/protocol";
import type { PastThreadSummary } from "../sessions-tree";
import type { PermissionBroker } from "../permission-broker";
import { hostedStatusPost } from "./hosted-status";
import { followHostedControls, routeHostedControls } from "./hosted-controls";
import type { HostedThreadView } from "./hosted-thread-view";
import type { TerminalOutputSource } from "./terminal-outputs";

/** Reads of the stored thread, 100 ms apart, while it has no agent yet (a thread the host just started). */
const STORED_TRIES = 20;

/** What the thread panel lends the hosted init. */
export interface HostedPanelSurface {
  readonly threadId: string;
  readonly panel: vscode.WebviewPanel;
  readonly broker: PermissionBroker;
  /** A newer init of the panel began: this one stops at its next await. */
  stale(): boolean;
  /** The stored thread: its summary and events (thread-panel.ts `PastThread`). */
  loadPast(threadId: string): Promise<(PastThreadSummary & { events?: RuntimeEvent[] }) | undefined>;
  /** Kept until the panel's next init or its close. */
  subscribe(d: vscode.Disposable): void;
  enqueue(events: RuntimeEvent[]): void;
  flush(): void;
  post(m: HostMessage): void;
  /** The scroll position the init goes to (a recall hit's event, once; else the end). */
  takeFocus(): { scrollToEnd: boolean; focusEvent?: number };
  /** The agents' terminals (the host's this window shows among them): their output and exit in the tool cards. */
  readonly terminals: TerminalOutputSource;
  /** The usage figure of the events drawn. */
  foldUsage(events: readonly RuntimeEvent[]): void;
  /** Last: the ledger's "files changed" rows and the prompt box (its thumbnails from these events). */
  follow(events: readonly RuntimeEvent[]): void;
}

/**
 * Draws a thread the thread host runs: its records from the cursor as events (the view attached from record 0 when
 * it was made, so this is the whole thread), then the host's pushes; the header from the stored thread. Resolves
 * the thread's folder (undefined when a newer init of the panel took over meanwhile).
 */
export async function initHosted(
  s: HostedPanelSurface,
  h: HostedThreadView,
  release: vscode.Disposable,
): Promise<string | undefined> {
  s.subscribe(release);
  // the header (title, agent, folder) comes from the stored thread, which a thread the host has just started may
  // not have readable yet (the window heard of it first): asked again for a moment before drawing without it
  // (a run that never started has its own: a new thread's has no file to wait for)
  let stored = await s.loadPast(s.threadId).catch(() => undefined);
  for (let i = 0; !stored?.agent && !h.unstarted && i < STORED_TRIES && !s.stale(); i++) {
    await sleep(100);
    stored = await s.loadPast(s.threadId).catch(() => undefined);
  }
  if (s.stale()) return undefined;
  // subscribe in the tick the events are taken: every later one comes once
  s.subscribe(h.onEvents((evs) => s.enqueue(evs)));
  // a stored thread whose next run never started: its conversation, then why (the view holds only the latter)
  const events = [...(h.unstarted ? (stored?.events ?? []) : []), ...h.events];
  const header = stored ?? h.unstarted;
  const title = displayTitle(header?.title ?? "Thread");
  s.panel.title = title;
  const cwd = header?.cwd ?? "";
  const shown = hostedStatusPost(h);
  s.post({
    type: "init",
    header: {
      threadId: s.threadId,
      title,
      agent: header?.agent ?? "",
      cwd,
      sessionId: stored?.sessionId,
      acceptsInput: !h.once, // "Run once": as a window's run-once session
      resumable: true,
      cancels: true,
      ...(h.sandboxed ? { sandboxed: true } : {}),
    },
    status: shown.status,
    since: shown.since,
    events,
    ...s.takeFocus(),
  });
  s.foldUsage(events);
  if (shown.detail) s.post(shown);
  for (const v of s.broker.pendingFor(s.threadId)) s.post({ type: "permission", prompt: v });
  // its agent's terminals, shown by this window for the host: their output and exit reach the tool cards, as a
  // window session's do (thread-panel.ts)
  const sid = stored?.sessionId;
  if (sid) {
    for (const t of s.terminals.recentOutput(sid)) s.post({ type: "terminalOutput", ...t });
    s.subscribe(
      s.terminals.onOutput(
        (o) =>
          o.sessionId === sid &&
          s.post({ type: "terminalOutput", terminalId: o.terminalId, data: o.data, exit: o.exit }),
      ),
    );
  }
  // the mode, model and config pickers and the login state, from the run's session state the host pushes
  for (const d of followHostedControls((m) => s.post(m), h)) s.subscribe(d);
  s.subscribe(
    h.onStatus(() => {
      s.flush();
      s.post(hostedStatusPost(h));
    }),
  );
  // a rename by any client (or the agent's title) while the host runs it: a cleared title shows the stored one
  s.subscribe(
    h.onTitle((t) => {
      const retitle = (to: string) => {
        if (s.stale()) return;
        s.panel.title = displayTitle(to);
        s.post({ type: "title", title: displayTitle(to) });
      };
      if (t !== null) return retitle(t);
      background(
        s.loadPast(s.threadId).then((p) => p?.title && retitle(p.title)),
        "reading a hosted thread's title",
      );
    }),
  );
  s.follow(events);
  return cwd;
}

/**
 * The panel's messages that go to the host for a thread it runs: a prompt (run after the running turn), a cancel,
 * a rejected permission's feedback (the next prompt), a picker's or the login's change (hosted-controls.ts). False: not one of them (the panel handles it).
 */
export async function routeHosted(h: HostedThreadView, m: WebviewMessage, broker: PermissionBroker): Promise<boolean> {
  if (await routeHostedControls(h, m)) return true;
  if (m.type === "prompt") await h.prompt(m.text);
  else if (m.type === "cancel") await h.cancel();
  else if (m.type !== "permission") return false;
  else if (broker.answer(m.requestId, m.optionId) && m.feedback) await h.prompt(m.feedback);
  return true;
}
