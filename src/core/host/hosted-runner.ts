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
import type { RunLoopOptions, RunPorts, RunTarget } from "../session/run-options";
import type { EditLedger } from "../ledger/edit-ledger";
import type { ContextItem } from "../model/context";
import { ThreadStore, type Durability } from "../store/thread-store";
import { background, onUnexpectedError } from "../util/unexpected";
import { hostElicitor, HostWatch } from "./host-run-hooks";
import { promptParts, runContext, runtimeOptions } from "./hosted-run-context";
import { appendedLinks, checkLinks } from "./meta-patch";
import type { DetachedRun } from "./protocol";
import { HostRefusal } from "./protocol-refusal";
import type { HostRunControl, HostRunner } from "./run-control";
import { SessionStateFollower, sessionControls } from "./session-state";
import { HOST_TAG, ranInHost } from "./thread-tag";
import { TurnReport, type TurnEnd } from "./turn-report";

export type { HostRunner } from "./run-control";

/** The labels a client may give a thread it starts (DetachedRun.startedFrom); anything else is `automation`. */
const STARTED_FROM: ReadonlySet<string> = new Set(["editor", "cli", "automation"]);

/**
 * A run's ports its front end fills: the sandbox's preparation and notes, the worktree's progress, the notes; for a
 * host that runs its front end's run `alone`, also what that process holds itself (see HostRunFrontEnd.alone).
 */
export type FrontEndPorts = Pick<
  RunPorts,
  "prepare" | "onProgress" | "note" | "event" | "onSession" | "onThread" | "onTraffic" | "whenFree" | "firstTurn"
> & {
  /** Answers the agent's elicitations while no client is attached (the run's `elicitation` mode); alone: all. */
  elicitor?: ElicitationAsker;
  /** Alone: the first prompt's context as the front end's process read and checked it (it crosses no wire). */
  context?: ContextItem[];
  /** Alone: the ledger the run records into (Best of N's candidates share one). */
  ledger?: EditLedger;
};

/** What of a hosted run is the host's entry point's. */
export interface HostRunFrontEnd {
  /**
   * The host runs this one run for the process it lives in (the CLI's foreground `run`, an in-process host made for
   * it and stopped after): the run is that process's as `acp-threads run` always ran it. Its context comes from
   * the ports, not the wire (its own process checked it), its agent's files are the disk and its terminals shown
   * nowhere (no other client can attach) and its environment is the one asked for. Such a front end also says
   * `tagsRuns: false` (no host will hold the thread after).
   */
  alone?: boolean;
  /** The run's thread and agent: a stored thread, a named session, or a new thread of its agent (maybe in a worktree). */
  target(run: DetachedRun, store: ThreadStore): Promise<RunTarget>;
  /** Its ports for this run. */
  ports(run: DetachedRun, store: ThreadStore): FrontEndPorts;
  /** The run ended: its exit code (told to the clients), its protocol traffic written where the run asks. */
  ended(run: DetachedRun, outcome: RunOutcome, traffic: ProtocolLog): number;
  /**
   * False: its runs' threads are not tagged `runs:host` (thread-tag.ts), as a window's own in-process host's are
   * not (a thread of a window's `window` mode stays that window's, not continued in the user's thread host), nor
   * the CLI's foreground run's (`alone`).
   */
  tagsRuns?: false;
  /**
   * True: its runs tell a permission request nobody was asked about (the policy or a remembered rule decided it) as
   * an `answered` event, as the editor tells its window sessions' (the window's own host: its threads are the
   * window's). The CLI's hosts tell only the questions their clients were asked.
   */
  tellsDecisions?: true;
  /**
   * How its runs' thread records reach the disk (thread-handle.ts): "soon" queues them and writes them in order on
   * the thread pool, fsyncs there too (the window's own host: the extension host's thread never waits on the disk);
   * default "now", each written and each turn's end fsynced on the caller's thread (the CLI's hosts).
   */
  durability?: Durability;
  /** Its runs' ledgers' walk worker script (the window names its own: nothing is looked for on its thread). */
  walkWorker?: string;
}

