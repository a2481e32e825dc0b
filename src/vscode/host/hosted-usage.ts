/**
 * The status bar's usage figure for the threads the thread hosts run (usage-status.ts shows the window's own
 * sessions): each thread the hosts' events name (the user's thread host's, the window's own host's), folded from
 * its records as a window session's events are (the same meter: reported numbers only), read again when a turn of
 * it ends, let go when its run ends. The records are read asynchronously, one read at a time per thread (a turn's
 * `turn_ended` and `usage` are one read). While a panel here follows the thread, its figure folds the events that
 * view gets, as they come, as a window session's does: the status bar says what the panel's header says, never a
 * turn behind it.
 */
import * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import type { ThreadRead } from "../../core/store/thread-store";
import { recordsToEvents } from "../../core/thread/record-events";
import { UsageMeter } from "../../core/usage/meter";
import { background } from "../../core/util/unexpected";
import { followUsage, type UsageEvents, type UsageRow, type UsageSource } from "../usage-status";

export interface HostedUsageDeps {
  onEvent: vscode.Event<HostEvent>;
  read(threadId: string): Promise<ThreadRead | undefined>;
  /** The views panels here follow (hosted-threads.ts): a thread's, while it has one; told when they change. */
  views?: { get(threadId: string): UsageEvents | undefined; onDidChange: vscode.Event<void> };
}

export class HostedUsage implements UsageSource, vscode.Disposable {
  readonly #rows = new Map<string, UsageRow>();
  /** Threads being read, and whether another read is due after it. */
  readonly #reading = new Map<string, { again: boolean }>();
  /** Threads whose run ended: a read finishing after it is dropped. */
  readonly #ended = new Set<string>();
  /** The threads a view here follows: their figure from its events. */
  readonly #followed = new Map<string, { view: UsageEvents } & ReturnType<typeof followUsage>>();
  readonly #changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.#changed.event;
  readonly #subs: vscode.Disposable[];

  constructor(private readonly deps: HostedUsageDeps) {
    this.#subs = [
      deps.onEvent((e) => {
        if (e.kind === "ended") {
          this.#ended.add(e.threadId);
          this.#unfollow(e.threadId);
          if (this.#rows.delete(e.threadId)) this.#changed.fire(e.threadId);
        } else if (e.kind === "started" || e.kind === "turn_ended" || e.kind === "usage") {
          if (e.kind === "started") this.#ended.delete(e.threadId);
          this.#refresh(e.threadId);
        }
      }),
      ...(deps.views ? [deps.views.onDidChange(() => this.#look())] : []),
    ];
  }

  rows(): readonly UsageRow[] {
    return [...this.#rows.values()].map((r) => {
      const f = this.#followed.get(r.threadId);
      return f ? { ...r, reading: f.meter.reading } : r;
    });
  }

  /** The threads read so far follow the view a panel here opened on them, or their records again once it let go. */
  #look(): void {
    for (const threadId of this.#rows.keys()) {
      const view = this.deps.views?.get(threadId);
      const f = this.#followed.get(threadId);
      if (f?.view === view) continue;
      this.#unfollow(threadId);
      if (view) {
        this.#followed.set(threadId, { view, ...followUsage(view, () => this.#changed.fire(threadId)) });
        this.#changed.fire(threadId);
      } else this.#refresh(threadId); // the records say what the view saw last
    }
  }

  #unfollow(threadId: string): void {
    this.#followed.get(threadId)?.sub.dispose();
    this.#followed.delete(threadId);
  }

  #refresh(threadId: string): void {
    const pending = this.#reading.get(threadId);
    if (pending) return void (pending.again = true);
    const state = { again: false };
    this.#reading.set(threadId, state);
    const next = async (): Promise<void> => {
      do {
        state.again = false;
        const read = await this.deps.read(threadId).catch(() => undefined);
        if (!read || this.#ended.has(threadId)) continue;
        const meter = new UsageMeter();
        for (const e of recordsToEvents(read.records)) meter.add(e);
        const m = read.metadata;
        this.#rows.set(threadId, { threadId, title: m.title ?? "Thread", agent: m.agent.name, reading: meter.reading });
        this.#changed.fire(threadId);
      } while (state.again);
      this.#look(); // a view opened before its first read
    };
    background(
      next().finally(() => this.#reading.delete(threadId)),
      "reading a hosted thread's usage",
    );
  }

  dispose(): void {
    for (const s of this.#subs.splice(0)) s.dispose();
    for (const threadId of [...this.#followed.keys()]) this.#unfollow(threadId);
    this.#changed.dispose();
  }
}
