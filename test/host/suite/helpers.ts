/** Shared helpers for the in-host suite (imported by each *.test.ts; bundled into each). */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { ThreadStore } from "../../../src/core/store/thread-store";
import type { AcpThreadsApi } from "../../../src/vscode/extension";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import type { WirePart } from "../../../src/webview/thread/protocol";
import { sessionOf, type TestSession } from "./session-of";

export const EXTENSION_ID = "acp-threads.acp-threads";

/** A Sessions row as a person hovering it sees it: VS Code asks `resolveTreeItem` for the tooltip getTreeItem leaves unset. */
export async function hoveredRow(node: SessionNode): Promise<vscode.TreeItem> {
  const { hub } = await api();
  return hub.tree.resolveTreeItem(hub.tree.getTreeItem(node), node);
}

/** A tooltip's text (a MarkdownString's source). */
export const tipText = (t: string | vscode.MarkdownString | undefined) =>
  typeof t === "string" ? t : (t?.value ?? "");

export async function api(): Promise<AcpThreadsApi> {
  const ext = vscode.extensions.getExtension<AcpThreadsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const a = await ext.activate();
  if (!a) throw new Error("activate() returned nothing (activation failed)");
  return a;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it returns a truthy value; fails with `what` after `ms`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error("the host tests need a workspace folder");
  return f.uri.fsPath;
}

/** Reads the active terminal's screen through select-all + copy + clipboard (works in the web workbench). */
export async function terminalScreen(t: vscode.Terminal): Promise<string> {
  t.show();
  // the commands below read the active terminal's screen: wait a while for that to be `t` (with many terminals open,
  // VS Code 1.96 could still show another one, and its screen, holding the same lines, passed for this one's). Not
  // an assertion: a terminal whose process has ended may never be reported active (host-exec-gone's reads check the
  // screen they get by its banner).
  for (const deadline = Date.now() + 5_000; vscode.window.activeTerminal !== t && Date.now() < deadline;)
    await sleep(50);
  await sleep(150);
  await vscode.commands.executeCommand("workbench.action.terminal.selectAll");
  await vscode.commands.executeCommand("workbench.action.terminal.copySelection");
  await vscode.commands.executeCommand("workbench.action.terminal.clearSelection");
  return vscode.env.clipboard.readText();
}

export const repoRoot = () => process.env.ACP_REPO_ROOT ?? process.cwd();

/** A new thread of the fake agent in the workspace, titled `title`, straight in the extension's store (the caller appends its records and closes it). */
export function newPastThread(home: string, title: string): ReturnType<ThreadStore["create"]> {
  return new ThreadStore(home).create({
    agent: { id: "fake", name: "Fake agent", command: "/bin/true" },
    mode: "acp",
    cwd: workspaceRoot(),
    repoRoot: null,
    gitHead: null,
    title,
  });
}

/** Writes a finished thread with `n` exchanges straight into the extension's store, as an earlier run would. */
export function writePastThread(home: string, n: number, text = (i: number) => `**answer** ${i}`): string {
  const h = newPastThread(home, `past thread with ${n} exchanges`);
  const ts = new Date().toISOString();
  for (let i = 0; i < n; i++) {
    h.appendMany([
      { v: 1, ts, kind: "user_message", messageId: `u${i}`, text: `question ${i}` },
      { v: 1, ts, kind: "agent_message", messageId: `a${i}`, text: text(i) },
      { v: 1, ts, kind: "turn_end", stopReason: "end_turn" },
    ] as never);
  }
  h.close();
  return h.threadId;
}

/** The diff editor a turn's Review opened (the ledger's copy of a file before the turn, beside the file). */
export async function ledgerDiff(): Promise<vscode.TabInputTextDiff> {
  const diff = await waitFor("a diff editor on the turn", () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === "acp-threads-ledger"),
  );
  return diff.input as vscode.TabInputTextDiff;
}

/** Configures the stdio fake agent as "fake" and the default permission mode (approve-reads). */
export async function useFakeAgent(): Promise<void> {
  const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
  const cfg = vscode.workspace.getConfiguration("acpThreads");
  await cfg.update(
    "agents",
    {
      fake: { command: process.execPath, args: [fake], env: { ELECTRON_RUN_AS_NODE: "1" }, displayName: "Fake agent" },
    },
    vscode.ConfigurationTarget.Global,
  );
  await cfg.update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
}

/** The workspace's src/greet.js, and the prompt box's chip of its line 3 (the selection's text captured). */
export const greetJs = (): string => join(workspaceRoot(), "src", "greet.js");
export const greetSelection = (): WirePart => ({
  type: "context",
  ref: {
    kind: "selection",
    label: "greet.js:3",
    uri: `file://${greetJs()}#L3:3`,
    path: greetJs(),
    range: { start: 3, end: 3 },
  },
  content: "SELECTED-LINE\n",
});

/** The fake agent configured as `id` too (its env: what it advertises), beside the agents configured already. */
export async function fakeAgent(id: string, env: Record<string, string>): Promise<void> {
  const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
  const cfg = vscode.workspace.getConfiguration("acpThreads");
  const agents = { ...(cfg.get<Record<string, unknown>>("agents") ?? {}) };
  agents[id] = { command: process.execPath, args: [fake], env: { ELECTRON_RUN_AS_NODE: "1", ...env }, displayName: id };
  await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
}

/** Spawns the fake agent as a session (under either engine: session-of.ts) with `task` (may be empty) and waits until its thread is stored and it is idle. */
export async function spawnIdleFake(task = "", agentId = "fake"): Promise<TestSession> {
  const { hub } = await api();
  const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId,
    task,
    mode: "session",
    cwd: workspaceRoot(),
  });
  const s = await sessionOf(hub, id);
  await waitFor("the session to be idle", () => s.status === "idle" && s.thread);
  return s;
}

/**
 * Writes `settings` into the workspace folder's .vscode/settings.json, waits until VS Code has read them, runs
 * `fn` and removes the folder again.
 */
export async function withWorkspaceSettings(settings: Record<string, unknown>, fn: () => Promise<void>): Promise<void> {
  const dir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, ".vscode");
  mkdirSync(dir, { recursive: true });
  const changed = new Promise<void>((r) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration("acpThreads")) return;
      sub.dispose();
      r();
    });
  });
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  try {
    await changed;
    await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
