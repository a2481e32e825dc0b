/** Doctor, protocol log, permissions, cancel. */
import * as vscode from "vscode";
import { probeLines } from "../../core/acp/probe-lines";
import type { DoctorEntry } from "../../core/acp/runtime";
import { agentFacts, offerAgentActions, type AgentAction } from "../agent-actions";
import { agentsWithDoctor, type AgentChoice } from "../agents";
import type { Hub } from "../hub";
import { ownRunOf } from "../host/own-rows";
import { nodeRuntimeOptions } from "../node-runtime";
import type { SessionNode } from "../sessions-tree";
import { sandboxDoctorRow } from "../sandbox";

/** " · registry 1.2.0 · update available: 1.3.0" for an agent installed from the ACP Registry. */
const registryNote = (a: AgentChoice) =>
  a.installed
    ? ` · registry ${a.installed.version}${a.installed.update ? ` · update available: ${a.installed.update}` : ""}`
    : "";

/**
 * Doctor: each agent's status in a QuickPick; a row picked offers its actions (agent-actions.ts). Scripted
 * callers (tests) pass an agent id and an action and skip both QuickPicks; resolves with the action run.
 */
export async function doctorCommand(
  hub: Hub,
  agentId?: unknown,
  action?: AgentAction,
): Promise<AgentAction | undefined> {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  // each installed agent is started once for its `initialize` answer (in parallel, each with a timeout)
  const agents = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "ACP Threads: asking each agent what it supports…" },
    () =>
      agentsWithDoctor(hub.config, cwd, hub.registry, {
        engine: hub.engine,
        probe: true,
        node: nodeRuntimeOptions(hub.config, hub.home),
      }),
  );
  const log = hub.log.logger;
  log.info("doctor:");
  for (const a of agents) {
    const d = a.doctor;
    log.info(
      `  ${a.spec.id.padEnd(10)} ${d?.available ? "ok     " : "MISSING"} ${d?.resolvedPath ?? a.spec.command} ${d?.version ?? ""} ${d?.problem ?? ""}${registryNote(a)}`,
    );
    if (d?.node) log.info(`  ${"".padEnd(10)} node     ${d.node.version} (${d.node.source}: ${d.node.path})`);
    for (const line of d?.probe ? probeLines(d.probe) : []) log.info(`  ${"".padEnd(10)} ${line}`);
  }
  for (const bad of hub.config.invalidAgents) log.warn(`  acpThreads.agents.${bad}: needs a "command" string`);
  const sandbox = sandboxDoctorRow(
    await hub.engine.call({ op: "sandbox.availability" }),
    hub.config.sandbox,
    hub.config.sandboxAllowedHosts,
  );
  log.info(`  ${"sandbox".padEnd(10)} ${sandbox.description}: ${sandbox.detail}`);
  type Row = vscode.QuickPickItem & { agent?: AgentChoice };
  const rows: Row[] = [
    ...agents.map((a) => ({
      label: `${a.doctor?.available && !a.doctor.problem && a.doctor.probe?.ok !== false ? "$(pass)" : "$(error)"} ${a.spec.displayName}`,
      description:
        (a.doctor?.available ? (a.doctor.version ?? a.doctor.resolvedPath ?? "") : "missing") + registryNote(a),
      detail: doctorDetail(a.doctor) ?? a.spec.command,
      agent: a,
    })),
    { label: "", kind: vscode.QuickPickItemKind.Separator },
    sandbox, // picked: its settings
  ];
  const row =
    typeof agentId === "string"
      ? { agent: agents.find((a) => a.spec.id === agentId) }
      : await vscode.window.showQuickPick(rows, {
          title: "ACP Threads: Doctor",
          placeHolder: "Agents and their status (details in the ACP Threads output); Enter: what to do with one",
        });
  if (row === sandbox) void vscode.commands.executeCommand("workbench.action.openSettings", "acpThreads.sandbox");
  const picked = row?.agent;
  if (!picked) return undefined;
  const probe = picked.doctor?.probe;
  const lists = !!probe?.loadSession && !!probe.sessionCapabilities?.includes("list");
  const facts = await agentFacts(
    hub,
    picked.spec.id,
    picked.spec.displayName,
    picked.doctor?.available !== false,
    lists,
  );
  return await offerAgentActions(hub, facts, action);
}

/**
 * Lists the remembered rules ("edit /ws/a.txt", "execute npm test") to pick from and forgets the picked ones.
 * Every window and CLI process reads the one rules file, so running agents ask again at once.
 */
/** One line: the problem, else what the agent advertised (session and prompt capabilities, auth kinds). */
function doctorDetail(d: DoctorEntry | undefined): string | undefined {
  if (!d) return undefined;
  if (d.problem || !d.probe) return d.problem ?? d.resolvedPath ?? undefined;
  const p = d.probe;
  if (!p.ok) return `initialize failed: ${p.error}`;
  const session = [...(p.loadSession ? ["load"] : []), ...(p.sessionCapabilities ?? [])].join(", ") || "none";
  const prompt = (p.promptCapabilities ?? []).join(", ") || "text only";
  const auth = (p.authMethods ?? []).map((m) => `${m.name} (${m.kind})`).join(", ") || "none";
  return `sessions: ${session} · prompt: ${prompt} · auth: ${auth}`;
}

/**
 * The Sessions view's Cancel: the running turn of a live row (its window session's, else the window's own thread
 * host's run of it: the tree draws both alike), or of a thread the thread host runs.
 */
export async function cancelTurn(hub: Hub, node?: SessionNode): Promise<void> {
  if (node?.type === "live" && !ownRunOf(hub, node.threadId)) await hub.live.get(node.threadId)?.cancel();
  else if (node?.type === "live" || node?.type === "hosted") await hub.hosted.cancel(node.threadId);
}

/**
 * Ends a live session (the tree item's, else the focused panel's, else one picked): the agent is stopped, the
 * thread released (another window or `acp-threads run` can take it over) and listed with the past threads. A
 * thread the thread host runs is stopped there (its run is kept open between prompts); one whose run there failed
 * to start leaves the list, as a window session's failed start does.
 */
export async function stopSession(hub: Hub, node?: SessionNode | string): Promise<void> {
  const open = hub.live.all().filter((s) => s.isOpen);
  const focused = hub.panels.lastActive();
  let threadId =
    typeof node === "string"
      ? node
      : node?.type === "live" || node?.type === "hosted"
        ? node.threadId
        : (open.find((s) => s.threadId === focused)?.threadId ??
          (focused && hub.hosted.holds(focused) ? focused : undefined));
  // a live row the window's own host runs, or a thread a host holds that no session here runs: the host stops it
  if (threadId && (ownRunOf(hub, threadId) || (!hub.live.get(threadId) && hub.hosted.holds(threadId))))
    return await hub.hosted.stop(threadId);
  // a thread whose run in the host failed to start leaves the list (its panel shows the stored thread, if any)
  if (threadId && !hub.live.get(threadId) && hub.hosted.failed.delete(threadId)) return hub.panels.refresh(threadId);
  if (!threadId) {
    if (!open.length) return void vscode.window.showInformationMessage("No agent session is running in this window.");
    const picked = await vscode.window.showQuickPick(
      open.map((s) => ({ label: s.title, description: `${s.agent.displayName} · ${s.status}`, threadId: s.threadId })),
      { title: "Stop session", placeHolder: "Which session? Its agent is stopped and the thread released." },
    );
    threadId = picked?.threadId;
  }
  if (!threadId || !(await hub.live.stop(threadId))) return;
  hub.panels.refresh(threadId); // an open panel now shows the stored thread
}
