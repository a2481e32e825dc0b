/**
 * "Since you left" (#36): what happened to the threads while you were away, across agents: which ended, failed
 * or wait for your input, each with the files its turns changed since then. Thread statuses map as:
 * `idle` (its turn ended, the agent waits for the next prompt) → waiting for input; `done` (the session was
 * closed) → ended; `failed` and `interrupted` → failed; `live` (a turn still running) → running.
 */
import { AcpThreadsError } from "../errors";
import type { IndexedThread } from "./threads-index";

export type AwayKind = "ended" | "failed" | "waiting" | "running";

export interface AwayThread {
  thread: IndexedThread;
  kind: AwayKind;
  /** Files the thread's turns changed since then (relative to its folder where inside it). */
  files: string[];
}

export interface AwaySummary {
  since: string;
  counts: Record<AwayKind, number>;
  threads: AwayThread[];
}

export function awayKind(status: string): AwayKind {
  if (status === "idle") return "waiting";
  if (status === "done") return "ended";
  if (status === "live") return "running";
  return "failed";
}

/** The summary of `threads` (those active since `since`); `filesOf` gives a thread's changed files since then. */
export function summarizeAway(
  threads: IndexedThread[],
  since: string,
  filesOf: (t: IndexedThread) => string[],
): AwaySummary {
  const counts: Record<AwayKind, number> = { ended: 0, failed: 0, waiting: 0, running: 0 };
  const out = threads.map((thread) => {
    const kind = awayKind(thread.status);
    counts[kind]++;
    return { thread, kind, files: filesOf(thread) };
  });
  return { since, counts, threads: out };
}

/** One line: "2 wait for your input, 1 failed, 3 ended" (kinds with none left out; running last). */
export function awayLine(counts: Record<AwayKind, number>): string {
  const parts = [
    counts.waiting && `${counts.waiting} wait${counts.waiting === 1 ? "s" : ""} for your input`,
    counts.failed && `${counts.failed} failed`,
    counts.ended && `${counts.ended} ended`,
    counts.running && `${counts.running} still running`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "nothing happened";
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * A point in time from `8h`, `30m`, `2d`, `1w` (that long before `now`) or a date/time (`2026-11-28`,
 * `2026-11-28T09:00`, read as local time); an ISO string in UTC. Throws a usage error otherwise.
 */
export function parseSince(text: string, now: Date = new Date()): string {
  const m = /^(\d+(?:\.\d+)?)([mhdw])$/.exec(text.trim());
  if (m) return new Date(now.getTime() - Number(m[1]) * UNITS[m[2]!]!).toISOString();
  const t = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(/T|\s/.test(text) ? text : `${text}T00:00`) : NaN;
  if (Number.isNaN(t))
    throw new AcpThreadsError("usage", `'${text}' is not a duration (30m, 8h, 2d, 1w) or a date (2026-11-28)`);
  return new Date(t).toISOString();
}
