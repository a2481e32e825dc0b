/**
 * "Hand off to another agent" (#13, #27 item 9): pick an agent that can start, edit the brief in an editor that
 * carries its own Send (brief-editor.ts), then a new thread titled "Handoff: <source title>" starts with the brief
 * as its first prompt, and the two threads link to each other. With `acpThreads.host.runSessions: host` the new
 * thread starts in the thread host (resolves with its id instead of a window's session).
 */
import * as vscode from "vscode";
import { buildHandoffBrief, handoffTitle, renderHandoffBrief } from "../../core/handoff/brief";
import { errorMessage } from "../../core/errors";
import { notConfigured } from "../agents";
import type { Hub } from "../hub";
import type { LiveSession } from "../live-session";
import { threadOf } from "../commands/ops";
import { startsInHost, startThreadInHost } from "../host/host-entry";
import { listInSource } from "../host/hosted-rename";
import { handoffAgents, pickHandoffAgent } from "./agent-pick";
import { briefEditors } from "./brief-editor";

export interface HandoffOptions {
  /** Skip the pickers (tests, scripts): the agent id, and the brief to send as is. */
  agentId?: string;
  brief?: string;
}

/** Resolves once the live session's thread is stored (its id), or undefined when it failed to start. */
function storedThread(s: LiveSession): Promise<string | undefined> {
  const stored = () => (s.thread ? s.threadId : undefined);
  if (s.thread || !s.isOpen) return Promise.resolve(stored());
  return new Promise((resolve) => {
    const sub = s.onStatus(() => {
      if (!s.thread && s.isOpen && s.status === "starting") return;
      sub.dispose();
      resolve(stored());
    });
  });
}

export async function handoffCommand(
  hub: Hub,
  target?: unknown,
  opts: HandoffOptions = {},
): Promise<LiveSession | string | undefined> {
  const fromId = threadOf(target);
  if (!fromId) throw new Error("Choose a thread to hand off (in the Sessions view, or from its panel).");
  await hub.live.get(fromId)?.flushed(); // its last records may still be on their way to the file
  const { metadata, records } = await hub.threads.readExisting(fromId);
  const agents = await handoffAgents(hub.config, metadata.cwd, hub.registry, hub.pathAnswers);
  let agent = agents.find((a) => a.spec.id === opts.agentId)?.spec;
  if (!agent) {
    if (opts.agentId) throw notConfigured(opts.agentId);
    agent = await pickHandoffAgent(agents, { agentId: metadata.agent.id, title: metadata.title ?? "thread" });
    if (!agent) return undefined;
  }
  const built = buildHandoffBrief(metadata, records, await hub.ledger.ledger.readAsync(fromId));
  let brief = opts.brief ?? renderHandoffBrief(built);
  if (opts.brief === undefined) {
    const { doc, outcome } = await briefEditors.edit(brief, agent.displayName);
    // Send lives in the brief's editor (CodeLens, title bar); the notification only points there, and goes away
    // with the brief (sent, cancelled or closed) instead of leaving a dead Send in the notification centre
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Edit the handoff brief for ${agent.displayName}, then Send it (above the brief or in the editor's title bar).`,
        cancellable: true,
      },
      (_progress, token) => {
        token.onCancellationRequested(() => briefEditors.cancel(doc.uri).catch(() => undefined));
        return outcome;
      },
    );
    const o = await outcome;
    if (!o.sent) return undefined;
    brief = o.text;
  }
  if (!brief.trim()) return undefined;
  const title = handoffTitle(metadata, built.goal);
  if (startsInHost(hub, metadata.cwd, [{ type: "text", text: brief }])) {
    const toId = await startThreadInHost(hub, {
      agent,
      cwd: metadata.cwd,
      parts: [{ type: "text", text: brief }],
      title,
      handoffFrom: fromId,
    });
    await linked(hub, fromId, toId);
    return toId;
  }
  const session = hub.spawnSession({
    agent,
    task: brief,
    title,
    mode: "session",
    cwd: metadata.cwd,
    origin: { kind: "handoff", source: fromId },
  });
  const toId = await storedThread(session);
  if (toId) await linked(hub, fromId, toId);
  return session;
}

/**
 * The old thread lists the new one (through this window's writer of it, if it is still open here, or the thread
 * host's, when its run holds it).
 */
async function linked(hub: Hub, fromId: string, toId: string): Promise<void> {
  const origin = hub.live.get(fromId);
  const holder = origin?.isOpen ? origin.thread?.live : undefined; // a closed one cannot patch any more
  const tried = await hub.engine
    .call({ op: "handoff.link", from: fromId, to: toId, write: !holder })
    .then((r) => {
      if (r.patch) holder?.patch(r.patch); // the engine says the patch, this window's writer writes it
      return r.error;
    })
    .catch((err: unknown) => errorMessage(err));
  const failed = await listInSource(hub, fromId, { handedOffTo: [toId] }, tried);
  if (failed) hub.log.logger.warn(`handoff: ${fromId} could not list ${toId} yet: ${failed}`);
  hub.ops.refresh(fromId);
  hub.ops.refresh(toId);
  hub.tree.refresh();
}
