/**
 * Context for a new agent session that continues a thread the agent cannot load: the newest compaction
 * summary plus the conversation after it, as Codex rebuilds history on resume. Compactions carry a window
 * id; older ones without one fall back to counting (the last compaction by position, or the newest
 * messages within a budget when there is none).
 */
import type { ThreadRecord } from "../model/records";
import { conversation, type ConversationEntry } from "./conversation";

export interface SeedOptions {
  /** Upper bound on the seed text (characters); the oldest entries are dropped first. */
  maxChars?: number;
  /** With no compaction at all: how many of the newest entries to consider. */
  maxEntries?: number;
}

/** Index into `entries` where the seeded window starts. */
export function windowStart(entries: readonly ConversationEntry[]): number {
  let windowed = -1;
  let legacy = -1;
  entries.forEach((e, i) => {
    if (e.role !== "compaction" || !e.text.trim()) return;
    if (e.windowId) windowed = i;
    else legacy = i;
  });
  if (windowed >= 0) return windowed;
  return Math.max(legacy, 0);
}

export function seedEntries(records: readonly ThreadRecord[], opts: SeedOptions = {}): ConversationEntry[] {
  const all = conversation(records).filter((e) => e.role !== "thought" && e.role !== "error");
  let entries = all.slice(windowStart(all));
  const maxEntries = opts.maxEntries ?? 200;
  if (entries.length > maxEntries && entries[0]?.role !== "compaction") entries = entries.slice(-maxEntries);
  const maxChars = opts.maxChars ?? 48_000;
  let total = 0;
  const kept: ConversationEntry[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    total += e.text.length + 16;
    if (total > maxChars && kept.length) break;
    kept.unshift(e);
  }
  return kept;
}

const LABEL: Record<string, string> = {
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
  compaction: "Summary of earlier conversation",
};

/** The text prepended to the first prompt of a seeded session; empty when there is no history. */
export function buildSeedText(records: readonly ThreadRecord[], opts: SeedOptions = {}): string {
  const entries = seedEntries(records, opts);
  if (!entries.length) return "";
  const body = entries.map((e) => `${LABEL[e.role] ?? e.role}: ${e.text}`).join("\n\n");
  return `${SEED_START}\n\n${body}\n\n${SEED_END}\n\n`;
}

const SEED_START =
  "[ACP Threads carries this conversation over from its saved history: this agent session starts without it " +
  "(a fork, a switch of agent, or a session the agent could not load). Continue from it.]";
const SEED_END = "[End of restored history. The new message follows.]";

/**
 * A prompt as the person typed it, without the seed a seeded session put in front (the agent's own transcript
 * holds the seeded text: recall indexes the prompt, not our history again). Text that does not start with a whole
 * seed is returned as it is.
 */
export function withoutSeed(text: string): string {
  if (!text.startsWith(SEED_START)) return text;
  const end = text.lastIndexOf(`\n\n${SEED_END}\n\n`);
  return end < 0 ? text : text.slice(end + SEED_END.length + 4);
}
