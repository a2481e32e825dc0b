/**
 * Reading and restoring snapshots. Listing shows time, size and message count before anything is restored;
 * every error names the file and what is wrong. Restore creates a new thread whose records are the
 * snapshot's messages, so a later resume can seed a new agent session from them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { AcpThreadsError } from "../errors";
import type { SnapshotListing } from "../model/snapshot";
import { isInside } from "../platform/paths";
import { commitExists } from "../store/git-info";
import type { ThreadStore } from "../store/thread-store";
import { validateSnapshot, type SessionSnapshot } from "./format";
import { messagesToRecords } from "./messages";
import { reportProgress, SAVED_PREFIX, type Progress } from "./save";

export function readSnapshot(path: string): SessionSnapshot {
  if (!existsSync(path)) throw new AcpThreadsError("not_found", `snapshot file not found: ${path}`);
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    throw new AcpThreadsError("not_found", `cannot read snapshot ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new AcpThreadsError(
      "corrupt",
      `${path}: not valid JSON (${(err as Error).message}); the file is damaged or not a snapshot`,
    );
  }
  return validateSnapshot(value, path);
}

/**
 * Snapshot files in `dir`, newest first; unreadable ones are listed with their error. `savedOnly`: only the files
 * a save named (`saved_session_….json`), for a folder that holds other files too (Downloads, the home folder).
 */
export function listSnapshots(dir: string, { savedOnly = false } = {}): SnapshotListing[] {
  if (!existsSync(dir)) return [];
  const out: SnapshotListing[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json") || name.startsWith(".")) continue;
    if (savedOnly && !name.startsWith(SAVED_PREFIX)) continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (!st.isFile()) continue;
    try {
      const s = readSnapshot(path);
      out.push({
        path,
        savedAt: s.saved_at,
        size: st.size,
        messageCount: s.state.messages.length,
        agent: s.state.agent,
        model: s.state.model,
        title: s.state.title ?? null,
      });
    } catch (err) {
      out.push({
        path,
        savedAt: st.mtime.toISOString(),
        size: st.size,
        messageCount: 0,
        agent: "",
        model: null,
        title: null,
        error: (err as Error).message,
      });
    }
  }
  return out.sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
}

export interface RestoreOptions {
  /** Use this folder instead of the snapshot's root_dir (moved checkout, another machine). */
  rootDir?: string;
  /** When given, root_dir must be inside one of these folders. */
  allowedRoots?: string[];
  onProgress?: Progress;
  onWarning?: (message: string) => void;
}

/** Checks that the session folder is absolute, has no `..` escapes, exists and (optionally) is allowed. */
export function checkRootDir(rootDir: string, allowedRoots?: string[]): string {
  if (!isAbsolute(rootDir))
    throw new AcpThreadsError("path_outside_workspace", `snapshot root_dir '${rootDir}' is not an absolute path`);
  if (rootDir.split(/[\\/]+/).includes("..")) {
    throw new AcpThreadsError(
      "path_outside_workspace",
      `snapshot root_dir '${rootDir}' contains '..' segments; refusing a path that escapes its folder`,
    );
  }
  if (!existsSync(rootDir) || !statSync(rootDir).isDirectory()) {
    throw new AcpThreadsError(
      "not_found",
      `the session folder ${rootDir} no longer exists; restore with --root <folder> to use another one`,
    );
  }
  if (allowedRoots?.length) {
    const inside = allowedRoots.some((r) => isInside(resolve(r), rootDir));
    if (!inside)
      throw new AcpThreadsError(
        "path_outside_workspace",
        `snapshot root_dir ${rootDir} is outside the allowed folders (${allowedRoots.join(", ")})`,
      );
  }
  return rootDir;
}

/** The state fields a thread keeps in its origin so that an export writes them back unchanged. */
function carriedState(state: SessionSnapshot["state"]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const ownHome = new Set([
    "messages",
    "root_dir",
    "start_commit",
    "model",
    "agent",
    "title",
    "thread_id",
    "thread_mode",
  ]);
  for (const [key, value] of Object.entries(state)) if (!ownHome.has(key) && value !== undefined) kept[key] = value;
  return kept;
}

/** Creates a new thread from the snapshot; returns its id. */
export function restoreSnapshot(
  store: ThreadStore,
  snap: SessionSnapshot,
  source: string,
  opts: RestoreOptions = {},
): string {
  const s = snap.state;
  const root = checkRootDir(opts.rootDir ?? s.root_dir, opts.allowedRoots);
  if (s.start_commit && !commitExists(root, s.start_commit)) {
    opts.onWarning?.(
      `start commit ${s.start_commit} is not in the repository at ${root}; restoring the conversation anyway`,
    );
  }
  const threadMode = s.thread_mode ?? (s.agent_type === "exec" ? "exec" : "acp");
  const handle = store.create({
    agent: { id: s.agent, name: s.agent, command: s.agent },
    mode: threadMode,
    cwd: root,
    repoRoot: root,
    gitHead: s.start_commit,
    ...(typeof s.title === "string" && s.title ? { title: s.title } : {}),
    origin: { kind: "snapshot", source, snapshot: { file_prefix: snap.file_prefix, state: carriedState(s) } },
  });
  try {
    const total = s.messages.length;
    const records = messagesToRecords(s.messages, (done) => reportProgress(opts.onProgress, done, total));
    const count = (kind: string) => records.filter((r) => r.kind === kind).length;
    for (let i = 0; i < records.length; i += 500) handle.appendMany(records.slice(i, i + 500));
    const users = count("user_message");
    handle.patch({
      status: "idle",
      counters: {
        turns: users,
        userMessages: users,
        agentMessages: count("agent_message"),
        toolCalls: count("tool_call"),
      },
      ...(s.model ? { model: s.model } : {}),
    });
  } finally {
    handle.close();
  }
  return handle.threadId;
}