export function hostedRunner(home: string, logger: Logger, front: HostRunFrontEnd): HostRunner {
  const store = new ThreadStore(home, { logger, durability: front.durability ?? "now" });
  return async (run, ctl) => {
    const own = front.ports(run, store);
    const alone = front.alone === true;
    const { context, firstParts } = alone
      ? { context: own.context ?? [], firstParts: undefined }
      : await runContext(run);
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
    const session = runtimeOptions(run, home);
    /** The run's thread once its session opened: its close is waited for before the run ends. */
    let opened: string | undefined;
    /** The turn boundaries told so far (durability "soon": each once the records before it are in the file). */
    let told: Promise<void> = Promise.resolve();
    /**
     * A question or an elicitation asked of the clients, once the boundaries told before it are (durability "soon"):
     * its needs_input comes after its turn's turn_started, as in the thread's records.
     */
    const afterTold =
      front.durability === "soon"
        ? <A extends unknown[], R>(ask: (...a: A) => Promise<R>) =>
            (...a: A) =>
              told.then(() => ask(...a))
        : <F>(ask: F) => ask;
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
      // as the editor's sessions: the agent's tools find this home (alone: as `run` asked)
      env: alone ? run.env : { ACP_THREADS_HOME: home, ...run.env },
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
      ...(front.walkWorker ? { walkWorker: front.walkWorker } : {}),
      ...(ctl.asker ? { asker: { ...ctl.asker, ask: afterTold(ctl.asker.ask.bind(ctl.asker)) } } : {}),
      ...(alone ? aloneRun(own) : clientsOf(run, ctl, own, afterTold)),
      ...(own.prepare ? { prepare: own.prepare } : {}),
      ...(own.onProgress ? { onProgress: own.onProgress } : {}),
      ...(own.note ? { note: own.note } : {}),
      ...(own.event ? { event: own.event } : {}),
      ...(own.onThread ? { onThread: own.onThread } : {}),
      onTraffic: (e) => {
        traffic.add(e.direction, e.text);
        own.onTraffic?.(e);
      },
      onRuntime: (rt) => state.runtime(rt),
      onSupervisor: (supervisor) => watch.attach(supervisor),
      onSession: (s, sources) => {
        opened = s.threadId;
        const agentName = run.agentLabel?.name ?? s.metadata.agent.name;
        s.live.handle.onAppend?.((records, start, end) => ctl.appended(records, start, end));
        // the editor continues a thread the host ran in the host again (thread-tag.ts)
        if (front.tagsRuns !== false && !ranInHost(s.metadata)) s.live.patch({ tags: [...s.metadata.tags, HOST_TAG] });
        // the turn's end is told once the session has recorded it whole (its edit-ledger op, its turn_end record),
        // not at the agent's `done`: a client reads the ledger as soon as it hears of it
        let ended: TurnEnd | undefined;
        // in order; a run writing on the thread pool tells each once the records before it have landed, so a client
        // that reads the thread when it hears `turn_ended` finds the turn's end in it
        const tell = (step: () => void) => {
          if (front.durability !== "soon") return step();
          told = told
            .then(() => s.live.handle.flushed?.())
            .catch(() => undefined) // a failed write was warned of: the boundary is told all the same
            .then(step)
            .catch((err: unknown) => onUnexpectedError("telling a turn's start or end", err));
        };
        s.onEvent((e) => {
          ctl.updated();
          if (e.type === "permission" && front.tellsDecisions) tell(() => ctl.decided(e.decision));
          // an error ends the turn with no `done` (the agent answered the prompt with an error, or died)
          ended = report.add(e) ?? (e.type === "error" ? report.failed() : undefined) ?? ended;
        });
        s.onStatus((st) => {
          if (st === "working")
            return tell(() => {
              // a turn the watchdog's ladder starts while the run waits idle (a person's Restart) makes it working
              ctl.idle?.(false);
              ctl.turnStarted();
            });
          if (!ended) return;
          const { stopReason, filesChanged, usage } = ended;
          ended = undefined;
          tell(() => {
            // the row of a run kept open says idle with its turn's end (its next prompt, if queued, makes it working)
            if (keepOpen && !queue.length && !done) ctl.idle?.(true);
            ctl.turnEnded(stopReason, filesChanged, usage);
          });
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
    }).finally(async () => {
      await told; // every turn's end is told before the run's
      // records queued on the thread pool (durability "soon") land, and the file closes, before the run ends: the
      // host sends `ended` after the run's last records, and a client that then opens the thread finds it unlocked.
      // The session's close waits for it too, but not if it threw before that (runLoop swallows its error)
      if (opened) await store.whenClosed(opened);
    });
    state.dispose();
    const exitCode = front.ended(run, outcome, traffic);
    return {
      exitCode,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.errorInfo ? { errorInfo: outcome.errorInfo } : {}),
    };
  };
}

/** The elicitor, files and terminals of a run the host's clients see: asked of them first, shown to them. */
function clientsOf(
  run: DetachedRun,
  ctl: HostRunControl,
  own: FrontEndPorts,
  inOrder: (ask: ElicitationAsker["ask"]) => ElicitationAsker["ask"],
): Partial<RunPorts> {
  const elicitor = own.elicitor && hostElicitor(run.elicitation, ctl, own.elicitor);
  return {
    ...(elicitor ? { elicitor: { ...elicitor, ask: inOrder(elicitor.ask) } } : {}),
    files: ctl.files,
    terminalHost: (cwd, agentName) => ctl.terminalHost(cwd, run.agentLabel?.name ?? agentName),
  };
}

/** A run alone (HostRunFrontEnd.alone): its front end's own elicitor, ledger and held-thread follower, the disk. */
function aloneRun(own: FrontEndPorts): Partial<RunPorts> & Pick<RunLoopOptions, "ledger"> {
  return {
    ...(own.elicitor ? { elicitor: own.elicitor } : {}),
    ...(own.whenFree ? { whenFree: own.whenFree } : {}),
    ...(own.firstTurn ? { firstTurn: own.firstTurn } : {}),
    ...(own.ledger ? { ledger: own.ledger } : {}),
  };
}
