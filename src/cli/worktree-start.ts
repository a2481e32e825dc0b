/**
 * `run --worktree` / `exec --worktree`: what opening a thread (core/session/open-thread.ts) did with its worktree,
 * told on stderr: the new worktree, or (outside git) a note and the plain folder.
 */
import type { WorktreeRef } from "../core/model/records";
import type { OpenProgressListener } from "../core/session/open-thread";
import type { CliIO } from "./io";

export function worktreeProgress(io: Pick<CliIO, "stderr">, command: string): OpenProgressListener {
  const say = (text: string) => io.stderr.write(`acp-threads ${command}: ${text}\n`);
  return (p) => {
    if (p.type === "worktree_created") {
      say(`worktree ${p.ref.path} (base ${p.ref.base.slice(0, 10)})`);
      for (const w of p.warnings) say(`note: ${w}`);
    } else if (p.type === "worktree_skipped") say(`note: ${p.reason}; running a plain session in ${p.cwd}`);
    else for (const w of p.warnings) say(`note: removing the worktree ${p.ref.path}: ${w}`);
  };
}

/** The worktree the CLI hands its background supervisor (`exec --worktree-ref JSON`), checked. */
export function parseWorktreeRef(text: string): WorktreeRef {
  const v = JSON.parse(text) as Record<string, unknown>;
  for (const k of ["path", "repo", "base", "createdAt"])
    if (typeof v[k] !== "string") throw new Error(`--worktree-ref: '${k}' is missing`);
  return { path: v.path as string, repo: v.repo as string, base: v.base as string, createdAt: v.createdAt as string };
}
