/**
 * Reading and restoring snapshots. Listing shows time, size and message count before anything is restored;
 * every error names the file and what is wrong. Restore creates a new thread whose records are the
 * snapshot's messages, so a later resume can seed a new agent session from them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { AcpThreadsError } from "../errors";
import { commitExists } from "../store/git-info";
import type { RecordInput } from "../store/records";
import type { ThreadStore } from "../store/thread-store";
import { messageText, validateSnapshot, type SessionSnapshot } from "./format";
import { reportProgress, type Progress } from "./save";

export interface SnapshotListing {
  path: string;
  savedAt: string;
  size: number;
  messageCount: number;
  agent: string;
  model: string | null;
  title: string | null;
  /** Set instead of the fields above when the file cannot be read as a snapshot. */
  error?: string;
}

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

/** Snapshot files in `dir`, newest first; unreadable ones are listed with their error. */
export function listSnapshots(dir: string): SnapshotListing[] {
  if (!existsSync(dir)) return [];
  const out: SnapshotListing[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json") || name.startsWith(".")) continue;
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
    const inside = allowedRoots.some((r) => {
      const rel = relative(resolve(r), rootDir);
      return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
    });
    if (!inside)
      throw new AcpThreadsError(
        "path_outside_workspace",
        `snapshot root_dir ${rootDir} is outside the allowed folders (${allowedRoots.join(", ")})`,
      );
  }
  return rootDir;
}

function toRecord(m: SessionSnapshot["state"]["messages"][number], i: number): RecordInput | undefined {
  const text = messageText(m);
  const messageId = `snapshot-${i}`;
  switch (m.role) {
    case "user":
      return { kind: "user_message", messageId, text };
    case "assistant":
      return text ? { kind: "agent_message", messageId, text } : undefined;
    case "tool":
      return {
        kind: "tool_call",
        toolCall: {
          toolCallId: m.tool_call_id ?? `call_${i}`,
          title: text.split("\n")[0]!.slice(0, 200),
          kind: "other",
          status: "completed",
          content: text ? [{ type: "content", content: { type: "text", text } }] : [],
          locations: [],
        },
      };
    default:
      // system / developer messages carry instructions or summaries: kept as context for seeding
      return text
        ? { kind: "compaction", windowId: null, summary: text.replace(/^Summary of earlier conversation: /, "") }
        : undefined;
  }
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
  const handle = store.create({
    agent: { id: s.agent, name: s.agent, command: s.agent },
    mode: s.agent_type === "exec" ? "exec" : "acp",
    cwd: root,
    repoRoot: root,
    gitHead: s.start_commit,
    ...(typeof s.title === "string" && s.title ? { title: s.title } : {}),
    origin: { kind: "snapshot", source },
  });
  try {
    const total = s.messages.length;
    let users = 0;
    let agents = 0;
    const batch: RecordInput[] = [];
    s.messages.forEach((m, i) => {
      const rec = toRecord(m, i);
      if (rec?.kind === "user_message") users++;
      if (rec?.kind === "agent_message") agents++;
      if (rec) batch.push(rec);
      if (batch.length >= 500) handle.appendMany(batch.splice(0));
      reportProgress(opts.onProgress, i + 1, total);
    });
    handle.appendMany(batch);
    handle.patch({
      status: "idle",
      counters: { turns: users, userMessages: users, agentMessages: agents },
      ...(s.model ? { model: s.model } : {}),
    });
  } finally {
    handle.close();
  }
  return handle.threadId;
}
