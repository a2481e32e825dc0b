/** `run --worktree` / `exec --worktree`: a new git worktree for the session, or (outside git) a note and the plain folder. */
import { errorMessage } from "../core/errors";
import type { WorktreeRef } from "../core/model/records";
import { createWorktree, isNotARepository } from "../core/worktree/create";
import type { CliIO } from "./io";

export async function worktreeFor(
  io: CliIO,
  cwd: string,
  command: string,
): Promise<{ cwd: string; worktree?: WorktreeRef }> {
  try {
    const made = await createWorktree(cwd);
    io.stderr.write(`acp-threads ${command}: worktree ${made.ref.path} (base ${made.ref.base.slice(0, 10)})\n`);
    for (const w of made.warnings) io.stderr.write(`acp-threads ${command}: note: ${w}\n`);
    return { cwd: made.cwd, worktree: made.ref };
  } catch (err) {
    if (!isNotARepository(err)) throw err;
    io.stderr.write(`acp-threads ${command}: note: ${errorMessage(err)}; running a plain session in ${cwd}\n`);
    return { cwd };
  }
}

/** The worktree the CLI hands its background supervisor (`exec --worktree-ref JSON`), checked. */
export function parseWorktreeRef(text: string): WorktreeRef {
  const v = JSON.parse(text) as Record<string, unknown>;
  for (const k of ["path", "repo", "base", "createdAt"])
    if (typeof v[k] !== "string") throw new Error(`--worktree-ref: '${k}' is missing`);
  return { path: v.path as string, repo: v.repo as string, base: v.base as string, createdAt: v.createdAt as string };
}
