/**
 * `acp-threads run --thread ID | --session NAME PROMPT...`: more turns on a stored thread, from the CLI as from the
 * editor. The session is reopened through the same ladder (session/load → session/resume → new session seeded from
 * the thread). A thread another process is writing is followed read-only (its new records are printed) with the
 * holder named, and taken over once that process lets go (`--no-wait`: exit 6 instead). A named session is a
 * thread tagged `session:NAME` in this workspace, created on first use (acpx users know them). The watchdog
 * watches every turn (`--stall-timeout`, `--retry`).
 */
import type { Disposable } from "../core/lifecycle";
import { serveSteerInbox } from "../core/session/steer-inbox";
import { policyModeNote } from "../core/acp/policy-mode";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createAgentRuntime } from "../core/acp/agent-runtime";
import { PermissionStore } from "../core/acp/permission-store";
import { runtimesDirOf } from "../core/runtime/managed";
import type { ProtocolLogEntry } from "../core/acp/protocol-log";
import { resolveAgent } from "../core/acp/agent-registry";
import { DiskWorkspaceFiles } from "../core/acp/disk-workspace-files";
import type { ContextItem } from "../core/model/context";
import { textWithContext } from "../core/prompt/blocks";
import { AcpThreadsError, errorMessage } from "../core/errors";
import type { Logger } from "../core/log";
import type { AgentSpec } from "../core/model/agent";
import type { ElicitationAsker } from "../core/model/elicitation";
import type { PermissionAsker } from "../core/ports";
import type { PermissionDecision } from "../core/model/events";
import type { ThreadMetadata } from "../core/model/metadata";
import type { ThreadStartRecord } from "../core/model/records";
import { EditLedger } from "../core/ledger/edit-ledger";
import type { WorktreeRef } from "../core/model/records";
import { discardWorktree } from "../core/worktree/discard";
import { ThreadSession } from "../core/session";
import { installedSpecFor } from "../core/registry/installed";
import { describeHolder, liveWriter, lockedError } from "../core/store/file-lock";
import { gitInfo } from "../core/store/git-info";
import { ThreadFollower } from "../core/store/thread-follower";
import type { ThreadStore } from "../core/store/thread-store";
import { recordsToEvents } from "../core/thread/record-events";
import { superviseSession } from "../core/watchdog/attach";
import type { RetryMode, Supervisor } from "../core/watchdog/supervisor";
import { worktreeFor } from "./worktree-start";
import type { SandboxPlan } from "../core/sandbox/plan";
import type { SandboxSettings } from "../core/sandbox/policy";
import { closeSandbox } from "../core/sandbox/plan";
import { runSandbox, sandboxNotes } from "./sandbox-flags";
import { findNamedSession, namedSessionTag } from "./named-sessions";
import { EXIT, type CliIO } from "./io";
import type { RunSummary, TurnOutput } from "./output/turn-output";
import { readReview, reviewTurnParts, type ReviewRequest } from "./review-file";

