/**
 * The engine requests of bug bundles (#13, #35 item 7): a thread's protocol traffic, records and versions, redacted
 * (key-like strings, env values) and anonymised (the workspace and home paths), saved 0600 to attach to an issue
 * (`acp-threads bundle`, the window's "Save bug bundle"). Read and written off the caller's thread.
 */

export type BundleRequest =
  /** The default file name of the thread's bug bundle now (for a save dialog). */
  | { op: "bundle.name"; threadId: string }
  /** Saves the thread's bug bundle to `outFile`, or into `dir` under its default name (one of the two). */
  | { op: "bundle.save"; threadId: string; outFile?: string; dir?: string };

export interface BundleReplies {
  "bundle.name": { name: string };
  /** `path`: the file written; `messages`: the protocol traffic's lines in it; `notes`: what it lacks and why. */
  "bundle.save": { path: string; messages: number; notes: string[] };
}
