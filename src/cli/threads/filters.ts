/**
 * The thread filters `threads list` and `threads archive` share (#36): the workspace (default: the repository or
 * folder you are in; --all: every one), agent, who started it, status, worktree threads, archived.
 */
import { resolve } from "node:path";
import { localEngine } from "../../core/engine/local";
import type { ThreadQuery } from "../../core/model/thread-list";
import { THREAD_STATUSES } from "../../core/model/records";
import type { SubContext } from "./common";

export const ORIGINS = ["editor", "cli", "automation", "exec", "agent-import"] as const;

export const FILTER_FLAGS = {
  cwd: { type: "string", arg: "DIR", help: "the workspace (default: the repository or folder you are in)" },
  workspace: { type: "string", arg: "DIR", help: "the same as --cwd" },
  all: { type: "boolean", help: "every workspace" },
  agent: { type: "string", arg: "ID", help: "only this agent's threads (id or name)" },
  origin: {
    type: "enum",
    values: ORIGINS,
    help: "only threads started by: the editor, the CLI at a terminal, automation (no TTY, Best of N), exec, an agent import",
  },
  status: { type: "enum", values: THREAD_STATUSES, help: "only threads with this status" },
  worktree: { type: "boolean", help: "only threads working in a git worktree of their own" },
} as const;

/** The workspace the flags name, or undefined for every workspace (--all). */
export async function workspaceOf(ctx: SubContext): Promise<string | undefined> {
  const { io, flags } = ctx;
  const dir = typeof flags.cwd === "string" ? flags.cwd : typeof flags.workspace === "string" ? flags.workspace : "";
  if (flags.all) return undefined;
  // default: the repository (or folder) we are in, so a subfolder still lists its workspace's threads
  if (dir) return resolve(io.cwd, dir);
  const engine = localEngine({ store: ctx.store });
  return (await engine.call({ op: "threads.workspace", cwd: resolve(io.cwd) })).workspace;
}

/** The query the filter flags make (without a limit or a time). */
export async function queryOf(ctx: SubContext): Promise<ThreadQuery> {
  const { flags } = ctx;
  const str = (k: string) => (typeof flags[k] === "string" ? (flags[k] as string) : undefined);
  return {
    workspace: await workspaceOf(ctx),
    agent: str("agent"),
    origin: str("origin"),
    status: str("status"),
    worktree: flags.worktree === true,
  };
}
