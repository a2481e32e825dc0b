/**
 * `acp-threads run --thread ID | --session NAME PROMPT...`: more turns on a stored thread, from the CLI as from the
 * editor. The session is reopened through the same ladder (session/load → session/resume → new session seeded from
 * the thread). A thread another process is writing is followed read-only (its new records are printed) with the
 * holder named, and taken over once that process lets go (`--no-wait`: exit 6 instead). A named session is a
 * thread tagged `session:NAME` in this workspace, created on first use (acpx users know them). The watchdog
 * watches every turn (`--stall-timeout`, `--retry`).
 */
import { createAgentRuntime } from "../core/acp/agent-runtime";
import { DiskWorkspaceFiles } from "../core/acp/disk-workspace-files";
import { PermissionStore } from "../core/acp/permission-store";
import { policyModeNote } from "../core/acp/policy-mode";
import { AcpThreadsError, errorMessage } from "../core/errors";
import { timerMs } from "../core/util/guards";
import { EditLedger } from "../core/ledger/edit-ledger";
import { agentRefOf } from "../core/model/agent";
import type { ContextItem, PromptPart } from "../core/model/context";
import type { PermissionDecision } from "../core/model/events";
import { textWithContext } from "../core/prompt/blocks";
import { runtimesDirOf } from "../core/runtime/runtimes-dir";
import { closeSandbox, type SandboxPlan } from "../core/sandbox/plan";
import type { ThreadSession } from "../core/session";
import { openThread, type OpenedThread } from "../core/session/open-thread";
import type { SuperviseOptions } from "../core/watchdog/attach";
import type { Supervisor } from "../core/watchdog/supervisor";
import { watchdogLine } from "./watchdog-line";
import { EXIT } from "./io";
import { namedSessionTag } from "./named-sessions";
import type { RunSummary } from "./output/turn-output";
import { readReview, reviewTurnParts, type ReviewRequest } from "./review-file";
import { runSandbox, sandboxNotes } from "./sandbox-flags";
import type { NextPrompt, ThreadRunOptions } from "./thread-run-options";
import { followWhileHeld, target, type Target } from "./thread-target";
import { worktreeProgress } from "./worktree-start";

/**
 * The thread's session through the engine's one `openThread`: `prepare` runs before the agent starts (a review
 * file, the sandbox), a held thread is followed until it is free, a worktree made for a session that never
 * opened is removed again.
 */
function open(
  o: ThreadRunOptions,
  t: Target,
  stop: AbortSignal,
  ledger: EditLedger,
  prepare: () => Promise<SandboxPlan | undefined>,
  watchdog: SuperviseOptions | undefined,
): Promise<OpenedThread | undefined> {
  let sandbox: SandboxPlan | undefined;
  const createRuntime = () => {
    const rt = createAgentRuntime(
      {
        agent: t.agent,
        cwd: t.cwd,
        permissionPolicy: o.permission,
        asker: o.asker,
        elicitor: o.elicitor,
        permissionStoreDir: o.store.home,
        ...(o.files ? { files: o.files(t.cwd) } : {}),
        ...(o.terminalHost ? { terminalHost: o.terminalHost(t.cwd, t.agent.displayName) } : {}),
        ...(extraRoots(o, t).length
          ? { workspaceRoots: [t.cwd, ...extraRoots(o, t)], additionalDirectories: extraRoots(o, t) }
          : {}),
        env: o.env,
        ...(o.mcpServers?.length ? { mcpServers: o.mcpServers } : {}),
        logger: o.logger,
        sandbox,
      },
      {
        authMethodId: o.authMethodId,
        node: { runtimesDir: runtimesDirOf(o.store.home) },
        ...(o.baseEnv ? { baseEnv: o.baseEnv } : {}),
      },
    );
    o.onRuntime?.(rt);
    return rt;
  };
  const agent = agentRefOf(t.agent);
  const session = {
    store: o.store,
    createRuntime,
    agent,
    cwd: t.cwd,
    logger: o.logger,
    ledger,
    ...(o.recordTraffic === false ? { recordTraffic: false } : {}),
  };
  return openThread({
    session: t.threadId
      ? session
      : {
          ...session,
          startedFrom: o.startedFrom ?? ((o.io.stdin as { isTTY?: boolean }).isTTY ? "cli" : "automation"),
          ...(o.origin ? { origin: o.origin } : {}),
          ...(o.title ? { title: o.title } : {}),
          // a plain run answers even when its thread cannot be written (one warning); a named session or a
          // handoff is only worth something recorded
          ...(o.session || o.origin
            ? {}
            : {
                onRecordError: (err: unknown) =>
                  o.io.stderr.write(`acp-threads run: thread not recorded: ${errorMessage(err)}\n`),
              }),
        },
    // --no-wait: the open refuses a thread another process writes (locked)
    ...(t.threadId ? { resume: t.threadId } : {}),
    ...(t.threadId && o.wait ? { whenFree: (id: string) => followWhileHeld(o, id, stop) } : {}),
    ...(t.worktree ? { worktree: { ref: t.worktree, made: true } } : {}),
    ...(o.session ? { tags: [namedSessionTag(o.session)] } : {}),
    prepare: async () => void (sandbox = await prepare()),
    ...(watchdog ? { watchdog } : {}),
    onProgress: worktreeProgress(o.io, "run"),
  });
}

