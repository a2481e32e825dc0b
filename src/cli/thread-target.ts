/**
 * Which thread and agent `acp-threads run` is for (thread-run.ts): a stored thread (`--thread`), a named session
 * of this workspace (`--session`), or a new thread of `--agent` (in a new worktree with `--worktree`); and
 * following a thread another process writes until it lets go.
 */
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { localEngine } from "../core/engine/local";
import type { Engine } from "../core/engine/requests";
import type { ThreadWriter } from "../core/engine/requests-sessions";
import { AcpThreadsError } from "../core/errors";
import type { AgentSpec } from "../core/model/agent";
import type { ThreadMetadata } from "../core/model/metadata";
import type { WorktreeRef } from "../core/model/records";
import { worktreeFor } from "../core/session/open-thread";
import { holderLabel } from "../core/text/holder-label";
import { recordsToEvents } from "../core/thread/record-events";
import { findNamedSession } from "./named-sessions";
import type { ThreadRunOptions } from "./thread-run-options";
import { worktreeProgress } from "./worktree-start";
import type { CliIO } from "./io";

export interface Target {
  threadId?: string;
  metadata?: ThreadMetadata;
  agent: AgentSpec;
  cwd: string;
  /** The worktree made for this new thread (`--worktree`). */
  worktree?: WorktreeRef;
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

/** What `target` reads of a run's options. */
export type TargetOptions = Pick<
  ThreadRunOptions,
  "store" | "cwd" | "thread" | "session" | "agent" | "agentLabel" | "worktree" | "preparedWorktree"
> & { io: Pick<CliIO, "cwd" | "env" | "stderr"> };

export async function target(o: TargetOptions): Promise<Target> {
  const { io, store } = o;
  const cwd = o.cwd !== undefined ? resolve(io.cwd, o.cwd) : io.cwd;
  // the agents: presets, agents added from the ACP Registry, command lines, on this command's PATH
  const engine = localEngine({ store, env: io.env });
  const agentIn = async (agent: string, where: string) =>
    (await engine.call({ op: "agents.resolve", agent, cwd: resolve(where) })).spec;
  let threadId: string | undefined;
  if (o.thread) threadId = (await engine.call({ op: "threads.resolve", threadId: o.thread })).threadId;
  else if (o.session) {
    const { workspace } = await engine.call({ op: "threads.workspace", cwd: resolve(cwd) });
    const agentId = o.agent ? (await agentIn(o.agent, cwd)).id : undefined;
    threadId = (await findNamedSession(engine, o.session, { workspace, agentId }))?.threadId;
  }
  if (!threadId) {
    if (!o.agent)
      throw new AcpThreadsError("usage", `there is no session '${o.session}' here yet: give --agent to start it`);
    const resolved = await agentIn(o.agent, cwd);
    const agent = o.agentLabel ? { ...resolved, id: o.agentLabel.id, displayName: o.agentLabel.name } : resolved;
    if (o.preparedWorktree) return { agent, cwd: o.preparedWorktree.cwd, worktree: o.preparedWorktree.ref };
    return o.worktree ? { agent, ...(await worktreeFor(cwd, worktreeProgress(io, "run"))) } : { agent, cwd };
  }
  const metadata = await engine.call({ op: "threads.meta", threadId });
  if (metadata.worktree && !existsSync(metadata.worktree.path))
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
    const asked = await agentIn(o.agent, metadata.cwd);
    // a thread recorded before command-line agents had ids of their own (#33) holds the bare name
    const legacy = !metadata.agent.id.includes(":") && asked.displayName === metadata.agent.id;
    if (asked.id !== metadata.agent.id && !legacy)
      throw new AcpThreadsError(
        "usage",
        `thread ${threadId} belongs to ${metadata.agent.name}; to continue it with ${asked.displayName} use 'acp-threads handoff ${threadId} --agent ${o.agent}'`,
      );
  }
  return { threadId, metadata, agent: await agentOf(engine, metadata), cwd: metadata.cwd };
}

/**
 * Prints what the holder of the thread writes until it lets go (the engine's `threads.follow`); false when
 * interrupted first. Only with `--wait`: without it the thread's open refuses a held thread itself (`locked`).
 */
export async function followWhileHeld(o: ThreadRunOptions, threadId: string, stop: AbortSignal): Promise<boolean> {
  if (stop.aborted) return false;
  let told = false; // a holder was named: the takeover is said too
  const tell = (h: ThreadWriter) => {
    told = true;
    o.io.stderr.write(
      `acp-threads run: thread ${threadId} is being written by ${holderLabel(h, hostname())} (pid ${h.pid}); following it read-only until it is free (Ctrl-C to stop)\n`,
    );
  };
  const { free } = await localEngine({ store: o.store }).call(
    { op: "threads.follow", threadId },
    {
      signal: stop,
      onProgress: (p) => {
        if (p.t === "holder") tell(p.holder);
        else if (p.t === "records")
          for (const e of recordsToEvents(p.records)) if (e.type !== "user_text") o.output.event(e, 0);
      },
    },
  );
  if (free && told)
    o.io.stderr.write(`acp-threads run: the other writer let go of thread ${threadId}; taking it over\n`);
  return free;
}
