/**
 * "ACP Threads: Best of N…" (#25): one prompt to several agents (or N runs of one), each candidate a live
 * session in its own worktree of the same base (the core's runBestOf), an optional check command run in each,
 * and the compare view following them. Scripted callers pass `{agents, runs?, prompt, check?, cwd?, sandbox?}`.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { bestOfBase, runBestOf, type BestOfProgress } from "../../core/worktree/best-of";
import {
  expandCandidates,
  leaderOf,
  rankCandidates,
  type CandidateRun,
  type CandidateSpec,
  type CandidateSummary,
} from "../../core/worktree/candidates";
import type { CreatedWorktree } from "../../core/worktree/create";
import { sandboxAvailability } from "../../core/sandbox/tool";
import { configuredAgents } from "../agents";
import { handoffAgents, type HandoffAgent } from "../handoff/agent-pick";
import type { Hub } from "../hub";
import { assertTrusted } from "../trust";
import type { CandidateRow } from "../../webview/compare/protocol";
import { CompareView } from "./compare-view";

export interface BestOfArgs {
  agents: string[];
  runs?: number;
  prompt: string;
  check?: string;
  cwd?: string;
  /** Run the candidates in the OS sandbox (#34); undefined: the settings (sandboxed where the machine can). */
  sandbox?: boolean;
  /** Scripted callers in this extension host (tests): the compare view as soon as it opens. */
  onView?: (view: CompareView) => void;
}

/** The wizard's agent rows: the ones that can start first, the others marked with why; equal names told apart. */
export function bestOfAgentItems(agents: HandoffAgent[]): BestOfAgentItem[] {
  const named = new Map<string, number>();
  for (const a of agents) named.set(a.spec.displayName, (named.get(a.spec.displayName) ?? 0) + 1);
  const name = (a: HandoffAgent) =>
    named.get(a.spec.displayName)! > 1 ? `${a.spec.displayName} (${a.spec.id})` : a.spec.displayName;
  const ordered = [...agents.filter((a) => a.available), ...agents.filter((a) => !a.available)];
  return ordered.map((a) => ({
    label: a.available ? name(a) : `$(circle-slash) ${name(a)}`,
    description: a.available ? (a.detail ?? a.spec.id) : "cannot start here",
    ...(a.available ? {} : { detail: a.hint ?? `'${a.spec.command}' not found` }),
    id: a.spec.id,
    available: a.available,
  }));
}

interface BestOfAgentItem extends vscode.QuickPickItem {
  id: string;
  available: boolean;
}

async function ask(hub: Hub, cwd: string): Promise<BestOfArgs | undefined> {
  // every step keeps its input when the focus moves (a webview taking the focus back closed it: stop 28's CI)
  const picked = await vscode.window.showQuickPick(bestOfAgentItems(handoffAgents(hub.config, cwd, hub.registry)), {
    canPickMany: true,
    title: "Best of N: which agents?",
    placeHolder: "Pick one or more agents (one agent picked runs several times)",
    ignoreFocusOut: true,
  });
  if (!picked?.length) return undefined;
  const blocked = picked.filter((p) => !p.available);
  if (blocked.length) {
    void vscode.window.showWarningMessage(
      `${blocked.map((b) => `${b.label.replace("$(circle-slash) ", "")}: ${b.detail}`).join("; ")} — cannot start here, left out.`,
    );
    picked.splice(0, picked.length, ...picked.filter((p) => p.available));
    if (!picked.length) return undefined;
  }
  const runsText = await vscode.window.showInputBox({
    title: "Best of N: runs per agent",
    prompt: "How many candidates each picked agent runs",
    value: picked.length === 1 ? "2" : "1",
    validateInput: (v) => (/^[1-9]$/.test(v.trim()) ? undefined : "a number from 1 to 9"),
    ignoreFocusOut: true,
  });
  if (!runsText) return undefined;
  const prompt = await vscode.window.showInputBox({
    title: "Best of N: the task",
    prompt: "The task every candidate gets",
    ignoreFocusOut: true,
  });
  if (!prompt?.trim()) return undefined;
  const check = await vscode.window.showInputBox({
    title: "Best of N: check command (optional)",
    prompt: "A check command run in each worktree when its agent is done (empty: none)",
    placeHolder: "npm test",
    ignoreFocusOut: true,
  });
  if (check === undefined) return undefined;
  const sandbox = await askSandbox(hub);
  if (sandbox === undefined) return undefined;
  return {
    agents: picked.map((p) => p.id),
    runs: Number(runsText.trim()),
    prompt,
    check: check.trim() || undefined,
    sandbox,
  };
}

/** "Sandbox the candidates?", the settings' answer first (the unattended default, or `acpThreads.sandbox.mode`). */
async function askSandbox(hub: Hub): Promise<boolean | undefined> {
  const here = await sandboxAvailability();
  const byDefault = here.available && (hub.config.sandbox === "workspace-write" || hub.config.sandboxUnattended);
  const yes = {
    label: "Sandboxed",
    description: here.available ? "writes only in its worktree; secrets unreadable" : "cannot sandbox here",
    ...(here.available ? {} : { detail: here.problem }),
    on: true,
  };
  const no = { label: "Not sandboxed", description: "the agents run as you", on: false };
  const picked = await vscode.window.showQuickPick(byDefault ? [yes, no] : [no, yes], {
    title: "Best of N: sandbox the candidates?",
    placeHolder: "Run each candidate in the OS sandbox (acpThreads.sandbox.mode)",
    ignoreFocusOut: true,
  });
  return picked?.on;
}

