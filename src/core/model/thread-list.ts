/** A thread as the threads index lists it, and the query that lists them (`threads list`, the `threads.list` engine request). */
export interface IndexedThread {
  id: string;
  title: string | null;
  agentId: string;
  agentName: string;
  mode: string;
  cwd: string;
  repoRoot: string | null;
  status: string;
  turns: number;
  messages: number;
  createdAt: string;
  lastActivity: string;
  path: string;
  size: number;
  /** Who started it (recorded, or guessed for older threads: `startedFromOf`). */
  startedFrom: string;
  archived: boolean;
  /** The thread's own worktree (#25), while it has one. */
  worktree: string | null;
}

export interface ThreadQuery {
  /** Threads of this workspace folder: same repoRoot or cwd, or a cwd below it, or a worktree of a repository in it. */
  workspace?: string;
  /** An agent id or name. */
  agent?: string;
  /** Who started it (editor, cli, automation, exec, agent-import). */
  origin?: string;
  status?: string;
  /** Only threads working in a worktree of their own (#25). */
  worktree?: boolean;
  /** Last activity at or after this ISO time. */
  since?: string;
  /** Last activity before this ISO time. */
  before?: string;
  /** Archived threads: left out (default), only them, or with the others. */
  archived?: "exclude" | "only" | "include";
  limit?: number;
}