export interface ThreadRunOptions {
  io: CliIO;
  store: ThreadStore;
  logger: Logger;
  output: TurnOutput;
  prompts: string[];
  /** Context for the first prompt (`--file`, `--image`), sent as the agent's prompt capabilities allow. */
  context?: ContextItem[];
  /** `--review FILE`: review comments sent as the first turn (the first prompt, if any, opens it). */
  review?: string;
  thread?: string;
  session?: string;
  agent?: string;
  cwd?: string;
  /** "ask" only with `asker` (the thread host's clients answer: `run --detach --permission ask`). */
  permission: "approve-all" | "approve-reads" | "deny-all" | "ask";
  /** Asks a person for the policy's "ask" verdicts; none: those are denied, as on a terminal-less run. */
  asker?: PermissionAsker;
  /** Called once the session is open (the thread host holds it from then on). */
  onSession?: (session: ThreadSession) => void;
  /** A prompt sent while the run goes on (the thread host's clients): asked for after each turn; none: done. */
  nextPrompt?: () => string | undefined;
  /** Answers the agent's elicitation requests (`run --elicitation`); none: elicitation is not offered. */
  elicitor?: ElicitationAsker;
  env: Record<string, string>;
  /** The agent's environment before `env` (the thread host: the shell that asked for the run); default: ours. */
  baseEnv?: NodeJS.ProcessEnv;
  authMethodId?: string;
  timeoutMs?: number;
  /** Wait for (and follow) a thread another process writes; false: exit 6 at once. */
  wait: boolean;
  stallMs: number;
  retry: RetryMode | "off";
  /** A new thread's origin (a handoff names the thread it continues). */
  origin?: ThreadStartRecord["origin"];
  /** Who starts a new thread (#36); default: "cli" with a TTY on stdin, else "automation". */
  startedFrom?: ThreadStartRecord["startedFrom"];
  /** A new thread's title (a handoff's "Handoff: <source title>"); default: its first prompt. */
  title?: string;
  /** Called once the thread is open (a handoff links the old thread to it). */
  onThread?: (threadId: string) => void;
  /** Receives every protocol line of the thread's agent process(es) (for --protocol-log). */
  onTraffic?: (e: ProtocolLogEntry) => void;
  /** Records what the turns change (default: the data home's ledger, as the editor does). */
  ledger?: EditLedger;
  /** A new thread works in a git worktree of its own (`run --worktree`); a folder outside git gets a plain session. */
  worktree?: boolean;
  /** A new thread works in this worktree, made by the caller (best of N makes one per candidate). */
  preparedWorktree?: { cwd: string; ref: WorktreeRef };
  /** Run the agent in the OS sandbox with these settings (`--sandbox`); none: unsandboxed. */
  sandbox?: SandboxSettings;
}

interface Target {
  threadId?: string;
  metadata?: ThreadMetadata;
  agent: AgentSpec;
  cwd: string;
  /** The worktree made for this new thread (`--worktree`). */
  worktree?: WorktreeRef;
}

/** The agent a stored thread ran, as registered now (a preset or a command line), or as recorded. */
export function agentOf(m: ThreadMetadata, env: NodeJS.ProcessEnv, home: string): AgentSpec {
  try {
    return resolveAgent(m.agent.id, { cwd: m.cwd, env, installed: (id) => installedSpecFor(home, id) });
  } catch {
    return { id: m.agent.id, displayName: m.agent.name, command: m.agent.command, args: m.agent.args ?? [] };
  }
}

async function target(o: ThreadRunOptions): Promise<Target> {
  const { io, store } = o;
  const installed = (id: string) => installedSpecFor(store.home, id); // agents added from the ACP Registry
  const cwd = o.cwd !== undefined ? resolve(io.cwd, o.cwd) : io.cwd;
  let threadId: string | undefined;
  if (o.thread) threadId = store.resolveId(o.thread);
  else if (o.session) {
    const workspace = gitInfo(cwd).repoRoot ?? cwd;
    const agentId = o.agent ? resolveAgent(o.agent, { cwd, env: io.env, installed }).id : undefined;
    threadId = (await findNamedSession(store, o.session, { workspace, agentId }))?.threadId;
  }
  if (!threadId) {
    if (!o.agent)
      throw new AcpThreadsError("usage", `there is no session '${o.session}' here yet: give --agent to start it`);
    const agent = resolveAgent(o.agent, { cwd, env: io.env, installed });
    if (o.preparedWorktree) return { agent, cwd: o.preparedWorktree.cwd, worktree: o.preparedWorktree.ref };
    return o.worktree ? { agent, ...(await worktreeFor(io, cwd, "run")) } : { agent, cwd };
  }
  const metadata = store.read(threadId).metadata;
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
    const asked = resolveAgent(o.agent, { cwd: metadata.cwd, env: io.env, installed });
    // a thread recorded before command-line agents had ids of their own (#33) holds the bare name
    const legacy = !metadata.agent.id.includes(":") && asked.displayName === metadata.agent.id;
    if (asked.id !== metadata.agent.id && !legacy)
      throw new AcpThreadsError(
        "usage",
        `thread ${threadId} belongs to ${metadata.agent.name}; to continue it with ${asked.displayName} use 'acp-threads handoff ${threadId} --agent ${o.agent}'`,
      );
  }
  return { threadId, metadata, agent: agentOf(metadata, io.env, store.home), cwd: metadata.cwd };
}

