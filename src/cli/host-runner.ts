/**
 * What the thread host runs for `run --detach`: the `run` command's own path (thread-run.ts), with the host's
 * controls wired in: its asker for `--permission ask`, prompts, cancel and steering from any client, and the
 * thread handed to the host once open. Nothing is printed: the thread's records are what clients see.
 */
import { Writable, PassThrough } from "node:stream";
import type { Logger } from "../core/log";
import type { HostRunner } from "../core/host/server";
import { HOST_TAG, ranInHost } from "../core/host/thread-tag";
import { ThreadStore } from "../core/store/thread-store";
import type { TurnOutput } from "./output/turn-output";
import { runOnThread } from "./thread-run";

const quiet: TurnOutput = { event: () => {}, summary: () => {} };

export function hostRunner(home: string, logger: Logger): HostRunner {
  const store = new ThreadStore(home, { logger });
  return async (run, ctl) => {
    const queue: string[] = [];
    let done = false;
    const files = new Set<string>();
    const summary = await runOnThread({
      io: {
        argv: [],
        stdout: new Writable({ write: (_c, _e, cb) => cb() }),
        stderr: process.stderr, // the host's log
        stdin: new PassThrough(),
        env: run.baseEnv ?? process.env,
        cwd: run.cwd,
        signal: ctl.signal,
      },
      store,
      logger,
      output: quiet,
      prompts: run.prompts,
      thread: run.thread,
      session: run.session,
      agent: run.agent,
      ...(run.agentLabel ? { agentLabel: run.agentLabel } : {}),
      cwd: run.runCwd,
      worktree: run.worktree,
      permission: run.permission,
      asker: ctl.asker,
      env: run.env,
      ...(run.baseEnv ? { baseEnv: run.baseEnv } : {}),
      authMethodId: run.authMethodId,
      timeoutMs: run.timeoutMs,
      wait: false,
      stallMs: run.stallMs,
      retry: run.retry,
      onSession: (s) => {
        // the editor continues a thread the host ran in the host again (thread-tag.ts)
        if (!ranInHost(s.metadata)) s.live.patch({ tags: [...s.metadata.tags, HOST_TAG] });
        s.onEvent((e) => {
          ctl.updated();
          if (e.type === "tool_call" && e.toolCall.kind === "edit" && e.toolCall.status === "completed")
            for (const l of e.toolCall.locations) files.add(l.path);
          if (e.type === "done") {
            ctl.turnEnded(e.stopReason, [...files]);
            files.clear();
          }
        });
        ctl.opened(s.threadId, store.pathFor(s.threadId), {
          prompt: (text) => {
            if (done) throw new Error(`the run on thread ${s.threadId} is ending; run it again with --thread`);
            queue.push(text);
          },
          cancel: () => s.cancel(),
          steer: (text) => s.steer(text),
          unqueue: (text) => {
            const at = queue.indexOf(text);
            if (at >= 0) queue.splice(at, 1);
            return at >= 0;
          },
        });
      },
      nextPrompt: () => {
        const next = queue.shift();
        if (next === undefined) done = true;
        return next;
      },
    });
    return { exitCode: summary.exitCode, ...(summary.error ? { error: summary.error } : {}) };
  };
}
