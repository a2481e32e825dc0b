/**
 * A run on a thread, the one way the front ends run one (#35 item 7, step 1 of the session start plan): the
 * session opened through `openThread`, the prompts sent (those given, then each `nextPrompt` has), each built for
 * the agent first (a prompt it cannot take never reaches it), the watchdog's turns counted and its ladder waited
 * out, a cancel with a grace on the caller's stop or the timeout, the "leaves after a turn" decision, then the
 * session, the sandbox and the ledger closed. It reports how it ended (`RunOutcome`); what differs between the
 * front ends comes in as ports (run-options.ts). The CLI's `run` (and through it the thread host's runs, handoff
 * and Best of N) is its adapter (cli/thread-run.ts).
 */
import { DiskWorkspaceFiles } from "../acp/disk-workspace-files";
import { PermissionStore } from "../acp/permission-store";
import { policyModeNote } from "../acp/policy-mode";
import { AcpThreadsError, errorInfo, errorMessage } from "../errors";
import { EditLedger } from "../ledger/edit-ledger";
import type { ContextItem, PromptPart } from "../model/context";
import type { PermissionDecision } from "../model/events";
import type { RunOutcome } from "../model/run";
import { textWithContext } from "../prompt/blocks";
import { closeSandbox, type SandboxPlan } from "../sandbox/plan";
import type { ThreadSession } from "../session";
import { timerMs } from "../util/guards";
import type { Supervisor } from "../watchdog/supervisor";
import type { OpenedThread } from "./open-thread";
import { extraRoots, openRun } from "./run-open";
import type { FirstTurn, RunLoopOptions } from "./run-options";

export type { RunPorts, RunTarget } from "./run-options";
import { afterAbort, CANCEL_GRACE_MS, leaves, prompts, settled } from "./run-turns";

/** Files mentioned in a prompt's context are read from the disk unless a port serves them. */
const DISK = new DiskWorkspaceFiles();

/**
 * Runs the prompts on the target's thread (see above). A prompt the agent cannot take at the first turn (usage)
 * and a held thread without `whenFree` (locked) throw: they are the caller's to fix. Anything else ends the run.
 */
