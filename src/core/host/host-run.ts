/**
 * One detached run in the thread host (server.ts): the control its runner gets (run-control.ts) wired to the host's
 * parts: the thread it opens becomes a HostedThread the host holds and feeds its clients from; its turns, state and
 * end are announced to the event listeners; it counts in the host's runs until its end is told.
 */
import { errorMessage } from "../errors";
import type { PermissionAsker } from "../ports";
import { background } from "../util/unexpected";
import type { EditorServe } from "./editor-serve";
import type { EditorTerminals } from "./editor-terminals";
import { HostedThread } from "./hosted-thread";
import { decisionAnswered, unaskedBy } from "./question-events";
import { HostRefusal } from "./protocol-refusal";
import type { DetachedRun, HostEvent, HostPush, HostReply } from "./protocol";
import type { HostOptions, HostRunControl } from "./run-control";
import type { SessionRows } from "./session-rows";
import { announceTurnEnd } from "./turn-hook";
import type { Duplex } from "node:stream";

export const CLIENT_BUFFER_CAP = 4 * 1024 * 1024;
export const DEFAULT_IDLE_MS = 10 * 60_000;
const now = () => new Date().toISOString();

/** What of the host a run reaches. */
export interface RunHost {
  readonly opts: HostOptions;
  /** Each run's abort, and its thread once open. */
  readonly runs: Map<AbortController, { thread?: HostedThread }>;
  readonly threads: Map<string, HostedThread>;
  readonly serve: EditorServe;
  readonly terminals: EditorTerminals;
  readonly rows: SessionRows;
  reply(sock: Duplex, msg: HostReply | HostPush): number;
  announce(event: HostEvent): void;
  /** A push to the event listeners and `also` (a thread's clients), once to each. */
  tell(msg: HostPush, also?: Iterable<Duplex>): void;
  armIdle(): void;
}

/** Starts a run; resolves with its thread id once the thread is open (rejects if it failed before). */
export function startRun(h: RunHost, run: DetachedRun): Promise<string> {
  const abort = new AbortController();
  const held: { thread?: HostedThread } = {};
  h.runs.set(abort, held);
  h.armIdle();
  let thread: HostedThread | undefined;
  const ask: PermissionAsker = {
    ask: (p) => (thread ? thread.asker().ask(p) : Promise.resolve(null)),
    answeredBy: (p) => thread?.asker().answeredBy?.(p),
  };
  return new Promise<string>((resolve, reject) => {
    const ctl: HostRunControl = {
      signal: abort.signal,
      ...(run.permission === "ask" || run.askClients ? { asker: ask } : {}),
      elicit: (prompt) => thread?.elicit(prompt),
      watchdog: (state) => thread?.watch(state),
      files: (cwd) => h.serve.files(cwd),
      terminalHost: (cwd, label) => h.terminals.forSession(cwd, label),
      opened: (threadId, path, control) => {
        thread = new HostedThread({
          threadId,
          path,
          control,
          push: (sock, msg) => h.reply(sock, msg),
          cap: CLIENT_BUFFER_CAP,
          announce: (msg) => (msg.t === "event" ? h.announce(msg.event) : h.tell(msg, thread?.clients.keys())),
          ...(run.keepOpen && !run.once ? { idleMs: h.opts.idleMs ?? DEFAULT_IDLE_MS } : {}),
          ...(run.once === true ? { once: true } : {}),
          ...(typeof run.agentLabel?.id === "string" ? { agentId: run.agentLabel.id.slice(0, 200) } : {}),
          ...(typeof run.agentLabel?.name === "string" ? { agentName: run.agentLabel.name.slice(0, 200) } : {}),
          ...(run.sandbox ? { sandboxed: true } : {}),
          ...(run.retry === "auto" && run.stallMs > 0 ? { autoRetry: true as const } : {}),
        });
        held.thread = thread;
        h.threads.set(threadId, thread);
        h.announce({ kind: "started", threadId, at: new Date().toISOString() });
        resolve(threadId);
      },
      updated: () => thread?.updated(),
      appended: (records, start, end) => thread?.appended(records, start, end),
      sessionState: (state) => {
        thread?.session.update(state);
        if (thread) h.rows.changed(thread); // its login is in its row
      },
      turnStarted: () => {
        if (thread) h.announce({ kind: "turn_started", threadId: thread.threadId, at: now() });
      },
      // a request a client answered (or a cancel withdrew) was told as it settled (hosted-thread.ts); one nobody was
      // asked about is told here, as the editor tells its own sessions'
      decided: (d) => {
        const by = unaskedBy(d);
        if (thread && by) h.announce(decisionAnswered(thread.threadId, d, by, now()));
      },
      turnEnded: (stopReason, filesChanged, usage) => {
        thread?.updated();
        const end = thread && { threadId: thread.threadId, stopReason, filesChanged };
        if (end) announceTurnEnd((e) => h.announce(e), run, end, usage, h.opts.logger);
      },
      idle: (waiting) => {
        if (!thread || thread.state === "ended") return;
        thread.state = waiting ? "idle" : "working";
        h.rows.changed(thread); // before the turn_ended (or turn_started) the runner tells next
        h.armIdle();
      },
    };
    // a runner that threw was refused what it was asked (a prompt the agent cannot take, a held thread): not a start
    const ran = h.opts
      .runner(run, ctl)
      .catch((err: unknown) => ({ exitCode: 1, error: errorMessage(err), refused: true }));
    background(
      ran.then(async (r) => {
        const { exitCode, error } = r;
        try {
          // its session never opened: a run that ended with an error failed to start (its agent, its sandbox …);
          // the start error's code and details go with it (no Node fits: which one to install)
          if (!thread)
            return reject(
              error && !("refused" in r)
                ? new HostRefusal("start_failed", error, undefined, undefined, r.errorInfo)
                : new Error(error ?? "the run ended before its thread opened"),
            );
          await thread.end(exitCode, error);
          const { threadId } = thread;
          h.announce({ kind: "ended", threadId, at: now(), exitCode, ...(error ? { error } : {}) });
          h.threads.delete(thread.threadId);
          h.rows.forget(thread.threadId);
        } finally {
          // the run counts until its end is told: stop() waits for the runs before it closes the connections
          h.runs.delete(abort);
          h.armIdle();
        }
      }),
      "a detached run",
    );
  });
}
