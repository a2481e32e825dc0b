/**
 * What the thread host runs for each `run` a client asks (`run --detach`, the editor's hosted sessions): the engine's
 * run loop (core/session/run-loop.ts) with the host's controls wired in: its asker for `--permission ask`, prompts,
 * cancel and steering from any client, the session's state and turns told, and the thread handed to the host once
 * open. Nothing is printed: the thread's records are what clients see. What is the host's entry point's (the CLI's
 * names for agents and sessions, its sandbox, its log lines, its exit codes) comes in as a `HostRunFrontEnd`.
 */
import { ProtocolLog } from "../acp/protocol-log";
import { AcpThreadsError } from "../errors";
import type { Logger } from "../log";
import type { ElicitationAsker } from "../model/elicitation";
import { namedSessionTag } from "../model/named-session";
import type { NextPrompt, RunOutcome } from "../model/run";
import { assertNotEmpty, assertTakesImages, promptPartsText } from "../prompt/blocks";
import { runLoop } from "../session/run-loop";
import type { RunPorts, RunTarget } from "../session/run-options";
import { ThreadStore } from "../store/thread-store";
import { background } from "../util/unexpected";
import { hostElicitor, HostWatch } from "./host-run-hooks";
import { promptParts, runContext, runtimeOptions } from "./hosted-run-context";
import { appendedLinks, checkLinks } from "./meta-patch";
import type { DetachedRun } from "./protocol";
import { HostRefusal } from "./protocol-refusal";
import type { HostRunner } from "./run-control";
import { SessionStateFollower, sessionControls } from "./session-state";
import { HOST_TAG, ranInHost } from "./thread-tag";
import { TurnReport, type TurnEnd } from "./turn-report";

export type { HostRunner } from "./run-control";

/** The labels a client may give a thread it starts (DetachedRun.startedFrom); anything else is `automation`. */
const STARTED_FROM: ReadonlySet<string> = new Set(["editor", "cli", "automation"]);

/** A run's ports its front end fills: the sandbox's preparation and notes, the worktree's progress, the notes. */
export type FrontEndPorts = Pick<RunPorts, "prepare" | "onProgress" | "note" | "event" | "onSession"> & {
  /** Answers the agent's elicitations while no client is attached (the run's `elicitation` mode). */
  elicitor: ElicitationAsker;
};

/** What of a hosted run is the host's entry point's. */
export interface HostRunFrontEnd {
  /** The run's thread and agent: a stored thread, a named session, or a new thread of its agent (maybe in a worktree). */
  target(run: DetachedRun, store: ThreadStore): Promise<RunTarget>;
  /** Its ports for this run. */
  ports(run: DetachedRun, store: ThreadStore): FrontEndPorts;
  /** The run ended: its exit code (told to the clients), its protocol traffic written where the run asks. */
  ended(run: DetachedRun, outcome: RunOutcome, traffic: ProtocolLog): number;
}