/** The session's folders beyond its cwd (`roots`); a worktree session reaches its worktree only. */
export const extraRoots = (o: Pick<ThreadRunOptions, "roots">, t: Target): string[] =>
  t.worktree ? [] : (o.roots ?? []).filter((r) => r !== t.cwd);

/** One prompt of the run: its text, the run's `--file`/`--image` context (the first), or as composed. */
type Turn = NextPrompt & { context?: ContextItem[] };

export const CANCEL_GRACE_MS = 3_000;
/** Files mentioned with `--file` are read from the disk. */
const DISK = new DiskWorkspaceFiles();

/** Resolves `graceMs` after `signal` aborts (never before). */
const afterAbort = (signal: AbortSignal, graceMs: number) =>
  new Promise<void>((resolve) => {
    const arm = () => setTimeout(resolve, graceMs).unref();
    if (signal.aborted) arm();
    else signal.addEventListener("abort", arm, { once: true });
  });

/** Waits until the supervisor has nothing more to do for this turn (auto mode climbs its ladder first). */
async function settled(s: Supervisor, session: ThreadSession, stop: AbortSignal): Promise<void> {
  const done = () => {
    const st = s.state;
    return !st.running && !session.turnRunning && (!st.alert || st.next === undefined || s.mode !== "auto");
  };
  while (!done() && !stop.aborted) await new Promise((r) => setTimeout(r, 100));
}

/**
 * The prompts given (the first with the run's context), then each one `next` has, with its own (the thread host's
 * clients send them while the run goes on; a run the host keeps open waits there for the next one).
 */
async function* prompts(o: ThreadRunOptions, given: string[]): AsyncGenerator<Turn> {
  for (const [i, text] of given.entries())
    yield i ? { text } : { text, context: o.context, ...(o.firstParts ? { parts: o.firstParts } : {}) };
  for (let p = await o.nextPrompt?.(); p !== undefined; p = await o.nextPrompt?.()) yield p;
}

/**
 * Whether the run leaves after a turn, and how. `acp-threads run` leaves on an error turn, on a watchdog alert
 * other than a stall (after auto mode's ladder), and on a denied permission the agent gave up on. A run kept open
 * (the thread host's, as a window's session) stays for its next prompt after any of those while its agent lives:
 * the error is in the thread. It leaves when its agent is dead with no rung left for a person to take: no
 * watchdog, or its ladder spent (`offer` keeps it for a person's Restart; `auto` has restarted it already).
 */
function leaves(
  keepOpen: boolean,
  s: ThreadSession,
  supervisor: Supervisor | undefined,
  last: { stopReason: string; error?: string } | undefined,
  denied: boolean,
): { exitCode: number; error?: string } | undefined {
  const alert = supervisor?.state.alert;
  const error = last?.error ?? alert?.message;
  if (keepOpen)
    return s.agentAlive || supervisor?.state.next !== undefined
      ? undefined
      : { exitCode: EXIT.error, error: error ?? "the agent exited" };
  if (last?.error || (alert && alert.kind !== "stalled")) return { exitCode: EXIT.error, ...(error ? { error } : {}) };
  if (denied && (last?.stopReason === "cancelled" || last?.stopReason === "refusal"))
    return { exitCode: EXIT.permissionDenied };
  return undefined;
}

