/**
 * What the thread host runs for `run --detach`: the `run` command's own path (thread-run.ts), with the host's
 * controls wired in: its asker for `--permission ask`, prompts, cancel and steering from any client, and the
 * thread handed to the host once open. Nothing is printed: the thread's records are what clients see.
 */
import { resolve } from "node:path";
import { Writable, PassThrough } from "node:stream";
import type { Logger } from "../core/log";
import type { HostRunner } from "../core/host/run-control";
import { HOST_TAG, ranInHost } from "../core/host/thread-tag";
import { TurnReport, type TurnEnd } from "../core/host/turn-report";
import { ThreadStore } from "../core/store/thread-store";
import type { TurnOutput } from "./output/turn-output";
import { runOnThread } from "./thread-run";
import type { NextPrompt, ThreadRunOptions } from "./thread-run-options";
import { recallMcpFromWire, recallMcpServer } from "../core/recall/mcp-offer";
import { ProtocolLog } from "../core/acp/protocol-log";
import { SessionStateFollower, sessionControls } from "../core/host/session-state";
import { appendedLinks, checkLinks } from "../core/host/meta-patch";
import { assertContextInside, contextFromWire, partsFromWire, type WirePromptPart } from "../core/host/wire-context";
import { PATCH_TITLE_MAX, type DetachedRun } from "../core/host/protocol";
import { HostRefusal } from "../core/host/protocol-refusal";
import { AcpThreadsError } from "../core/errors";
import { isThreadId } from "../core/model/thread-id";
import type { ContextItem, PromptPart } from "../core/model/context";
import { assertNotEmpty, assertTakesImages, promptPartsText } from "../core/prompt/blocks";
import { homeLayout } from "../core/store/paths";
import { cliElicitor } from "./elicitation-prompt";
import { hostElicitor, HostWatch } from "./host-run-hooks";
import { EXIT } from "./io";
import { writeProtocolLog } from "./protocol-log-file";
import { background } from "../core/util/unexpected";

const quiet: TurnOutput = { event: () => {}, summary: () => {} };
const noInput = new PassThrough();
/** The labels a client may give a thread it starts (DetachedRun.startedFrom); anything else is `automation`. */
const STARTED_FROM: ReadonlySet<string> = new Set(["editor", "cli", "automation"]);

export function hostRunner(home: string, logger: Logger): HostRunner {
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
      prompts: firstParts ? [promptPartsText(firstParts), ...run.prompts.slice(1)] : run.prompts,
      context,
      ...(firstParts ? { firstParts } : {}),
      ...(run.roots?.length ? { roots: run.roots } : {}),
      ...runtimeOptions(run, home),
      ...(run.sandbox ? { sandbox: run.sandbox } : {}),
      elicitor: hostElicitor(
        run.elicitation,
        ctl,
        cliElicitor(run.elicitation ?? "ask", { stdin: noInput, stderr: process.stderr, interactive: false }),
      ),
      onTraffic: (e) => traffic.add(e.direction, e.text),
      onRuntime: (rt) => state.runtime(rt),
      thread: run.thread,
      session: run.session,
      agent: run.agent,
      startedFrom: STARTED_FROM.has(run.startedFrom ?? "") ? run.startedFrom : "automation",
      ...(run.agentLabel ? { agentLabel: run.agentLabel } : {}),
      cwd: run.runCwd,
      worktree: run.worktree,
      // checked by the host before this run started (run-roots.ts assertWorktreeOffered)
      ...(run.preparedWorktree ? { preparedWorktree: run.preparedWorktree } : {}),
      permission: run.permission,
      asker: ctl.asker,
      files: ctl.files,
      terminalHost: (cwd, agentName) => ctl.terminalHost(cwd, run.agentLabel?.name ?? agentName),
      env: { ACP_THREADS_HOME: home, ...run.env }, // as the editor's sessions: the agent's tools find this home
      ...(run.baseEnv ? { baseEnv: run.baseEnv } : {}),
      authMethodId: run.authMethodId,
      timeoutMs: run.timeoutMs,
      wait: false,
      stallMs: run.stallMs,
      retry: run.retry,
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
      },
      ...(keepOpen ? { keepOpen: true } : {}),
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
    writeProtocolLog(traffic, {
      file: run.protocolLog,
      failed: summary.exitCode === EXIT.error,
      agentId: summary.agent.id,
      protocolLogsDir: homeLayout(home).protocolLogsDir,
      stderr: process.stderr,
    });
    return { exitCode: summary.exitCode, ...(summary.error ? { error: summary.error } : {}) };
  };
}

