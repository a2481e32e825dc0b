/**
 * Thread → snapshot, and writing it: default folder `.acp-threads/` in the workspace, file name
 * `saved_session_{prefix}_{agent}_{model}_{timestamp}.json`, mode 0600, atomic. Message text is redacted.
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { writeFileAtomic } from "../store/atomic-write";
import { redactSecrets } from "../store/redact";
import type { ThreadRead } from "../store/thread-store";
import { conversation } from "../thread/conversation";
import { SNAPSHOT_VERSION, type SessionSnapshot, type SnapshotMessage } from "./format";

export const SNAPSHOT_DIR = ".acp-threads";
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

export function snapshotFromThread(thread: ThreadRead, opts: SnapshotOptions = {}): SessionSnapshot {
  const m = thread.metadata;
  const entries = conversation(thread.records).filter((e) => e.role !== "thought" && e.role !== "error");
  const messages: SnapshotMessage[] = [];
  entries.forEach((e, i) => {
    const text = redactSecrets(e.text);
    if (e.role === "compaction")
      messages.push({ role: "system", content: `Summary of earlier conversation: ${text}`, timestamp: e.ts });
    else if (e.role === "tool")
      messages.push({ role: "tool", content: text, tool_call_id: `call_${i}`, timestamp: e.ts });
    else messages.push({ role: e.role, content: text, timestamp: e.ts });
    reportProgress(opts.onProgress, i + 1, entries.length);
  });
  return {
    version: SNAPSHOT_VERSION,
    saved_at: (opts.now ?? new Date()).toISOString(),
    file_prefix: opts.filePrefix ?? defaultPrefix(m.repoRoot ?? m.cwd),
    state: {
      agent_type: m.mode,
      root_dir: m.repoRoot ?? m.cwd,
      agent: m.agent.id,
      mode: opts.agentMode ?? "default",
      model: m.model,
      permission_policy: opts.permissionPolicy ?? "approve-reads",
      start_commit: m.gitHead,
      messages,
      non_interactive: opts.nonInteractive ?? false,
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

export function snapshotFileName(snap: SessionSnapshot): string {
  const ts = snap.saved_at.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `saved_session_${part(snap.file_prefix)}_${part(snap.state.agent)}_${part(snap.state.model ?? "default")}_${ts}.json`;
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
  return path;
}
