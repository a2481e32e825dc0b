/**
 * "ACP Threads: Best of N…" (#25): one prompt to several agents (or N runs of one), each candidate a live
 * session in its own worktree of the same base (the core's runBestOf), an optional check command run in each,
 * and the compare view following them. Scripted callers pass `{agents, runs?, prompt, check?, cwd?, sandbox?}`.
 * With `acpThreads.host.runSessions: host` the candidates run in the thread host (hosted-candidate.ts), so a window
 * reload does not end them; the worktrees are made here either way. A hosted Best of N is recorded in the data home
 * (core/worktree/best-of-record.ts), so a reloaded window reopens its compare view and picks it up (best-of-resume.ts).
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { background } from "../../core/util/unexpected";
import { bestOfBase, runBestOf } from "../../core/worktree/best-of";
import { newBestOfRecord, ownerHere } from "../../core/worktree/best-of-record";
import {
  expandCandidates,
  type CandidateRun,
  type CandidateSpec,
  type CandidateSummary,
} from "../../core/worktree/ranking";
import type { CreatedWorktree } from "../../core/worktree/create";
import type { PromptPart } from "../../core/model/context";
import { configuredAgents, notConfigured } from "../agents";
import type { LiveSession } from "../live-session";
import type { Hub } from "../hub";
import { assertTrusted } from "../trust";
import { CompareView } from "./compare-view";
import { askBestOf } from "./best-of-wizard";
import { followAsks } from "./candidate-asks";
import { followBestOf, rowOf } from "./best-of-follow";
import { runHostedCandidate } from "./hosted-candidate";
import { contextInside } from "../host/host-run-spec";
import { serveOffer } from "../host/serve-fs";
import { repositoryOfFolders } from "../../core/host/run-roots";
import type { PanelTask } from "../composer/best-of-send";

export { bestOfAgentItems } from "./best-of-wizard";

export interface BestOfArgs {
  agents: string[];
  runs?: number;
  prompt: string;
  /** The prompt with its context (a panel's `@` chips, images), built for each candidate's agent; `prompt` is its text. */
  parts?: PromptPart[];
  check?: string;
  cwd?: string;
  /** Run the candidates in the OS sandbox (#34); undefined: the settings (sandboxed where the machine can). */
  sandbox?: boolean;
  /** Scripted callers in this extension host (tests): the compare view as soon as it opens. */
  onView?: (view: CompareView) => void;
}

/**
 * "Best of N…" (#25, #37). Scripted callers pass `{agents, runs?, prompt, check?, cwd?, sandbox?}` and get the
 * ranked summaries; `{inputBox: true}` asks every step, the task too, in the one-line boxes (a keybinding with
 * no panel). Otherwise a new-thread panel opens with "best of N" checked (`cwd`: the repository it runs in,
 * else the panel's folder): its Send asks the other steps (bestOfFromPanel); returns the panel's id.
 */
export async function bestOfEntry(
  hub: Hub,
  args?: Partial<BestOfArgs> & { inputBox?: boolean },
): Promise<BestOfResult | string | undefined> {
  assertTrusted();
  if (args && Array.isArray(args.agents)) return await bestOfCommand(hub, args as BestOfArgs);
  if (args?.inputBox === true) {
    const cwd = args.cwd ?? workspaceFolder();
    const a = await askBestOf(hub, cwd, { askTask: true, askSandbox: true });
    return a && (await bestOfCommand(hub, { ...a, prompt: a.prompt!, cwd }));
  }
  return hub.composer.openDraft([], { bestOf: typeof args?.cwd === "string" ? { cwd: args.cwd } : {} });
}

/**
 * A panel's Send with "best of N" checked: the wizard's other steps, then the candidates start (not awaited: the
 * compare view follows them). False when the person closed a step (the prompt goes back into the box).
 */
export async function bestOfFromPanel(hub: Hub, task: PanelTask): Promise<boolean> {
  assertTrusted();
  await bestOfBase(task.cwd); // outside git: said in the panel before any step
  const a = await askBestOf(hub, task.cwd, { picked: task.agentId, askTask: false, askSandbox: false });
  if (!a) return false;
  background(
    bestOfCommand(hub, {
      ...a,
      prompt: task.text,
      parts: task.parts,
      cwd: task.cwd,
      ...(task.sandbox !== undefined ? { sandbox: task.sandbox } : {}),
    }),
    "Best of N",
    (err) => void vscode.window.showErrorMessage(errorMessage(err)),
  );
  return true;
}

export type BestOfResult = { view: CompareView; summaries: CandidateSummary[] };

const workspaceFolder = () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();