/**
 * The run's first-prompt context from the wire, refused (the run does not start) when any of it names a file
 * outside the run's folders: its folder (`--cwd`'s, else the client's) and `roots`, and for a prepared worktree
 * its repository (a Best of N prompt's `@` chips name the workspace's files, as in the window).
 */
async function runContext(run: DetachedRun): Promise<{ context: ContextItem[]; firstParts?: PromptPart[] }> {
  const context = contextFromWire(run.context);
  const firstParts = Array.isArray(run.parts) ? partsFromWire(run.parts) : undefined;
  const items = [...context, ...itemsOf(firstParts ?? [])];
  assertChipsCarryText(items);
  await assertInsideRun(run, items);
  return { context, ...(firstParts ? { firstParts } : {}) };
}

/** A later prompt's parts from the wire (a client's `prompt` to the open run), refused as the first prompt's are. */
async function promptParts(run: DetachedRun, wire: WirePromptPart[]): Promise<PromptPart[]> {
  const parts = partsFromWire(wire);
  assertChipsCarryText(itemsOf(parts));
  await assertInsideRun(run, itemsOf(parts));
  return parts;
}

/**
 * Refuses (`usage`) a past-thread chip that came without its text: the host reads no thread's conversation for a
 * prompt (a window sends each chip's text, host-run-spec.ts), so the turn would fail before the agent saw the
 * prompt, and no client would hear of it. The client that sent it hears it instead.
 */
function assertChipsCarryText(items: readonly ContextItem[]): void {
  const bare = items.find((i) => i.kind === "thread" && typeof i.content !== "string");
  if (bare)
    throw new AcpThreadsError(
      "usage",
      `the thread "${bare.label}" came without its text: the thread host reads no thread for a prompt; send its text with the chip (or remove it)`,
    );
}

const itemsOf = (parts: readonly PromptPart[]): ContextItem[] =>
  parts.flatMap((p) => (p.type === "context" ? [p.item] : []));

/** Its folder, its roots and, for a prepared worktree, that worktree's repository (checked by the host on `run`). */
async function assertInsideRun(run: DetachedRun, items: readonly ContextItem[]): Promise<void> {
  if (!items.length) return;
  const repo = run.preparedWorktree?.ref.repo;
  await assertContextInside(items, [
    resolve(run.cwd, run.runCwd ?? "."),
    ...(run.roots ?? []),
    ...(repo ? [repo] : []),
  ]);
}

/**
 * The run's session options the editor gives its own sessions: the recall tools as an MCP server (started with
 * the asking client's command line, on this home), traffic recording turned off, a new thread's title and the
 * thread a handoff continues.
 */
function runtimeOptions(
  run: DetachedRun,
  home: string,
): Pick<ThreadRunOptions, "mcpServers" | "recordTraffic" | "title" | "origin"> {
  const recall = recallMcpFromWire(run.recallMcp);
  const title = typeof run.title === "string" ? run.title.trim().slice(0, PATCH_TITLE_MAX) : "";
  const from = typeof run.handoffFrom === "string" && isThreadId(run.handoffFrom) ? run.handoffFrom : undefined;
  return {
    ...(recall ? { mcpServers: [recallMcpServer(recall, home)] } : {}),
    ...(run.recordTraffic === false ? { recordTraffic: false } : {}),
    ...(title ? { title } : {}),
    ...(from ? { origin: { kind: "handoff", source: from } } : {}),
  };
}