/** Prints what the holder of the thread writes until it lets go; false when interrupted first. */
async function followWhileHeld(o: ThreadRunOptions, threadId: string, stop: AbortSignal): Promise<boolean> {
  const path = o.store.pathFor(threadId);
  const holder = liveWriter(path);
  if (!holder) return true;
  if (!o.wait) throw lockedError(path, holder);
  const tell = (h: NonNullable<typeof holder>) =>
    o.io.stderr.write(
      `acp-threads run: thread ${threadId} is being written by ${describeHolder(h)} (pid ${h.pid}); following it read-only until it is free (Ctrl-C to stop)\n`,
    );
  tell(holder);
  const follower = new ThreadFollower(path, { fromOffset: o.store.read(threadId).size });
  try {
    follower.onRecords((records) => {
      for (const e of recordsToEvents(records)) if (e.type !== "user_text") o.output.event(e, 0);
    });
    follower.onHolder((h) => h && tell(h));
    const free = await follower.whenFree(stop);
    if (free) o.io.stderr.write(`acp-threads run: the other writer let go of thread ${threadId}; taking it over\n`);
    return free;
  } finally {
    follower.dispose();
  }
}

async function open(
  o: ThreadRunOptions,
  t: Target,
  stop: AbortSignal,
  ledger: EditLedger,
  sandbox: SandboxPlan | undefined,
): Promise<ThreadSession | undefined> {
  const createRuntime = () =>
    createAgentRuntime(
      {
        agent: t.agent,
        cwd: t.cwd,
        permissionPolicy: o.permission,
        asker: o.asker,
        elicitor: o.elicitor,
        permissionStoreDir: o.store.home,
        env: o.env,
        logger: o.logger,
        sandbox,
      },
      {
        authMethodId: o.authMethodId,
        node: { runtimesDir: runtimesDirOf(o.store.home) },
        ...(o.baseEnv ? { baseEnv: o.baseEnv } : {}),
      },
    );
  const ref = { id: t.agent.id, name: t.agent.displayName, command: t.agent.command, args: t.agent.args };
  if (!t.threadId) {
    const session = await ThreadSession.start({
      store: o.store,
      createRuntime,
      agent: ref,
      cwd: t.cwd,
      logger: o.logger,
      ledger,
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
    });
    if (o.session) session.live.patch({ tags: [...session.metadata.tags, namedSessionTag(o.session)] });
    if (t.worktree) session.live.patch({ worktree: t.worktree });
    return session;
  }
  // another process may take the thread between our look and our open: follow it again, then retry
  for (;;) {
    if (!(await followWhileHeld(o, t.threadId, stop))) return undefined;
    try {
      return await ThreadSession.resume(
        { store: o.store, createRuntime, logger: o.logger, agent: ref, ledger },
        t.threadId,
      );
    } catch (err) {
      if (!(err instanceof AcpThreadsError && err.code === "locked")) throw err;
    }
  }
}

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

