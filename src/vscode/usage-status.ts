/**
 * The status-bar figure for live sessions: what the focused thread's session has cost so far (as its agent
 * reports it), its tokens and how full its context is, the same words as that panel's header; with no live
 * thread focused, the session whose usage changed last. The tooltip lists every live session. Click: the Usage
 * view. Hidden while no live session reported anything. The thread host's threads are shown too (a `UsageSource`:
 * host/hosted-usage.ts).
 */
import * as vscode from "vscode";
import { formatContext, formatCosts, formatTokens } from "../core/usage/format";
import type { RuntimeEvent } from "../core/model/events";
import { UsageMeter, type MeterReading } from "../core/usage/meter";
import type { LiveSession } from "./live-session";
import type { LiveSessions } from "./live-sessions";
import { escapeMd } from "./session-item";
import { displayTitle } from "./thread-title";

/** The one usage figure of a thread: the status bar and the panel header both show these words (issue #27). */
export function describeReading(r: MeterReading): string {
  const parts = [
    formatCosts(r.costs),
    r.tokensReported ? `${formatTokens(r.tokens)} tok` : "",
    r.contextUsed !== null
      ? `ctx ${r.contextSize ? `${Math.round((r.contextUsed / r.contextSize) * 100)}%` : formatTokens(r.contextUsed)}`
      : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

/** One thread's figure in the status bar. */
export interface UsageRow {
  threadId: string;
  title: string;
  agent: string;
  reading: MeterReading;
}

/** Threads this window does not run whose usage the status bar shows too (the thread host's). */
export interface UsageSource {
  rows(): readonly UsageRow[];
  /** Fires with the thread whose reading changed. */
  onDidChange: vscode.Event<string>;
}

/** A running thread's events as they come (a window session; the view a panel follows of a hosted thread). */
export interface UsageEvents {
  readonly events: readonly RuntimeEvent[];
  readonly onEvents: vscode.Event<RuntimeEvent[]>;
}

/** The usage meter of `s`'s events so far, kept current as they come; `changed` when a new one moved it. */
export function followUsage(s: UsageEvents, changed: () => void): { meter: UsageMeter; sub: vscode.Disposable } {
  const meter = new UsageMeter();
  for (const e of s.events) meter.add(e);
  const sub = s.onEvents((evs) => {
    let moved = false;
    for (const e of evs) moved = meter.add(e) || moved;
    if (moved) changed();
  });
  return { meter, sub };
}

/** The thread panel the user works in (ThreadPanels' last active one). */
export interface FocusedThread {
  current(): string | undefined;
  onDidChange: vscode.Event<void>;
}

export class UsageStatus implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem("acpThreads.usage", vscode.StatusBarAlignment.Right, 100);
  readonly #meters = new Map<LiveSession, { meter: UsageMeter; sub: vscode.Disposable }>();
  readonly #subs: vscode.Disposable[] = [];
  /** The thread whose usage changed last. */
  #current: string | undefined;
  readonly #sources: UsageSource[] = [];

  constructor(
    private readonly live: LiveSessions,
    private readonly focus?: FocusedThread,
  ) {
    this.item.name = "ACP Threads usage";
    this.item.command = "acpThreads.showUsage";
    this.#subs.push(live.onDidChange(() => this.#track()));
    if (focus) this.#subs.push(focus.onDidChange(() => this.#render()));
  }

  /** Shows `source`'s threads too, until the disposable is disposed. */
  follow(source: UsageSource): vscode.Disposable {
    this.#sources.push(source);
    const sub = source.onDidChange((threadId) => {
      this.#current = threadId;
      this.#render();
    });
    return new vscode.Disposable(() => {
      sub.dispose();
      const i = this.#sources.indexOf(source);
      if (i >= 0) this.#sources.splice(i, 1);
      this.#render();
    });
  }

  /** The reading the status bar has of a thread (a live session's, else a source's: the host's threads). */
  readingOf(threadId: string): MeterReading | undefined {
    return this.#rows().find((r) => r.threadId === threadId)?.reading;
  }

  #track(): void {
    // a session resumed again replaces the closed one of its thread, a stopped one left: forget the old meter
    for (const [s, m] of this.#meters)
      if (this.live.get(s.threadId) !== s) {
        m.sub.dispose();
        this.#meters.delete(s);
        // a stopped session leaves memory (its runtime, its protocol log): the status bar must not keep it
        if (this.#current === s.threadId && !this.live.get(s.threadId)) this.#current = undefined;
      }
    for (const s of this.live.all()) {
      if (this.#meters.has(s)) continue;
      const followed = followUsage(s, () => {
        this.#current = s.threadId;
        this.#render();
      });
      this.#meters.set(s, followed);
    }
    this.#render();
  }

  /** The window's live sessions, then the sources' threads. */
  #rows(): UsageRow[] {
    const live = [...this.#meters].map(([s, { meter }]) => ({
      threadId: s.threadId,
      title: s.title,
      agent: s.agent.displayName,
      reading: meter.reading,
    }));
    return [...live, ...this.#sources.flatMap((s) => s.rows())];
  }

  #render(): void {
    const rows = this.#rows();
    const shown = rows.filter((r) => describeReading(r.reading));
    // the focused thread's session, even with nothing reported yet (its header shows nothing either: #37)
    const focused = this.focus?.current();
    const mine = focused ? rows.find((r) => r.threadId === focused) : undefined;
    const current = mine
      ? shown.find((r) => r === mine)
      : (shown.find((r) => r.threadId === this.#current) ?? shown.at(-1));
    if (!current) return this.#hide();
    this.item.text = `$(graph) ${describeReading(current.reading)}`;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown("**Agent usage (as the agents report it)**\n\n");
    for (const row of shown) {
      const r = row.reading;
      md.appendMarkdown(
        `- ${escapeMd(displayTitle(row.title))} (${escapeMd(row.agent)}): ${[formatCosts(r.costs) || "no cost reported", r.tokensReported ? `${formatTokens(r.tokens)} tokens` : "no tokens reported", formatContext(r.contextUsed, r.contextSize)].filter(Boolean).join(", ")}\n`,
      );
    }
    md.appendMarkdown("\nClick for the usage of every thread.");
    this.item.tooltip = md;
    this.item.show();
  }

  /** Hidden, with no figure left on it (a thread let go is not named anywhere). */
  #hide(): void {
    this.item.hide();
    this.item.text = "";
    this.item.tooltip = undefined;
  }

  dispose(): void {
    for (const s of this.#subs.splice(0)) s.dispose();
    for (const m of this.#meters.values()) m.sub.dispose();
    this.#meters.clear();
    this.item.dispose();
  }
}