export async function runOnThread(o: ThreadRunOptions): Promise<RunSummary> {
  const summary: RunSummary = {
    type: "summary",
    stopReason: null,
    sessionId: null,
    turns: 0,
    toolCalls: 0,
    permissions: [],
    agent: { id: "", name: null, version: null },
    exitCode: EXIT.ok,
    threadId: null,
  };
  const stop = new AbortController();
  let why: "timeout" | "interrupted" | undefined;
  const halt = (reason: "timeout" | "interrupted") => {
    why ??= reason;
    stop.abort();
  };
  const timer = o.timeoutMs ? setTimeout(() => halt("timeout"), timerMs(o.timeoutMs)) : undefined;
  const onSignal = () => halt("interrupted");
  o.io.signal.addEventListener("abort", onSignal, { once: true });
  let opened: OpenedThread | undefined;
  let supervisor: Supervisor | undefined;
  // what the turns change goes into the thread's edit ledger, as in the editor (`changes` / `restore` use it)
  const ledger = o.ledger ?? new EditLedger({ home: o.store.home, logger: o.logger });
  let sandbox: SandboxPlan | undefined;
  try {
    const t = await target(o);
    summary.agent.id = t.agent.id;
    if (t.worktree) summary.worktree = t.worktree;
    let review: ReviewRequest | undefined;
    const prepare = async () => {
      // a review file is read and checked against the thread's folder before any agent starts
      review = o.review ? readReview(o.review, o.io.cwd, t.cwd) : undefined;
      // prepared before the thread opens: a machine that cannot sandbox fails here, and nothing runs
      return (sandbox = await runSandbox(o, t, extraRoots(o, t)));
    };
    const watchdog =
      o.retry !== "off" && o.stallMs > 0
        ? { stallMs: o.stallMs, mode: o.retry, prompt: (text: string) => prompt(text) }
        : undefined;
    opened = await open(o, t, stop.signal, ledger, prepare, watchdog);
    if (!opened) return { ...summary, exitCode: why === "timeout" ? EXIT.timeout : EXIT.interrupted };
    const s: ThreadSession = opened.session;
    const modeNote = policyModeNote(t.agent.displayName, s.sessionInfo?.policyMode);
    if (modeNote) o.io.stderr.write(`acp-threads: note: ${modeNote}\n`);
    if (o.onTraffic) s.onTraffic(o.onTraffic);
    // the context's files: the thread host's attached editor's (its unsaved text) where one serves them
    const sources = o.files?.(t.cwd) ?? DISK;
    o.onSession?.(s, sources);
    if (s.recorded) {
      o.onThread?.(s.threadId);
      summary.threadId = s.threadId;
    }
    summary.origin = t.threadId ? s.origin : "new";
    summary.sessionId = s.agentSessionId;
    let turn = 0;
    const toolIds = new Set<string>();
    const denied: PermissionDecision[] = [];
    const blocked = sandbox && sandboxNotes(o.io, "run", sandbox);
    s.onEvent((e) => {
      o.output.event(e, turn);
      if (blocked && e.type === "tool_call") blocked(e.toolCall);
      if (e.type === "tool_call") toolIds.add(e.toolCall.toolCallId);
      if (e.type === "permission") {
        summary.permissions.push(e.decision);
        if (e.decision.decidedBy === "policy" && !e.decision.optionKind?.startsWith("allow")) denied.push(e.decision);
      }
    });
    let last: { stopReason: string; error?: string } | undefined;
    const prompt = async (text: string, context?: ContextItem[], r0?: ReviewRequest, composed?: PromptPart[]) => {
      const caps = s.capabilities?.agentCapabilities.promptCapabilities;
      const parts = r0
        ? reviewTurnParts(r0, caps, text, context)
        : composed
          ? composed
          : context?.length
            ? textWithContext(text, context)
            : undefined;
      // built before the watchdog counts a turn: a prompt refused here never reaches the agent, and a turn counted
      // for it would never end (its stall alarm would ring while a kept-open run waits idle)
      const built =
        parts &&
        (await s.preparePrompt(parts, sources).catch((err: unknown) => {
          // the caller's to fix (usage) is told to the caller; the host's own failure goes in the thread for all
          if (!(err instanceof AcpThreadsError && err.code === "usage"))
            s.live.unsentTurn(text, `the prompt was not sent to the agent: ${errorMessage(err)}`);
          throw err;
        }));
      supervisor?.turnStarted();
      const r = built
        ? await s.promptBuilt(built, { signal: stop.signal })
        : await s.prompt(text, { signal: stop.signal });
      supervisor?.turnEnded(r.stopReason, r.usage);
      last = r;
      return r;
    };
    supervisor = opened.supervisor;
    if (supervisor) {
      o.onSupervisor?.(supervisor);
      supervisor.onState((st) => {
        const line = watchdogLine(st, o.retry === "auto");
        if (line) o.io.stderr.write(`acp-threads run: ${line}\n`);
      });
    }
    const given = review && !o.prompts.length ? [""] : o.prompts;
    for await (const { text, context, parts } of prompts(o, given)) {
      if (stop.signal.aborted) break;
      // a turn the watchdog's ladder started while the run waited (a person's Restart, then "continue") goes first
      await s.turnEnded();
      turn++;
      summary.turns = turn;
      denied.length = 0;
      let refused: unknown;
      const first = turn === 1;
      const ran = prompt(text, context, first ? review : undefined, parts).catch((err: unknown) => {
        // a prompt the agent cannot take (an image for an agent without images) is the caller's to fix (exit 2);
        // a run kept open takes it as that prompt's failure and waits for the next (its first one ends it)
        if (err instanceof AcpThreadsError && err.code === "usage") refused = err;
        return (last = { stopReason: "error", error: errorMessage(err) });
      });
      // after Ctrl-C or the timeout the turn is cancelled; an agent that ignores that gets a grace, then close()
      await Promise.race([ran, afterAbort(stop.signal, CANCEL_GRACE_MS)]);
      if (refused && (first || !o.keepOpen)) throw refused;
      if (refused) o.io.stderr.write(`acp-threads run: a prompt was not sent: ${errorMessage(refused)}\n`);
      if (supervisor) await settled(supervisor, s, stop.signal);
      summary.stopReason = last?.stopReason ?? null;
      summary.toolCalls = toolIds.size;
      if (why) break;
      const left = leaves(o.keepOpen === true, s, supervisor, last, denied.length > 0);
      if (left) {
        summary.exitCode = left.exitCode;
        if (left.error) summary.error = left.error;
        break;
      }
    }
    summary.sessionId = s.agentSessionId;
    const info = s.agentInfo;
    summary.agent = { id: t.agent.id, name: info?.name ?? null, version: info?.version ?? null };
  } catch (err) {
    // a wrong flag or a held thread (--no-wait) is the command's error (exit 2 / 6), not the agent's
    if (err instanceof AcpThreadsError && (err.code === "usage" || err.code === "locked")) throw err;
    summary.error = errorMessage(err);
    summary.exitCode = EXIT.error;
  } finally {
    clearTimeout(timer);
    o.io.signal.removeEventListener("abort", onSignal);
    await opened?.close(summary.exitCode === EXIT.ok ? "idle" : "failed").catch(() => undefined);
    await closeSandbox(sandbox).catch(() => undefined); // the egress proxy and its folder, once the agent is gone
    await ledger.flush().catch((err) => o.logger.warn(`edit ledger: ${errorMessage(err)}`));
    if (!o.ledger) ledger.dispose();
    await PermissionStore.auditSettled(); // the permission decisions are in audit.jsonl when the command returns
  }
  if (why === "timeout") summary.exitCode = EXIT.timeout;
  if (why === "interrupted") summary.exitCode = EXIT.interrupted;
  return summary;
}