/** Runs the best of N; resolves with the ranked summaries (the view stays open for the user's choice). */
export async function bestOfCommand(hub: Hub, a: BestOfArgs): Promise<BestOfResult> {
  assertTrusted();
  const cwd = a.cwd ?? workspaceFolder();
  const { repo, base } = await bestOfBase(cwd); // a clear error before anything starts outside git
  // the candidates run in the thread host when the setting says so, unless the host would refuse them: the
  // repository is not one of this window's folders', or the prompt's context names a file outside it (the window's
  // own sessions take both)
  const inHost =
    hub.config.hostRunSessions === "host" &&
    contextInside(a.parts ?? [], [repo]) &&
    (await repositoryOfFolders(repo, serveOffer()?.roots ?? []));
  const known = await configuredAgents(hub.config, hub.registry);
  for (const id of a.agents) if (!known.some((k) => k.spec.id === id)) throw notConfigured(id);
  const specs = expandCandidates(a.agents, a.runs ?? 1);
  // a hosted Best of N is recorded, so a reloaded window picks it up (its view, its checks; best-of-resume.ts)
  const recordId = inHost ? await recordBestOf(hub, { ...a, cwd, repo, base, candidates: specs }) : undefined;
  const view = new CompareView(hub, a.prompt, a.check, specs.map(rowOf), recordId ? { recordId } : {});
  if (typeof a.onView === "function") a.onView(view);
  const f = followBestOf(hub, view, recordId);

  const runCandidate = async (spec: CandidateSpec, wt: CreatedWorktree, signal: AbortSignal): Promise<CandidateRun> => {
    const agent = known.find((k) => k.spec.id === spec.agentId)!.spec;
    const title = `${spec.label}: ${a.prompt}`;
    if (inHost)
      return runHostedCandidate(
        hub,
        view,
        spec.label,
        {
          agent,
          worktree: { ref: wt.ref, cwd: wt.cwd },
          parts: a.parts ?? [{ type: "text", text: a.prompt }],
          ...(a.sandbox !== undefined ? { sandbox: a.sandbox } : {}),
          title,
        },
        signal,
        (threadId) => f.onThread(spec.label, threadId),
      );
    const s = hub.spawnSession({
      agent,
      task: a.parts ? "" : a.prompt, // a panel's prompt goes once the session is open, built for this agent
      mode: "session",
      cwd: wt.cwd,
      worktree: wt.ref,
      unattended: true,
      ...(a.sandbox !== undefined ? { sandbox: a.sandbox } : {}),
      showPanel: false,
      title,
    });
    const row = view.row(spec.label)!;
    row.threadId = s.threadId;
    view.update();
    const waited = followAsks(hub, view, row);
    signal.addEventListener("abort", () => void s.cancel().catch(() => undefined), { once: true });
    await turnDone(s);
    const refused = a.parts && s.isOpen && !signal.aborted ? await promptParts(hub, s, a.parts) : undefined;
    const error = refused ?? (s.status === "failed" ? s.statusDetail : undefined);
    return {
      threadId: s.thread ? s.threadId : null,
      ok: !refused && s.status !== "failed",
      waitedMs: waited.stop(),
      ...(error ? { error } : {}),
    };
  };

  let summaries: CandidateSummary[];
  try {
    summaries = await runBestOf({
      cwd,
      candidates: specs,
      runCandidate,
      ...(a.check ? { check: a.check } : {}),
      signal: f.signal,
      readThread: async (id) => (await hub.threads.readExisting(id)).records,
      onProgress: f.onProgress,
    });
  } catch (err) {
    throw f.failed(err);
  }
  return { view, summaries: f.finish(summaries) };
}

/** Writes a hosted Best of N's record; undefined (said to the user) when the record file cannot take it. */
async function recordBestOf(hub: Hub, o: Parameters<typeof newBestOfRecord>[0]): Promise<string | undefined> {
  const record = newBestOfRecord({ ...o, owner: ownerHere() });
  try {
    await hub.bestOf.store.add(record);
    return record.id;
  } catch (err) {
    void vscode.window.showWarningMessage(
      `Best of N runs, but a window reload will not bring its compare view back: ${errorMessage(err)}`,
    );
    return undefined;
  }
}

function turnDone(s: LiveSession): Promise<void> {
  return new Promise<void>((resolve) => {
    const sub = s.onTurnDone(() => {
      sub.dispose();
      resolve();
    });
  });
}

/** Sends a panel's prompt with its context, as the prompt box would; the reason when this agent cannot take it. */
async function promptParts(hub: Hub, s: LiveSession, parts: PromptPart[]): Promise<string | undefined> {
  try {
    await s.promptBuilt(await s.preparePrompt(parts, hub.composer.sources()));
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}
