/**
 * `acp-threads run` in the foreground (and `handoff`, Best of N's candidates) through the thread host's one way of
 * running a session (#35 item 7, step 4): a host in this process (core/host/server.ts `ThreadHost.inProcess`, as
 * the window's window-host.ts makes one), made for this run and stopped after it, runs it with the engine's runner
 * (core/host/hosted-runner.ts) and the CLI's front end; this process asks for the run as its client, over an
 * in-process connection. The run is the process's `alone` (hosted-runner.ts): its events, notes and summary are
 * printed through the front end's ports as they happen, exactly as `run` printed them; the host's record feed
 * (`attach`) is not what prints them: it carries the thread's records, not the live events `run` prints (each
 * streamed chunk and each tool call's status), nor the summary's fields, and a run whose thread cannot be written
 * has no records at all. Ctrl-C (the command's signal) stops the host, which interrupts the run.
 */
import { connectInProcess } from "../core/host/client";
import { hostedRunner, type HostRunner } from "../core/host/hosted-runner";
import type { DetachedRun } from "../core/host/protocol";
import { ThreadHost } from "../core/host/server";
import { RUN_EXIT, type RunOutcome } from "../core/model/run";
import { background } from "../core/util/unexpected";
import type { RunSummary } from "./output/turn-output";
import { readReview, reviewTurnParts, type ReviewRequest } from "./review-file";
import { cliRunPorts, summaryOf } from "./thread-run";
import type { ThreadRunOptions } from "./thread-run-options";
import { followWhileHeld, target } from "./thread-target";

/** How long the run's end waits for the host's `ended` event (told at once; a safety net, not a figure). */
const ENDED_WAIT_MS = 1000;

/** `p`, or undefined after `ms`. */
async function within(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The run as the host is asked for it: what the engine's runner reads of it (the rest is the front end's). */
function detachedRun(o: ThreadRunOptions): DetachedRun {
  return {
    cwd: o.io.cwd,
    prompts: o.prompts,
    ...(o.agent ? { agent: o.agent } : {}),
    ...(o.thread ? { thread: o.thread } : {}),
    ...(o.session ? { session: o.session } : {}),
    permission: o.permission,
    startedFrom: o.startedFrom ?? ((o.io.stdin as { isTTY?: boolean }).isTTY ? "cli" : "automation"),
    ...(o.title ? { title: o.title } : {}),
    ...(o.origin?.kind === "handoff" ? { handoffFrom: o.origin.source } : {}),
    env: o.env,
    ...(o.authMethodId !== undefined ? { authMethodId: o.authMethodId } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    stallMs: o.stallMs,
    retry: o.retry,
  };
}

/** The CLI's front end of its own run: `run`'s target, sandbox, review file, notes, output and held-thread wait. */
function aloneRunner(o: ThreadRunOptions, ended: (outcome: RunOutcome) => void): HostRunner {
  let review: ReviewRequest | undefined;
  // a review file is read and checked against the thread's folder before any agent starts
  const cli = cliRunPorts(o, (t) => (review = o.review ? readReview(o.review, o.io.cwd, t.cwd) : undefined));
  return hostedRunner(o.store.home, o.logger, {
    alone: true,
    tagsRuns: false,
    target: (_run, store) => target({ ...o, store }),
    ports: () => ({
      prepare: cli.prepare,
      onProgress: cli.onProgress,
      note: cli.note,
      event: (e, turn) => {
        o.output.event(e, turn);
        cli.event(e, turn);
      },
      onSession: cli.onSession,
      ...(o.onThread ? { onThread: o.onThread } : {}),
      ...(o.onTraffic ? { onTraffic: o.onTraffic } : {}),
      ...(o.elicitor ? { elicitor: o.elicitor } : {}),
      ...(o.context ? { context: o.context } : {}),
      ...(o.ledger ? { ledger: o.ledger } : {}),
      ...(o.wait ? { whenFree: (id: string, stop: AbortSignal) => followWhileHeld(o, id, stop) } : {}),
      firstTurn: () => review && ((caps, text, context) => reviewTurnParts(review!, caps, text, context)),
    }),
    ended: (_run, outcome) => {
      ended(outcome);
      return RUN_EXIT[outcome.end];
    },
  });
}

export async function runInProcess(o: ThreadRunOptions): Promise<RunSummary> {
  let outcome: RunOutcome | undefined;
  /** The run, once the host started it; what it threw (a usage error, a held thread without --wait) is ours. */
  let ran: Promise<unknown> | undefined;
  const runner = aloneRunner(o, (out) => (outcome = out));
  const host = ThreadHost.inProcess({
    home: o.store.home,
    logger: o.logger,
    runner: (run, ctl) => {
      const p = runner(run, ctl);
      ran = p;
      return p;
    },
  });
  const stop = () => background(host.stop(), "interrupting the run");
  o.io.signal.addEventListener("abort", stop, { once: true });
  try {
    const conn = await connectInProcess(host.connect(), { client: `acp-threads run (pid ${process.pid})` });
    try {
      // the host's `ended` event: it is done with the run (its stop then waits for nothing)
      await conn.request({ t: "events" });
      const over = new Promise<void>((resolve) =>
        conn.onPush((m) => m.t === "event" && m.event.kind === "ended" && resolve()),
      );
      // refused (the run ended before its thread opened): the run's own outcome or error says why
      const asked = await conn.request({ t: "run", run: detachedRun(o) }).then(
        () => undefined,
        (err: unknown) => ({ err }),
      );
      if (!ran) throw asked!.err;
      await ran;
      if (!asked) await within(over, ENDED_WAIT_MS);
      return summaryOf(outcome!);
    } finally {
      conn.close();
    }
  } finally {
    o.io.signal.removeEventListener("abort", stop);
    await host.stop();
  }
}
