/** `worktrees list`: the threads of this data home that have a worktree, with its state against the base. */
import type { ThreadMetadata } from "../../core/model/metadata";
import type { ThreadStore } from "../../core/store/thread-store";
import { worktreeState, type WorktreeState } from "../../core/worktree/state";
import { table } from "../exec/context";
import { EXIT, type CliIO } from "../io";
import { shortId, writeJson } from "../threads/common";

export interface WorktreeEntry {
  threadId: string;
  agent: string;
  title: string | null;
  worktree: NonNullable<ThreadMetadata["worktree"]>;
  state: WorktreeState;
}

export async function worktreeEntries(store: ThreadStore): Promise<WorktreeEntry[]> {
  const withWorktree = store.list().filter((m) => m.worktree);
  return Promise.all(
    withWorktree.map(async (m) => ({
      threadId: m.threadId,
      agent: m.agent.id,
      title: m.title,
      worktree: m.worktree!,
      state: await worktreeState(m.worktree!).catch(() => ({
        exists: false,
        head: null,
        ahead: 0,
        files: [],
        added: 0,
        removed: 0,
      })),
    })),
  );
}

/** `3 files +10 -2, 1 commit ahead`, or `gone` for a folder deleted by hand. */
export function describeState(s: WorktreeState): string {
  if (!s.exists) return "gone (folder deleted; 'worktrees discard' forgets it)";
  const files = s.files.length
    ? `${s.files.length} file${s.files.length === 1 ? "" : "s"} +${s.added} -${s.removed}`
    : "no changes";
  return s.ahead ? `${files}, ${s.ahead} commit${s.ahead === 1 ? "" : "s"} ahead` : files;
}

export async function listWorktrees(io: CliIO, store: ThreadStore, json: boolean): Promise<number> {
  const entries = await worktreeEntries(store);
  if (json) {
    writeJson(io, entries);
    return EXIT.ok;
  }
  if (!entries.length) {
    io.stdout.write("no thread has a worktree (start one with 'acp-threads run --worktree' or 'exec --worktree')\n");
    return EXIT.ok;
  }
  const rows = [["THREAD", "AGENT", "BASE", "STATE", "PATH"]];
  for (const e of entries)
    rows.push([shortId(e.threadId), e.agent, e.worktree.base.slice(0, 10), describeState(e.state), e.worktree.path]);
  io.stdout.write(table(rows));
  return EXIT.ok;
}