export function hostedRunner(home: string, logger: Logger, front: HostRunFrontEnd): HostRunner {
  const store = new ThreadStore(home, { logger });
  return async (run, ctl) => {
    const { context, firstParts } = await runContext(run);
    // "Run once": its prompt only, then the run ends (a kept-open run waits for more)
    const keepOpen = run.keepOpen === true && run.once !== true;
    const queue: NextPrompt[] = [];
    /** The prompts being admitted (their context checked), in the order they came. */
    let admitted: Promise<unknown> = Promise.resolve();
    let done = false;
    /** The run waits for its next prompt (kept open): a prompt, a stop or the agent's exit wakes it. */
    let waiting: ((next: NextPrompt | undefined) => void) | undefined;
    const wake = (next: NextPrompt | undefined) => {
      const w = waiting;
      waiting = undefined;
      w?.(next);
      return !!w;
    };
    const end = () => {
      done = true;
      wake(undefined);
    };
    ctl.signal.addEventListener("abort", end, { once: true });
    const report = new TurnReport();
    const traffic = new ProtocolLog();
    // modes, config options, slash commands, login: to the clients now and on each change (session-state.ts)
    const state = new SessionStateFollower((st) => ctl.sessionState(st));
    const watch = new HostWatch(ctl);
    const own = front.ports(run, store);
    const session = runtimeOptions(run, home);
    const outcome = await runLoop({
      store,
      logger,
      target: () => front.target(run, store),
      prompts: firstParts ? [promptPartsText(firstParts), ...run.prompts.slice(1)] : run.prompts,
      context,
      ...(firstParts ? { firstParts } : {}),
      ...(run.roots?.length ? { roots: run.roots } : {}),
      ...session,
      permission: run.permission,
      env: { ACP_THREADS_HOME: home, ...run.env }, // as the editor's sessions: the agent's tools find this home
      ...(run.baseEnv ? { baseEnv: run.baseEnv } : {}),
      authMethodId: run.authMethodId,
      signal: ctl.signal,
      timeoutMs: run.timeoutMs,
      stallMs: run.stallMs,
      retry: run.retry,
      ...(keepOpen ? { keepOpen: true } : {}),
      startedFrom: STARTED_FROM.has(run.startedFrom ?? "") ? run.startedFrom : "automation",
      ...(run.session ? { tags: [namedSessionTag(run.session)] } : {}),
      bestEffortRecording: !(run.session || session.origin),
      asker: ctl.asker,
      elicitor: hostElicitor(run.elicitation, ctl, own.elicitor),
      files: ctl.files,
      terminalHost: (cwd, agentName) => ctl.terminalHost(cwd, run.agentLabel?.name ?? agentName),
      ...(own.prepare ? { prepare: own.prepare } : {}),
      ...(own.onProgress ? { onProgress: own.onProgress } : {}),
      ...(own.note ? { note: own.note } : {}),
      ...(own.event ? { event: own.event } : {}),
      onTraffic: (e) => traffic.add(e.direction, e.text),
      onRuntime: (rt) => state.runtime(rt),
      onSupervisor: (supervisor) => watch.attach(supervisor),
      onSession: (s, sources) => {
        const agentName = run.agentLabel?.name ?? s.metadata.agent.name;
        s.live.handle.onAppend?.((records, start, end) => ctl.appended(records, start, end));
        // the editor continues a thread the host ran in the host again (thread-tag.ts)
        if (!ranInHost(s.metadata)) s.live.patch({ tags: [...s.metadata.tags, HOST_TAG] });
        // the turn's end is told once the session has recorded it whole (its edit-ledger op, its turn_end record),
        // not at the agent's `done`: a client reads the ledger as soon as it hears of it
        let ended: TurnEnd | undefined;
        s.onEvent((e) => {
          ctl.updated();
          // an error ends the turn with no `done` (the agent answered the prompt with an error, or died)
          ended = report.add(e) ?? (e.type === "error" ? report.failed() : undefined) ?? ended;
        });
        s.onStatus((st) => {
          if (st === "working") {
            // a turn the watchdog's ladder starts while the run waits idle (a person's Restart) makes it working
            ctl.idle?.(false);
            return ctl.turnStarted();
          }
          if (!ended) return;
          const { stopReason, filesChanged, usage } = ended;
          ended = undefined;
          // the row of a run kept open says idle with its turn's end (its next prompt, if queued, makes it working)
          if (keepOpen && !queue.length && !done) ctl.idle?.(true);
          ctl.turnEnded(stopReason, filesChanged, usage);
        });
        // while idle nothing would notice it before the next prompt; a watchdog with a rung left keeps the run for
        // it (offer: a person's Restart; auto: its own)
        s.onAgentExit(() => !s.turnRunning && !watch.offers() && end());
        ctl.opened(s.threadId, store.pathFor(s.threadId), {
          prompt: (text, wire) => {
            // its context checked before it is queued (a refused prompt never reaches the agent), in the order
            // the prompts came: one after a prompt whose files are being checked waits for it
            if (run.once)
              throw new Error(
                `the host's run of thread ${s.threadId} was started with "Run once" and takes no more prompts: send it once the run has ended`,
              );
            const admit = admitted.then(async () => {
              // without parts the text is the prompt: not text, it failed the turn before the agent saw it
              if (typeof text !== "string")
                throw new AcpThreadsError("usage", "the prompt's text must be a string: refused");
              const parts = wire === undefined ? undefined : await promptParts(run, wire);
              // what the agent cannot take is refused here: its turn would throw it, and that ended the whole run
              if (parts) {
                assertNotEmpty(parts);
                assertTakesImages(parts, s.capabilities?.agentCapabilities.promptCapabilities, agentName);
              }
              if (done)
                throw new HostRefusal(
                  "run_ending",
                  `the run on thread ${s.threadId} is ending; run it again with --thread`,
                );
              const next = { text, ...(parts ? { parts } : {}) };
              if (!wake(next)) queue.push(next);
            });
            admitted = admit.catch(() => undefined);
            return admit;
          },
          cancel: () => s.cancel(),
          ending: () => done,
          // its context checked as a prompt's, before the agent sees any of it
          steer: async (text, wire) => {
            if (wire === undefined) return await s.steer(text);
            const built = await s.preparePrompt(await promptParts(run, wire), sources);
            return await s.steer(built.blocks, { recordText: built.text, recordContext: built.refs });
          },
          unqueue: (text) => {
            const at = queue.findIndex((q) => q.text === text);
            if (at >= 0) queue.splice(at, 1);
            return at >= 0;
          },
          // through the handle the run holds (one writer per thread file): its record goes to the clients as any other
          rename: (title) => store.rename(s.threadId, title),
          link: async (links) => {
            await checkLinks(s.threadId, links, async (id) => (await store.readAsync(id))?.metadata);
            const write = appendedLinks(s.live.metadata, links); // the lists as they are once checked
            if (write) s.live.patch(write);
          },
          stop: () => {
            end();
            background(s.cancel(), "cancelling the turn of a stopped run"); // then the run closes its session
          },
          session: sessionControls(s, agentName),
          retry: (step, dismiss) => watch.retry(step, dismiss),
        });
        state.follow(s, agentName);
        own.onSession?.(s, sources);
      },
      nextPrompt: async () => {
        let next = done ? undefined : queue.shift();
        if (next === undefined && keepOpen && !done) {
          ctl.idle?.(true);
          next = await new Promise<NextPrompt | undefined>((resolve) => (waiting = resolve));
        }
        if (next === undefined) done = true;
        else ctl.idle?.(false);
        return next;
      },
    });
    state.dispose();
    const exitCode = front.ended(run, outcome, traffic);
    return { exitCode, ...(outcome.error ? { error: outcome.error } : {}) };
  };
}
