/**
 * The events of the thread host's sessions a client missed while it was not connected (#35: the editor's
 * `onThreadEvent` across a host reconnect), read back from the thread's records: the run is the records after
 * its last `session_open` (the host's run opened the agent session), folded as the host folds them (TurnReport)
 * so a turn's `turn_ended` and `usage` come out as the host announced them. The turns are picked by their record's
 * time: the host announces a turn after its turn_end record is made, so a turn announced at `at` has a record time
 * at or before `at`. Pure: unit-tested.
 */
import type { ThreadRecord } from "../model/records";
import { recordsToEvents } from "../thread/record-events";
import type { HostEvent, PendingQuestion } from "./protocol";
import { TurnReport } from "./turn-report";

/** The records of the thread's last run (from its last session_open; all of them when there is none). */
export function lastRun(records: readonly ThreadRecord[]): readonly ThreadRecord[] {
  const open = records.findLastIndex((r) => r.kind === "session_open");
  return open < 0 ? records : records.slice(open);
}

/** The turns of the last run whose turn_end record was made after `after` and before `before` (ISO times). */
export function missedTurns(
  threadId: string,
  records: readonly ThreadRecord[],
  after: string,
  before: string,
): HostEvent[] {
  const report = new TurnReport();
  const out: HostEvent[] = [];
  for (const r of lastRun(records))
    for (const e of recordsToEvents([r])) {
      const turn = report.add(e);
      if (!turn || r.ts <= after || r.ts >= before) continue;
      out.push({
        kind: "turn_ended",
        threadId,
        at: r.ts,
        stopReason: turn.stopReason,
        filesChanged: turn.filesChanged,
      });
      if (turn.usage) out.push({ kind: "usage", threadId, at: r.ts, ...turn.usage });
    }
  return out;
}

/**
 * A question announced, no longer pending, whose answer was not heard: its `answered`, from the permission record
 * of its tool call (who answered: the record's `answeredBy`, the host's words for a cancel, else — an older
 * record — "a client of the thread host"); undefined when the run has no such record.
 */
export function missedAnswer(records: readonly ThreadRecord[], question: PendingQuestion): HostEvent | undefined {
  const r = lastRun(records).findLast((x) => x.kind === "permission" && x.toolCallId === question.toolCallId);
  if (r?.kind !== "permission") return undefined;
  const by = r.decidedBy === "cancelled" ? "the agent (cancelled)" : (r.answeredBy ?? "a client of the thread host");
  const { threadId, requestId } = question;
  const optionName = r.optionName ? { optionName: r.optionName } : {};
  return { kind: "answered", threadId, at: r.ts, requestId, optionId: r.optionId, ...optionName, by };
}

/** The end of a run the host no longer holds: exit 1 with the message when its last record is an error. */
export function missedEnd(threadId: string, records: readonly ThreadRecord[], at: string): HostEvent {
  const last = records.at(-1);
  return last?.kind === "error"
    ? { kind: "ended", threadId, at, exitCode: 1, error: last.message }
    : { kind: "ended", threadId, at, exitCode: 0 };
}
