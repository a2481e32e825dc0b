/**
 * Where a thread came from, read off its metadata (pure: a front end shows the links, core/handoff writes them):
 * a fork names its source and message (`origin.kind` "fork"), a handoff its source thread ("handoff").
 */
import type { ThreadMetadata } from "../model/metadata";

/** Where a thread was forked from, or null. */
export function forkedFrom(m: Pick<ThreadMetadata, "origin">): { threadId: string; messageIndex?: number } | null {
  const o = m.origin;
  return o?.kind === "fork" && o.source ? { threadId: o.source, messageIndex: o.messageIndex } : null;
}

/** Where a thread came from, when it was handed off to. */
export const handedOffFrom = (m: Pick<ThreadMetadata, "origin">): string | null =>
  m.origin?.kind === "handoff" ? (m.origin.source ?? null) : null;
