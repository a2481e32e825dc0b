/**
 * Which thread and agent `acp-threads run` is for (thread-run.ts): a stored thread (`--thread`), a named session
 * of this workspace (`--session`), or a new thread of `--agent` (in a new worktree with `--worktree`), as
 * core/host/run-target.ts finds it through this command's engine; and following a thread another process writes
 * until it lets go.
 */
import { hostname } from "node:os";
import { localEngine } from "../core/engine/local";
import type { ThreadWriter } from "../core/engine/requests-sessions";
import { runTarget, type Target } from "../core/host/run-target";
import { holderLabel } from "../core/text/holder-label";
import { recordsToEvents } from "../core/thread/record-events";
import type { ThreadRunOptions } from "./thread-run-options";
import { worktreeProgress } from "./worktree-start";
import type { CliIO } from "./io";

export { agentOf, type Target } from "../core/host/run-target";

/** What `target` reads of a run's options. */
export type TargetOptions = Pick<
  ThreadRunOptions,
  "store" | "cwd" | "thread" | "session" | "agent" | "agentLabel" | "worktree" | "preparedWorktree"
> & { io: Pick<CliIO, "cwd" | "env" | "stderr"> };

/** The run's target (core/host/run-target.ts) through an engine whose agents are found on this command's PATH. */
export function target(o: TargetOptions): Promise<Target> {
  const { io, store } = o;
  // the agents: presets, agents added from the ACP Registry, command lines, on this command's PATH
  return runTarget(
    localEngine({ store, env: io.env }),
    {
      cwd: io.cwd,
      ...(o.cwd !== undefined ? { runCwd: o.cwd } : {}),
      ...(o.thread ? { thread: o.thread } : {}),
      ...(o.session ? { session: o.session } : {}),
      ...(o.agent ? { agent: o.agent } : {}),
      ...(o.agentLabel ? { agentLabel: o.agentLabel } : {}),
      ...(o.worktree ? { worktree: true } : {}),
      ...(o.preparedWorktree ? { preparedWorktree: o.preparedWorktree } : {}),
    },
    worktreeProgress(io, "run"),
  );
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
