/**
 * Starting a thread of this window in the thread host (`acpThreads.host.runSessions: host`, #35), as `acp-threads
 * run --detach` does: the host is started when none runs (with `acpThreads.host.idleMinutes`), the run is sent
 * with the workspace folder as its folder, the agent as a command line with its env (held in the host's memory,
 * never written), the window's environment as the agent's base, and the editor's permission policy whose "ask"
 * verdicts come back to this window's cards (`askClients`). Resolves with the new thread's id once it is open.
 * The prompt goes as composed, with its context (host-run-spec.ts); the session gets the window's other folders,
 * its worktree when asked, and the OS sandbox the window would have given it, prepared by the host.
 *
 * The host keeps these runs open between prompts (`keepOpen`: the agent stays, as a window session's does) until
 * Stop, their agent's exit, or the host's idle time with no panel following them. A thread that belongs in the host
 * (the setting says `host`, or the host ran it: thread-tag.ts) is continued there too once the host's run ended: a
 * prompt typed in its panel starts the next run on the same thread (`run --detach --thread ID`), its agent the
 * recorded one, and the panel follows it. A run whose agent does not start (the host's `start_failed`) leaves a
 * failed thread in this window with the host's reason, as a window session's failed start does (failed-starts.ts).
 */
import { basename } from "node:path";
import { ranInHost } from "../../core/host/thread-tag";
import type * as vscode from "vscode";
import type { Engine } from "../../core/engine/requests";
import type { AgentSpec } from "../../core/model/agent";
import type { PromptPart } from "../../core/model/context";
import type { ThreadMetadata } from "../../core/model/metadata";
import type { AgentRef, WorktreeRef } from "../../core/model/records";
import { promptPartsText, type ContextSources } from "../../core/prompt/blocks";
import { newThreadId } from "../../core/store/thread-id";
import type { ThreadStore } from "../../core/store/thread-store";
import { background } from "../../core/util/unexpected";
import type { Config } from "../config";
import { otherFolders, recallMcpCommand } from "../hub-spawn";
import { offerNodeInstall } from "../node-runtime";
import type { Notifier } from "../notifier";
import type { ThreadPanels } from "../thread-panels";
import { assertTrusted } from "../trust";
import type { HostedThreads } from "./hosted-threads";
import { contextInside, detachedRun, withThreadText, type HostRunRequest } from "./host-run-spec";
import { failedThread, storedFailedThread, type FailedThread } from "./failed-starts";
import { runsInOwnHost } from "./window-engine";

export interface HostRunHub {
  context: { extensionUri: vscode.Uri };
  hosted: HostedThreads;
  config: Config;
  panels: ThreadPanels;
  broker: { notifier: Notifier };
  /** Where "Install Node runtime" installs one (a failed start's action, node-runtime.ts). */
  engine: Engine;
}

/** A new thread the composer starts: its agent, folder and prompt as composed, its worktree and sandbox choices. */
export interface HostStart {
  agent: AgentSpec;
  cwd: string;
  parts: PromptPart[];
  worktree?: boolean;
  sandbox?: boolean;
  /** Its title (a handoff's); none: its first prompt. */
  title?: string;
  /** The stored thread it continues (a handoff). */
  handoffFrom?: string;
  /** "Run once": the run ends after this prompt and takes no other (DetachedRun.once). */
  once?: boolean;
}

const policy = (hub: HostRunHub) => ({
  permission: hub.config.permissionMode,
  stallMs: hub.config.watchdogStallSeconds * 1000,
  recallMcp: recallMcpCommand(hub.context.extensionUri),
  retry: hub.config.watchdogRetry,
});

/**
 * Whether a stored thread's next session runs in a thread host: the setting, or the host ran it, or the window's
 * own host runs this window's sessions (window-engine.ts) (ACP only).
 */
export const belongsInHost = (hub: Pick<HostRunHub, "config" | "hosted">, m: ThreadMetadata | undefined): boolean =>
  m?.mode === "acp" && (hub.config.hostRunSessions === "host" || ranInHost(m) || runsInOwnHost(hub));

/**
 * Whether the host can take this prompt in a session in `cwd` (and the window's other folders): its context
 * names no file outside them (the host refuses those; the window's own session sends them).
 */
export const hostTakes = (cwd: string, parts: readonly PromptPart[]): boolean =>
  contextInside(parts, [cwd, ...otherFolders(cwd)]);

/** Starts the thread in the host with the window's settings and opens its panel (following the host): its id. */
export async function openInHost(hub: HostRunHub, r: HostStart, sources: ContextSources): Promise<string> {
  assertTrusted(); // as for a session of the window: nothing is started in an untrusted workspace
  const threadId = await startInHost(hub, {
    ...r,
    parts: await withThreadText(r.parts, sources),
    ...(r.worktree ? {} : { roots: otherFolders(r.cwd) }),
    ...policy(hub),
  }).catch((err: unknown) => {
    // its agent did not start: a failed thread of this window, as a window session's failed start (failed-starts.ts)
    const agent = { id: r.agent.id, name: r.agent.displayName };
    return keepFailed(hub, err, failedThread(newThreadId(), agent, r.cwd, r.title ?? promptPartsText(r.parts)));
  });
  hub.panels.open(threadId);
  return threadId;
}

