/** `worktrees list`: the threads of this data home that have a worktree, with its state against the base. */
import type { Engine } from "../../core/engine/requests";
import type { WorktreeState } from "../../core/model/worktree";
import { table } from "../exec/context";
import { EXIT, type CliIO } from "../io";
import { shortId, writeJson } from "../threads/common";

/** `3 files +10 -2, 1 commit ahead`, or `gone` for a folder deleted by hand. */
export function describeState(s: WorktreeState): string {
  if (!s.exists) return "gone (folder deleted; 'worktrees discard' forgets it)";
  const files = s.files.length
    ? `${s.files.length} file${s.files.length === 1 ? "" : "s"} +${s.added} -${s.removed}`
    : "no changes";
  return s.ahead ? `${files}, ${s.ahead} commit${s.ahead === 1 ? "" : "s"} ahead` : files;
}

export async function listWorktrees(io: CliIO, engine: Engine, json: boolean): Promise<number> {
  const entries = await engine.call({ op: "worktree.list" });
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
