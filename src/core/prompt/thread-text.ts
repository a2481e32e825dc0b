/**
 * A past thread as context for a prompt (`@` a thread): its conversation since the newest compaction, oldest
 * entries dropped first to fit, labelled by role. The same window resume seeding uses.
 */
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadRecord } from "../model/records";
import { redactSecrets } from "../redact";
import { seedEntries } from "../thread/context-seed";

const ROLE: Record<string, string> = {
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
  compaction: "Summary of earlier conversation",
};

export const THREAD_CONTEXT_CHARS = 32_000;

export function threadContextText(
  metadata: ThreadMetadata,
  records: readonly ThreadRecord[],
  maxChars = THREAD_CONTEXT_CHARS,
): string {
  const entries = seedEntries(records, { maxChars });
  const head =
    `Past thread "${metadata.title ?? "(untitled)"}" (${metadata.agent.name}, ${metadata.cwd}, ` +
    `last active ${metadata.lastActivity}):`;
  const body = entries.map((e) => `${ROLE[e.role] ?? e.role}: ${e.text}`).join("\n\n");
  return redactSecrets(`${head}\n\n${body || "(no messages)"}`);
}
