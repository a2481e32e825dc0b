/**
 * Following a stored thread another window or process writes (#35 item 7): its new records and its writer, pushed
 * as they come, until nobody holds it any more. The thread is named by its id (resolved in the engine's own data
 * home, as the other thread requests resolve it), never by a file path. Plain data in and out.
 */
import type { ThreadRecord } from "../model/records";
import type { ThreadWriter } from "./requests-sessions";

export type FollowRequest =
  /**
   * Follows thread `threadId` read-only: pushes the records appended after byte `fromOffset` of its file (default:
   * its end when the request starts; complete lines only), and its writer at the start and each other writer after
   * it. Replies once nobody holds it (after its last records were pushed), or when the call's signal aborts (then
   * `free: false`, and a poll under way is not pushed). Polls every `pollMs` (100 to 10,000 ms; default 300).
   */
  { op: "threads.follow"; threadId: string; fromOffset?: number; pollMs?: number };

export interface FollowReplies {
  /** `free`: nobody holds the thread now (false: the signal ended the follow); `offset`: where the pushed records end. */
  "threads.follow": { free: boolean; offset: number };
}

/** What `threads.follow` pushes, in file order: new records (`offset`: where they end), the writer (never its token). */
export type FollowProgress =
  { t: "records"; records: ThreadRecord[]; offset: number } | { t: "holder"; holder: ThreadWriter };