export async function runLoop(o: RunLoopOptions): Promise<RunOutcome> {
  const out: RunOutcome = {
    end: "ok",
    stopReason: null,
    sessionId: null,
    turns: 0,
    toolCalls: 0,
    permissions: [],
    agent: { id: "", name: null, version: null },
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
  o.signal.addEventListener("abort", onSignal, { once: true });
  let opened: OpenedThread | undefined;
  let supervisor: Supervisor | undefined;
  // what the turns change goes into the thread's edit ledger, as in the editor (`changes` / `restore` use it)
  const ledger =
    o.ledger ??
    new EditLedger({ home: o.store.home, logger: o.logger, ...(o.walkWorker ? { walkWorker: o.walkWorker } : {}) });
  let sandbox: SandboxPlan | undefined;
  try {
    const t = await o.target();
    out.agent.id = t.agent.id;
    if (t.worktree) out.worktree = t.worktree;
    // prepared before the thread opens: a machine that cannot sandbox fails here, and nothing runs
    const prepare = async () => (sandbox = await o.prepare?.(t, extraRoots(o, t)));
    const watchdog =
      o.retry !== "off" && o.stallMs > 0
        ? { stallMs: o.stallMs, mode: o.retry, prompt: (text: string) => prompt(text) }
        : undefined;
    opened = await openRun(o, t, stop.signal, ledger, prepare, watchdog);
    if (!opened) return { ...out, end: why === "timeout" ? "timeout" : "interrupted" };
    const s: ThreadSession = opened.session;
    const modeNote = policyModeNote(t.agent.displayName, s.sessionInfo?.policyMode);
    if (modeNote) o.note?.({ type: "policy_mode", text: modeNote });
    if (o.onTraffic) s.onTraffic(o.onTraffic);
    // the context's files: the thread host's attached editor's (its unsaved text) where one serves them
    const sources = o.files?.(t.cwd) ?? DISK;
    o.onSession?.(s, sources);
    if (s.recorded) {
      o.onThread?.(s.threadId);
      out.threadId = s.threadId;
    }
    out.origin = t.threadId ? s.origin : "new";
    out.sessionId = s.agentSessionId;
    let turn = 0;
    const toolIds = new Set<string>();
    const denied: PermissionDecision[] = [];
    s.onEvent((e) => {
      o.event?.(e, turn);
      if (e.type === "tool_call") toolIds.add(e.toolCall.toolCallId);
      if (e.type === "permission") {
        out.permissions.push(e.decision);
        if (e.decision.decidedBy === "policy" && !e.decision.optionKind?.startsWith("allow")) denied.push(e.decision);
      }
    });
    let last: { stopReason: string; error?: string } | undefined;
    const prompt = async (text: string, context?: ContextItem[], first?: FirstTurn, composed?: PromptPart[]) => {
      const caps = s.capabilities?.agentCapabilities.promptCapabilities;
      const parts = first
        ? first(caps, text, context)
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
      supervisor.onState((state) => o.note?.({ type: "watchdog", state }));
    }
    const firstTurn = o.firstTurn?.();
    const given = firstTurn && !o.prompts.length ? [""] : o.prompts;
    for await (const { text, context, parts } of prompts(o, given)) {
      if (stop.signal.aborted) break;
      // a turn the watchdog's ladder started while the run waited (a person's Restart, then "continue") goes first
      await s.turnEnded();
      turn++;
      out.turns = turn;
      denied.length = 0;
      let refused: unknown;
      const first = turn === 1;
      const ran = prompt(text, context, first ? firstTurn : undefined, parts).catch((err: unknown) => {
        // a prompt the agent cannot take (an image for an agent without images) is the caller's to fix;
        // a run kept open takes it as that prompt's failure and waits for the next (its first one ends it)
        if (err instanceof AcpThreadsError && err.code === "usage") refused = err;
        return (last = { stopReason: "error", error: errorMessage(err) });
      });
      // after a stop or the timeout the turn is cancelled; an agent that ignores that gets a grace, then close()
      await Promise.race([ran, afterAbort(stop.signal, CANCEL_GRACE_MS)]);
      if (refused && (first || !o.keepOpen)) throw refused;
      if (refused) o.note?.({ type: "prompt_not_sent", error: errorMessage(refused) });
      if (supervisor) await settled(supervisor, s, stop.signal);
      out.stopReason = last?.stopReason ?? null;
      out.toolCalls = toolIds.size;
      if (why) break;
      const left = leaves(o.keepOpen === true, s, supervisor, last, denied.length > 0);
      if (left) {
        out.end = left.end;
        if (left.error) out.error = left.error;
        break;
      }
    }
    out.sessionId = s.agentSessionId;
    const info = s.agentInfo;
    out.agent = { id: t.agent.id, name: info?.name ?? null, version: info?.version ?? null };
  } catch (err) {
    // a refused prompt or a held thread is the caller's to fix, not the agent's
    if (err instanceof AcpThreadsError && (err.code === "usage" || err.code === "locked")) throw err;
    out.error = errorMessage(err);
    const info = errorInfo(err);
    if (info) out.errorInfo = info;
    out.end = "error";
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener("abort", onSignal);
    await opened?.close(out.end === "ok" ? "idle" : "failed").catch(() => undefined);
    await closeSandbox(sandbox).catch(() => undefined); // the egress proxy and its folder, once the agent is gone
    await ledger.flush().catch((err) => o.logger.warn(`edit ledger: ${errorMessage(err)}`));
    if (!o.ledger) ledger.dispose();
    await PermissionStore.auditSettled(); // the permission decisions are in audit.jsonl when the run returns
  }
  if (why) out.end = why;
  return out;
}