/** A Best of N candidate (best-of-command.ts): the window made its worktree; the host runs it there. */
export interface HostCandidate {
  agent: AgentSpec;
  worktree: { ref: WorktreeRef; cwd: string };
  /** The panel's prompt as composed (its context built by the host for this agent), or the prompt's text. */
  parts: PromptPart[];
  sandbox?: boolean;
  title: string;
}

/**
 * Starts a Best of N candidate in the host with the window's settings, unattended (#36) and no panel opened (the
 * compare view follows it): its thread's id. The host checks the worktree is one of this window's repositories'.
 */
export async function startCandidateInHost(
  hub: HostRunHub,
  c: HostCandidate,
  sources: ContextSources,
): Promise<string> {
  assertTrusted();
  return startInHost(hub, {
    agent: c.agent,
    cwd: c.worktree.cwd,
    parts: await withThreadText(c.parts, sources),
    preparedWorktree: c.worktree,
    unattended: true,
    title: c.title,
    ...(c.sandbox !== undefined ? { sandbox: c.sandbox } : {}),
    ...policy(hub),
  });
}

/**
 * A prompt typed in the panel of a thread no session runs: when the thread belongs in the host, its next run
 * starts there and the panel follows it (true); false: the window resumes it as before.
 */
export async function continueInHost(
  hub: HostRunHub & { threads: ThreadStore; agents(): Promise<readonly AgentSpec[]>; sources(): ContextSources },
  threadId: string,
  parts: PromptPart[],
): Promise<boolean> {
  const read = await hub.threads.readAsync(threadId);
  const m = read?.metadata;
  if (!m || !belongsInHost(hub, m)) return false;
  if (!m.worktree && !hostTakes(m.cwd, parts)) return false;
  if (m.worktree && !contextInside(parts, [m.worktree.path])) return false;
  assertTrusted();
  // the configured agent of its id runs as configured, as a window session resumes it (run-target.ts); one found by
  // its command line gives its env to the recorded command
  const agent = recordedAgent(await hub.agents(), m.agent);
  const run = agent?.id === m.agent.id ? { agent } : agent ? { env: agent.env } : {};
  await startInHost(
    hub,
    {
      thread: threadId,
      cwd: m.cwd,
      parts: await withThreadText(parts, hub.sources()),
      ...(m.worktree ? { inWorktree: true } : { roots: otherFolders(m.cwd) }),
      ...run,
      ...policy(hub),
    },
    ranInHost(m),
  ).catch((err: unknown) => keepFailed(hub, err, storedFailedThread(threadId, m)));
  hub.panels.refresh(threadId); // drawn again, following the host's run (or why it did not start)
  return true;
}

/**
 * A run the host failed to start kept as a failed thread of this window (others rethrown), with the actions a
 * window session's failed start offers: no Node fits its agent → "Install Node runtime" (the refusal's details).
 */
function keepFailed(hub: HostRunHub, err: unknown, thread: FailedThread): string {
  const id = hub.hosted.failed.keep(err, thread);
  offerNodeInstall(err, hub.engine, hub.broker.notifier);
  return id;
}

/**
 * The configured agent a thread recorded: by id first (two entries may run the same command with other env), else
 * by its command line (the host records it resolved).
 */
function recordedAgent(agents: readonly AgentSpec[], ref: AgentRef): AgentSpec | undefined {
  const args = ref.args ?? [];
  const sameCommand = (a: AgentSpec) =>
    a.args.length === args.length &&
    a.args.every((w, i) => w === args[i]) &&
    (a.command === ref.command || basename(a.command) === basename(ref.command));
  return agents.find((a) => a.id === ref.id) ?? agents.find(sameCommand);
}

/** `socket`: in the user's thread host whatever the mode (a thread it ran continues there, thread-tag.ts). */
async function startInHost(hub: HostRunHub, r: HostRunRequest, socket = false): Promise<string> {
  const { hosted } = hub;
  // decided before the host is asked: a sandbox this machine cannot give fails here, as the window's session would
  const run = await detachedRun(hub.config, r, process.env, (m) =>
    background(hub.broker.notifier.show("info", m), "telling the sandbox default"),
  );
  // `window` mode with the switch on: the window's own host (window-engine.ts); else the user's socket host
  const link = !socket && runsInOwnHost(hub) && hosted.own ? hosted.own : hosted.link;
  const hold = link.hold(); // a connection to a host with no session yet is not let go meanwhile
  try {
    const conn = await link.connection(true);
    if (!conn) throw new Error("The thread host did not start; see the ACP Threads output.");
    const reply = await conn.request({ t: "run", run });
    if (reply.t !== "started") throw new Error("The thread host did not start the thread.");
    hosted.startedHere.add(reply.threadId);
    hosted.failed.delete(reply.threadId); // a failed start of the thread before: this run takes its place
    // its sessions list the new thread already (before a panel opens on it): the host pushed its row before replying
    return reply.threadId;
  } finally {
    hold.dispose();
  }
}