/** The prompts given, then each one `next` has (the thread host's clients send them while the run goes on). */
function* prompts(given: string[], next: (() => string | undefined) | undefined): Generator<string> {
  yield* given;
  for (let text = next?.(); text !== undefined; text = next?.()) yield text;
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
  const timer = o.timeoutMs ? setTimeout(() => halt("timeout"), o.timeoutMs) : undefined;
  const onSignal = () => halt("interrupted");
  o.io.signal.addEventListener("abort", onSignal, { once: true });
  let session: ThreadSession | undefined;
  let supervisor: Supervisor | undefined;
  let made: WorktreeRef | undefined;
  // what the turns change goes into the thread's edit ledger, as in the editor (`changes` / `restore` use it)
  const ledger = o.ledger ?? new EditLedger({ home: o.store.home, logger: o.logger });
  let inbox: Disposable | undefined;
  let sandbox: SandboxPlan | undefined;
  try {
    const t = await target(o);
    summary.agent.id = t.agent.id;
    made = t.worktree;
    if (made) summary.worktree = made;
    // a review file is read and checked against the thread's folder before any agent starts
    const review = o.review ? readReview(o.review, o.io.cwd, t.cwd) : undefined;
    // prepared before the thread opens: a machine that cannot sandbox fails here, and nothing runs
    sandbox = await runSandbox(o, t);
    session = await open(o, t, stop.signal, ledger, sandbox);
    if (!session) return { ...summary, exitCode: why === "timeout" ? EXIT.timeout : EXIT.interrupted };
    const s = session;
    const modeNote = policyModeNote(t.agent.displayName, s.sessionInfo?.policyMode);
    if (modeNote) o.io.stderr.write(`acp-threads: note: ${modeNote}\n`);
    if (o.onTraffic) s.onTraffic(o.onTraffic);
    inbox = serveSteerInbox(o.store, s.threadId, (text) => s.steer(text)); // `run --steer` from another process
    o.onSession?.(s);
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
    const prompt = async (text: string, context?: ContextItem[], r0?: ReviewRequest) => {
      supervisor?.turnStarted();
      const caps = s.capabilities?.agentCapabilities.promptCapabilities;
      const parts = r0
        ? reviewTurnParts(r0, caps, text, context)
        : context?.length
          ? textWithContext(text, context)
          : undefined;
      const r = parts
        ? await s.promptBuilt(await s.preparePrompt(parts, DISK), { signal: stop.signal })
        : await s.prompt(text, { signal: stop.signal });
      supervisor?.turnEnded(r.stopReason, r.usage);
      last = r;
      return r;
    };
    if (o.retry !== "off" && o.stallMs > 0) {
      supervisor = superviseSession(s, { stallMs: o.stallMs, mode: o.retry, prompt });
      supervisor.onState((st) => {
        if (st.alert && !st.running)
          o.io.stderr.write(
            `acp-threads run: watchdog: ${st.alert.message}${st.next ? `; ${o.retry === "auto" ? "next" : "would"}: ${st.next}` : st.exhausted ? "; no retry left" : ""}\n`,
          );
      });
    }
    const given = review && !o.prompts.length ? [""] : o.prompts;
    for (const text of prompts(given, o.nextPrompt)) {
      if (stop.signal.aborted) break;
      turn++;
      summary.turns = turn;
      denied.length = 0;
      let refused: unknown;
      const ran = prompt(text, turn === 1 ? o.context : undefined, turn === 1 ? review : undefined).catch(
        (err: unknown) => {
          // a prompt the agent cannot take (an image for an agent without images) is the caller's to fix (exit 2)
          if (err instanceof AcpThreadsError && err.code === "usage") refused = err;
          return (last = { stopReason: "error", error: errorMessage(err) });
        },
      );
      // after Ctrl-C or the timeout the turn is cancelled; an agent that ignores that gets a grace, then close()
      await Promise.race([ran, afterAbort(stop.signal, CANCEL_GRACE_MS)]);
      if (refused) throw refused;
      if (supervisor) await settled(supervisor, s, stop.signal);
      summary.stopReason = last?.stopReason ?? null;
      summary.toolCalls = toolIds.size;
      if (why) break;
      const alert = supervisor?.state.alert;
      if (last?.error || (alert && alert.kind !== "stalled")) {
        summary.error = last?.error ?? alert?.message;
        summary.exitCode = EXIT.error;
        break;
      }
      if (denied.length && (last?.stopReason === "cancelled" || last?.stopReason === "refusal")) {
        summary.exitCode = EXIT.permissionDenied;
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
    supervisor?.dispose();
    inbox?.dispose();
    await session?.close(summary.exitCode === EXIT.ok ? "idle" : "failed").catch(() => undefined);
    await closeSandbox(sandbox).catch(() => undefined); // the egress proxy and its folder, once the agent is gone
    await ledger.flush().catch((err) => o.logger.warn(`edit ledger: ${errorMessage(err)}`));
    if (!o.ledger) ledger.dispose();
    // a worktree whose session never opened holds nothing: it goes (a thread that exists keeps its worktree)
    if (made && !session) await discardWorktree(made).catch(() => undefined);
    await PermissionStore.auditSettled(); // the permission decisions are in audit.jsonl when the command returns
  }
  if (why === "timeout") summary.exitCode = EXIT.timeout;
  if (why === "interrupted") summary.exitCode = EXIT.interrupted;
  return summary;
}
