/**
 * Thread → snapshot, and writing it: default folder `.acp-threads/` in the workspace, file name
 * `saved_session_{prefix}_{agent}_{model}_{timestamp}.json`, mode 0600, atomic. Message text is redacted.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../store/atomic-write";
import { SNAPSHOT_DIR } from "../model/snapshot";
import { redactSecrets } from "../redact";
import type { ThreadRead } from "../store/thread-store";
import { SNAPSHOT_VERSION, SPEC_AGENT_TYPE, type SessionSnapshot } from "./format";
import { recordsToMessages } from "./messages";

/** How every saved snapshot's file name starts. */
export const SAVED_PREFIX = "saved_session_";
export type Progress = (done: number, total: number) => void;
/** Progress is reported only for sessions larger than this, every PROGRESS_STEP messages. */
export const PROGRESS_THRESHOLD = 500;
const PROGRESS_STEP = 250;

export function reportProgress(onProgress: Progress | undefined, done: number, total: number): void {
  if (onProgress && total > PROGRESS_THRESHOLD && (done % PROGRESS_STEP === 0 || done === total))
    onProgress(done, total);
}

export interface SnapshotOptions {
  filePrefix?: string;
  permissionPolicy?: string;
  nonInteractive?: boolean;
  agentMode?: string;
  now?: Date;
  onProgress?: Progress;
}

/** A JSON value with every string redacted (carried extras of a restored file may hold anything). */
function redactDeep(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  return value;
}

export function snapshotFromThread(thread: ThreadRead, opts: SnapshotOptions = {}): SessionSnapshot {
  const m = thread.metadata;
  const carried = redactDeep(m.origin?.snapshot?.state ?? {}) as Record<string, unknown>;
  const messages = recordsToMessages(thread.records, (done, total) => reportProgress(opts.onProgress, done, total));
  const pick = <T>(key: string, fallback: T): T => (key in carried ? (carried[key] as T) : fallback);
  return {
    version: SNAPSHOT_VERSION,
    saved_at: (opts.now ?? new Date()).toISOString(),
    file_prefix: opts.filePrefix ?? filePrefixOf(m),
    state: {
      // Extras a newer writer put in a restored file come first, so that the fields below always win.
      ...carried,
      // The specification's fields (null where we have no value: its reader falls back to its defaults).
      agent_type: pick("agent_type", SPEC_AGENT_TYPE),
      root_dir: m.repoRoot ?? m.cwd,
      tool_group: pick<string | null>("tool_group", null),
      model_group: pick<string | null>("model_group", null),
      model_name: m.model ?? pick<string | null>("model_name", null),
      disable_review: pick<boolean | null>("disable_review", false),
      review_max_iterations: pick<number | null>("review_max_iterations", null),
      start_commit: m.gitHead,
      messages,
      non_interactive: opts.nonInteractive ?? pick("non_interactive", false),
      // Ours.
      agent: m.agent.id,
      mode: opts.agentMode ?? pick("mode", "default"),
      model: m.model,
      permission_policy: opts.permissionPolicy ?? pick("permission_policy", "approve-reads"),
      thread_mode: m.mode,
      title: m.title === null ? null : redactSecrets(m.title),
      thread_id: m.threadId,
    },
  };
}

const part = (s: string) =>
  s
    .replace(/[^A-Za-z0-9.-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "x";

export function defaultPrefix(rootDir: string): string {
  return part(basename(rootDir));
}

/** The file-name prefix a thread's snapshot takes: the one it was restored with, else its folder's name. */
export const filePrefixOf = (m: ThreadRead["metadata"]): string =>
  m.origin?.snapshot?.file_prefix ?? defaultPrefix(m.repoRoot ?? m.cwd);

/** The name a save gives the snapshot (the fields it is named by: its time, prefix, agent and model). */
export function snapshotFileName(
  snap: Pick<SessionSnapshot, "saved_at" | "file_prefix"> & {
    state: Pick<SessionSnapshot["state"], "agent" | "model">;
  },
): string {
  const ts = snap.saved_at.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${SAVED_PREFIX}${part(snap.file_prefix)}_${part(snap.state.agent)}_${part(snap.state.model ?? "default")}_${ts}.json`;
}

/** Writes the snapshot into `dir` (default `<root_dir>/.acp-threads`) or to `outFile`; returns the path. */
export function saveSnapshot(snap: SessionSnapshot, target: { dir?: string; outFile?: string } = {}): string {
  let path = target.outFile;
  if (!path) {
    const dir = target.dir ?? join(snap.state.root_dir, SNAPSHOT_DIR);
    const name = snapshotFileName(snap);
    path = join(dir, name);
    for (let n = 2; existsSync(path); n++) path = join(dir, name.replace(/\.json$/, `-${n}.json`));
  }
  writeFileAtomic(path, JSON.stringify(snap, null, 2) + "\n", { mode: 0o600 });
  ignoreSnapshotDir(dirname(path));
  return path;
}

/**
 * The default `.acp-threads/` folder inside a workspace ignores itself (a `.gitignore` of `*`, as pytest's cache
 * does): saved sessions are the user's, not the project's, and must not show up as changes to commit.
 */
function ignoreSnapshotDir(dir: string): void {
  const file = join(dir, ".gitignore");
  if (basename(dir) !== SNAPSHOT_DIR || existsSync(file)) return;
  writeFileAtomic(file, "# Created by ACP Threads: saved sessions are not part of the project.\n*\n", { mode: 0o644 });
}
