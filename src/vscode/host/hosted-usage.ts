/**
 * The status bar's usage figure for the threads the thread host runs (usage-status.ts shows the window's own
 * sessions): each thread the host's events name, folded from its records as a window session's events are
 * (the same meter: reported numbers only), read again when a turn of it ends, let go when its run ends. The
 * records are read asynchronously, one read at a time per thread (a turn's `turn_ended` and `usage` are one read).
 */
import * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import type { ThreadRead } from "../../core/store/thread-store";
import { recordsToEvents } from "../../core/thread/record-events";
import { UsageMeter } from "../../core/usage/meter";
import { background } from "../../core/util/unexpected";
import type { UsageRow, UsageSource } from "../usage-status";

export class HostedUsage implements UsageSource, vscode.Disposable {
  readonly #rows = new Map<string, UsageRow>();
  /** Threads being read, and whether another read is due after it. */
  readonly #reading = new Map<string, { again: boolean }>();
  /** Threads whose run ended: a read finishing after it is dropped. */
  readonly #ended = new Set<string>();
  readonly #changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.#changed.event;
  readonly #sub: vscode.Disposable;

  constructor(
    onEvent: vscode.Event<HostEvent>,
    private readonly read: (threadId: string) => Promise<ThreadRead | undefined>,
  ) {
    this.#sub = onEvent((e) => {
      if (e.kind === "ended") {
        this.#ended.add(e.threadId);
        if (this.#rows.delete(e.threadId)) this.#changed.fire(e.threadId);
      } else if (e.kind === "started" || e.kind === "turn_ended" || e.kind === "usage") {
        if (e.kind === "started") this.#ended.delete(e.threadId);
        this.#refresh(e.threadId);
      }
    });
  }

  rows(): readonly UsageRow[] {
    return [...this.#rows.values()];
  }

  #refresh(threadId: string): void {
    const pending = this.#reading.get(threadId);
    if (pending) return void (pending.again = true);
    const state = { again: false };
    this.#reading.set(threadId, state);
    const next = async (): Promise<void> => {
      do {
        state.again = false;
        const read = await this.read(threadId).catch(() => undefined);
        if (!read || this.#ended.has(threadId)) continue;
        const meter = new UsageMeter();
        for (const e of recordsToEvents(read.records)) meter.add(e);
        const m = read.metadata;
        this.#rows.set(threadId, { threadId, title: m.title ?? "Thread", agent: m.agent.name, reading: meter.reading });
        this.#changed.fire(threadId);
      } while (state.again);
    };
    background(
      next().finally(() => this.#reading.delete(threadId)),
      "reading a hosted thread's usage",
    );
  }

  dispose(): void {
    this.#sub.dispose();
    this.#changed.dispose();
  }
}