function rowOf(spec: CandidateSpec): CandidateRow {
  return {
    label: spec.label,
    agent: spec.agentId,
    threadId: null,
    status: "waiting",
    answer: "",
    files: [],
    added: 0,
    removed: 0,
    tokens: null,
    costs: [],
    durationMs: null,
  };
}

function fill(row: CandidateRow, s: CandidateSummary): void {
  Object.assign(row, {
    threadId: s.threadId,
    status: s.status,
    answer: s.answer,
    files: s.files.map((f) => ({ path: f.path, added: f.added, removed: f.removed })),
    added: s.added,
    removed: s.removed,
    tokens: s.usage?.totalTokens ?? null,
    costs: s.costs,
    durationMs: s.durationMs,
    ...(s.check
      ? {
          check: {
            command: s.check.command,
            exitCode: s.check.exitCode,
            ...(s.check.timedOut ? { timedOut: true } : {}),
            outputTail: s.check.outputTail.slice(-2000),
          },
        }
      : {}),
    ...(s.error ? { error: s.error } : {}),
  });
}

/**
 * Shows the permission request a candidate waits on in its card ("waits for you", answerable there) and adds up
 * the time it waited, which is not the agent's duration. `stop` ends the following and returns the milliseconds.
 */
function followAsks(hub: Hub, view: CompareView, row: CandidateRow): { stop(): number } {
  let waitedMs = 0;
  let since: number | undefined;
  const sync = () => {
    const pending = row.threadId ? hub.broker.pendingFor(row.threadId)[0] : undefined;
    if (pending && since === undefined) since = performance.now();
    if (!pending && since !== undefined) {
      waitedMs += performance.now() - since;
      since = undefined;
    }
    const asks = pending && { requestId: pending.requestId, title: pending.title, options: pending.options };
    if (asks?.requestId === row.asks?.requestId) return;
    row.asks = asks;
    if (!asks) delete row.asks;
    if (row.status === "working" || row.status === "asking") row.status = asks ? "asking" : "working";
    view.update();
  };
  const sub = hub.broker.onDidChange((threadId) => threadId === row.threadId && sync());
  sync();
  return {
    stop: () => {
      sub.dispose();
      if (since !== undefined) waitedMs += performance.now() - since;
      since = undefined;
      if (row.asks) delete row.asks;
      return Math.round(waitedMs);
    },
  };
}

/** Runs the best of N; resolves with the ranked summaries (the view stays open for the user's choice). */
export async function bestOfCommand(
  hub: Hub,
  args?: BestOfArgs,
): Promise<{ view: CompareView; summaries: CandidateSummary[] } | undefined> {
  assertTrusted();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const a = args && Array.isArray(args.agents) ? args : await ask(hub, folder);
  if (!a) return undefined;
  const cwd = a.cwd ?? folder;
  await bestOfBase(cwd); // a clear error before anything starts outside git
  const known = configuredAgents(hub.config, hub.registry);
  for (const id of a.agents)
    if (!known.some((k) => k.spec.id === id)) throw new Error(`No agent "${id}" is configured.`);
  const specs = expandCandidates(a.agents, a.runs ?? 1);
  const view = new CompareView(hub, a.prompt, a.check, specs.map(rowOf));
  if (typeof a.onView === "function") a.onView(view);
  const stop = new AbortController();
  view.panel.onDidDispose(() => stop.abort());

  const runCandidate = async (spec: CandidateSpec, wt: CreatedWorktree, signal: AbortSignal): Promise<CandidateRun> => {
    const agent = known.find((k) => k.spec.id === spec.agentId)!.spec;
    const s = hub.spawnSession({
      agent,
      task: a.prompt,
      mode: "session",
      cwd: wt.cwd,
      worktree: wt.ref,
      unattended: true,
      ...(a.sandbox !== undefined ? { sandbox: a.sandbox } : {}),
      showPanel: false,
      title: `${spec.label}: ${a.prompt}`,
    });
    const row = view.row(spec.label)!;
    row.threadId = s.threadId;
    view.update();
    const waited = followAsks(hub, view, row);
    await new Promise<void>((resolve) => {
      const sub = s.onTurnDone(() => {
        sub.dispose();
        resolve();
      });
      signal.addEventListener("abort", () => void s.cancel().catch(() => undefined), { once: true });
    });
    return {
      threadId: s.thread ? s.threadId : null,
      ok: s.status !== "failed",
      waitedMs: waited.stop(),
      ...(s.status === "failed" && s.statusDetail ? { error: s.statusDetail } : {}),
    };
  };

  const onProgress = (e: BestOfProgress) => {
    const row = view.row(e.type === "finished" ? e.summary.label : e.spec.label);
    if (!row) return;
    if (e.type === "started") row.status = row.asks ? "asking" : "working";
    else if (e.type === "check_started") row.status = "checking";
    else if (e.type === "agent_done") row.durationMs = Math.round(e.durationMs);
    else if (e.type === "finished") fill(row, e.summary);
    view.update();
    hub.tree.refresh();
  };

  let summaries: CandidateSummary[];
  try {
    summaries = await runBestOf({
      cwd,
      candidates: specs,
      runCandidate,
      ...(a.check ? { check: a.check } : {}),
      signal: stop.signal,
      readThread: (id) => hub.threads.read(id).records,
      onProgress,
    });
  } catch (err) {
    view.update({ running: false });
    throw new Error(`Best of N stopped: ${errorMessage(err)}`, { cause: err });
  }
  const ranked = rankCandidates(summaries);
  const leader = leaderOf(ranked);
  view.update({ running: false, ...(leader ? { leader } : {}) });
  return { view, summaries: ranked };
}
