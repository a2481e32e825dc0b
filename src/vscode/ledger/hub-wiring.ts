/** How the Hub's pieces answer the ledger feature: which stored thread a command means, and where a turn is shown. */
import type { ThreadStore } from "../../core/store/thread-store";
import type { LiveSessions } from "../live-sessions";
import type { PastThreads } from "../past-threads";
import type { SessionNode } from "../sessions-tree";
import type { ThreadPanels } from "../thread-panels";

/** The Hub members this needs (not the Hub itself, which owns the ledger feature). */
export interface HubParts {
  threads: Pick<ThreadStore, "existsAsync">;
  live: Pick<LiveSessions, "get" | "exec">;
  past: Pick<PastThreads, "load" | "catalog">;
  panels: Pick<ThreadPanels, "open">;
}

/**
 * A thread id (a live or hosted session's is its stored thread's) or a sessions-view node → the stored thread's id;
 * whether it is stored is looked up off the host's thread.
 */
export async function resolveThread(hub: HubParts, arg: unknown): Promise<string | undefined> {
  const stored = async (id: string) => ((await hub.threads.existsAsync(id)) ? id : undefined);
  if (typeof arg === "string") return stored(arg);
  const node = arg as SessionNode | undefined;
  if (node?.type === "past") return node.thread.threadId;
  if (node?.type === "live" || node?.type === "hosted") return stored(node.threadId);
  if (node?.type === "exec") return hub.live.exec(node.runId)?.threadId;
  return undefined;
}

/** The thread's panel at the start of `turn`, its `turn`-th prompt (a live session's panel as it is). */
export async function showTurn(hub: HubParts, threadId: string, turn: number): Promise<void> {
  if (hub.live.get(threadId)) return void hub.panels.open(threadId);
  const past = await hub.past.load(threadId);
  let seen = 0;
  const focusEvent = past?.events.findIndex((e) => e.type === "user_text" && !e.steered && ++seen === turn);
  hub.panels.open(threadId, { focusEvent: focusEvent !== undefined && focusEvent >= 0 ? focusEvent : undefined });
}

/**
 * Of `threadIds`, those deleted (no thread file: a stat each) or archived (the threads catalog's rows, read again
 * where their files changed), all off the host's thread. The catalog unavailable: only the deleted ones.
 */
export async function threadsGone(hub: HubParts, threadIds: string[]): Promise<Set<string>> {
  const [archived, exists] = await Promise.all([
    hub.past.catalog.list({ archived: "only" }).then(
      (ms) => new Set(ms.map((m) => m.threadId)),
      () => new Set<string>(),
    ),
    Promise.all(threadIds.map((id) => hub.threads.existsAsync(id))),
  ]);
  return new Set(threadIds.filter((id, i) => !exists[i] || archived.has(id)));
}
