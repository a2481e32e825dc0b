/** Guesses a transcript's format from its first parseable lines (session-archive takes any file). */
import { closeSync, openSync, readSync } from "node:fs";
import type { SourceName } from "./model";

export function detectSource(path: string): SourceName {
  const buf = Buffer.alloc(64 * 1024);
  const fd = openSync(path, "r");
  let n: number;
  try {
    n = readSync(fd, buf, 0, buf.length, 0);
  } finally {
    closeSync(fd);
  }
  for (const line of buf.toString("utf8", 0, n).split("\n").slice(0, 20)) {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof r !== "object" || r === null) continue;
    if ("payload" in r || r.type === "session_meta" || (r.id && r.instructions !== undefined)) return "codex_rollout";
    if ("sessionId" in r || "parentUuid" in r || r.type === "file-history-snapshot" || r.type === "summary")
      return "claude_code_jsonl";
    if (r.type === "message" || r.type === "reasoning" || r.type === "function_call") return "codex_rollout";
  }
  return "acp_threads";
}
