/**
 * Which thread and agent a run is for, through an engine's requests (#35 item 7): a stored thread (its id or a
 * prefix), a named session of the run's workspace, or a new thread of its agent (in a new worktree, or in one the
 * asking client prepared). The CLI's `run` (its engine over this process's PATH) and the thread hosts' runs (the
 * CLI's host, the window's own) name threads this one way. Nothing here waits on the disk synchronously.
 */
import { resolve } from "node:path";
import type { Engine } from "../engine/requests";
import { AcpThreadsError } from "../errors";
import type { AgentSpec } from "../model/agent";
import type { ThreadMetadata } from "../model/metadata";
import type { WorktreeRef } from "../model/records";
import { worktreeFor, type OpenProgressListener } from "../session/open-thread";
import { pathExists } from "../util/path-exists";

export interface Target {
  threadId?: string;
  metadata?: ThreadMetadata;
  agent: AgentSpec;
  cwd: string;
  /** The worktree made for this new thread (`--worktree`). */
  worktree?: WorktreeRef;
}

/** What names a run's thread and agent (`run`'s flags, a host's DetachedRun). */
export interface TargetAsk {
  /** The folder the run is asked from (absolute); `runCwd`, relative to it, is where a new thread works. */
  cwd: string;
  runCwd?: string;
  thread?: string;
  session?: string;
  agent?: string;
  agentLabel?: { id: string; name: string };
  worktree?: boolean;
  /** Checked by the host before the run started (run-roots.ts assertWorktreeOffered). */
  preparedWorktree?: { ref: WorktreeRef; cwd: string };
}

/**
 * The agent a stored thread ran, as registered now (a preset, an installed agent, a command line), or as recorded;
 * `engine`'s environment is the one its PATH is looked up on.
 */
export async function agentOf(engine: Engine, m: ThreadMetadata): Promise<AgentSpec> {
  try {
    return (await engine.call({ op: "agents.resolve", agent: m.agent.id, cwd: resolve(m.cwd) })).spec;
  } catch {
    return { id: m.agent.id, displayName: m.agent.name, command: m.agent.command, args: m.agent.args ?? [] };
  }
}

/** The run's target; `progress` hears of the worktree made for a new thread. */
export async function runTarget(engine: Engine, o: TargetAsk, progress?: OpenProgressListener): Promise<Target> {
  const cwd = o.runCwd !== undefined ? resolve(o.cwd, o.runCwd) : o.cwd;
  const agentIn = async (agent: string, where: string) =>
    (await engine.call({ op: "agents.resolve", agent, cwd: resolve(where) })).spec;
  let threadId: string | undefined;
  if (o.thread) threadId = (await engine.call({ op: "threads.resolve", threadId: o.thread })).threadId;
  else if (o.session) {
    const { workspace } = await engine.call({ op: "threads.workspace", cwd: resolve(cwd) });
    const agentId = o.agent ? (await agentIn(o.agent, cwd)).id : undefined;
    const named = await engine.call({
      op: "threads.named",
      name: o.session,
      workspace,
      ...(agentId ? { agent: agentId } : {}),
    });
    threadId = named?.threadId;
  }
  if (!threadId) {
    if (!o.agent)
      throw new AcpThreadsError("usage", `there is no session '${o.session}' here yet: give --agent to start it`);
    const resolved = await agentIn(o.agent, cwd);
    const agent = o.agentLabel ? { ...resolved, id: o.agentLabel.id, displayName: o.agentLabel.name } : resolved;
    if (o.preparedWorktree) return { agent, cwd: o.preparedWorktree.cwd, worktree: o.preparedWorktree.ref };
    return o.worktree ? { agent, ...(await worktreeFor(cwd, progress)) } : { agent, cwd };
  }
  const metadata = await engine.call({ op: "threads.meta", threadId });
  if (metadata.worktree && !(await pathExists(metadata.worktree.path)))
    throw new AcpThreadsError(
      "not_found",
      `thread ${threadId} works in the worktree ${metadata.worktree.path}, which is gone (deleted by hand?); 'acp-threads worktrees discard ${threadId.slice(0, 13)}' forgets it`,
    );
  if (o.worktree && !metadata.worktree)
    throw new AcpThreadsError(
      "usage",
      `--worktree starts a new thread in a worktree of its own; thread ${threadId} has none and goes on where it works (${metadata.cwd})`,
    );
  if (o.agent) {
    const resolved = await agentIn(o.agent, metadata.cwd);
    // an editor's configured agent (a command line it names by its own id): the thread's agent, run as configured
    const asked = o.agentLabel ? { ...resolved, id: o.agentLabel.id, displayName: o.agentLabel.name } : resolved;
    // a thread recorded before command-line agents had ids of their own (#33) holds the bare name
    const legacy = !metadata.agent.id.includes(":") && asked.displayName === metadata.agent.id;
    if (asked.id !== metadata.agent.id && !legacy)
      throw new AcpThreadsError(
        "usage",
        `thread ${threadId} belongs to ${metadata.agent.name}; to continue it with ${asked.displayName} use 'acp-threads handoff ${threadId} --agent ${o.agent}'`,
      );
    if (o.agentLabel) return { threadId, metadata, agent: asked, cwd: metadata.cwd };
  }
  return { threadId, metadata, agent: await agentOf(engine, metadata), cwd: metadata.cwd };
}
