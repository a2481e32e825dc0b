/**
 * The engine requests of bug bundles (#13, #35 item 7): a thread's protocol traffic, records and versions, redacted
 * (key-like strings, env values) and anonymised (the workspace and home paths), saved 0600 to attach to an issue
 * (`acp-threads bundle`, the window's "Save bug bundle"). Read and written off the caller's thread. A bundle is
 * played back by `bundle.replay` (`acp-threads replay`).
 */
import type { ReplayReport } from "../bundle/replay";

export type BundleRequest =
  /** The default file name of the thread's bug bundle now (for a save dialog). */
  | { op: "bundle.name"; threadId: string }
  /** Saves the thread's bug bundle to `outFile`, or into `dir` under its default name (one of the two). */
  | { op: "bundle.save"; threadId: string; outFile?: string; dir?: string }
  /**
   * Plays the bundle `file`'s agent side against a fresh client in a new empty workspace and reports where this
   * client differs from the recording; `stepTimeoutMs`: how long the client may take to send the next recorded
   * message (default 20 s). A file that is not a bundle (or a newer format) is refused.
   */
  | { op: "bundle.replay"; file: string; stepTimeoutMs?: number };

export interface BundleReplies {
  "bundle.name": { name: string };
  /** `path`: the file written; `messages`: the protocol traffic's lines in it; `notes`: what it lacks and why. */
  "bundle.save": { path: string; messages: number; notes: string[] };
  /** `ok`: no divergence; the divergences, the thread's differing lines, notes (core/bundle/replay.ts). */
  "bundle.replay": ReplayReport;
}
