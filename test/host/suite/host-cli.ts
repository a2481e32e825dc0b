// The built CLI as a user runs it in a terminal of this window (same data home), and the fake agent it runs: for
// the suites about the thread host (host-client.test.ts, thread-events.test.ts).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import { PermissionStore } from "../../../src/core/acp/permission-store";
import { hostPlace } from "../../../src/core/host/door";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import type { WirePart } from "../../../src/webview/thread/protocol";
import { api, fakeAgent, repoRoot, useFakeAgent, waitFor, workspaceRoot } from "./helpers";

export const FAKE = `${process.execPath} ${join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js")}`;

export function cli(home: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return startCli(home, args).done;
}

/** The CLI started (its process id), and its end. */
export function startCli(home: string, args: string[]) {
  let pid: number | undefined;
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    pid = execFile(
      process.execPath,
      [join(repoRoot(), "dist/cli.js"), ...args],
      {
        cwd: workspaceRoot(),
        env: { ...process.env, ACP_THREADS_HOME: home, ELECTRON_RUN_AS_NODE: "1", ACP_THREADS_HOST_IDLE_SECONDS: "2" },
      },
      (err, stdout, stderr) =>
        resolve({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    ).pid;
  });
  return { pid, done };
}

/** The host ran `prompt` on thread `id` to its turn's end, tagged as the host's, and no window session holds it. */
export async function ranInHost(id: string, prompt: RegExp): Promise<void> {
  const { hub } = await api();
  await waitFor(`the host's turn on ${prompt}`, () => {
    const records = hub.threads.read(id).records;
    const at = records.findIndex((r) => r.kind === "user_message" && prompt.test(r.text));
    return at >= 0 && records.slice(at).some((r) => r.kind === "turn_end");
  });
  assert.ok(hub.threads.read(id).metadata.tags.includes("runs:host"), "the host ran it");
  assert.ok(!hub.live.get(id)?.isOpen, "no session of this window runs it");
}

/** `acpThreads.spawn` with arguments: the fake agent with `task` in the workspace; the thread's id. */
export const spawned = (task: string, mode: "session" | "run" = "session") =>
  vscode.commands.executeCommand<string>("acpThreads.spawn", { agentId: "fake", task, mode, cwd: workspaceRoot() });

/** `acp-threads run --detach` of the fake agent with `args` (flags, then prompts): the thread's id. */
export async function detach(home: string, args: string[]): Promise<string> {
  const run = await cli(home, ["run", "--detach", "--format", "json", "--agent", FAKE, ...args]);
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { threadId: string }).threadId;
}

/**
 * A suite's hooks for acpThreads.host.runSessions host (the window's new threads start in the host): the fake
 * agent (and `agentId`, with `env`, when named) configured and the setting on for the suite, the host stopped after
 * each test, whatever it did.
 */
export function hostRunSessions(agentId?: string, env: Record<string, string> = {}): void {
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");
  before(async () => {
    await useFakeAgent();
    if (agentId) await fakeAgent(agentId, env);
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await cfg().update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
    await useFakeAgent();
  });
  afterEach(async () => {
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });
}

/**
 * A suite's hooks for the default (acpThreads.host.runSessions removed from the user's settings: `auto`, the thread
 * host on POSIX): the fake agent, and `agents` (id → env) beside it, configured; the harness's `window` pin removed
 * for the suite and put back after it; after each test the editors closed, the host stopped and the agents'
 * remembered permission rules forgotten.
 */
export function defaultRunSessions(agents: Record<string, Record<string, string>> = {}): void {
  const setting = (v: string | undefined) =>
    vscode.workspace.getConfiguration("acpThreads").update("host.runSessions", v, vscode.ConfigurationTarget.Global);
  before(async () => {
    await useFakeAgent();
    for (const [id, env] of Object.entries(agents)) await fakeAgent(id, env);
    await setting(undefined);
  });
  after(async () => {
    await setting("window");
    await useFakeAgent();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
    for (const id of Object.keys(agents)) await new PermissionStore(hub.home).revoke(id);
  });
}

/**
 * `waitFor` whose timeout also says how the window's link to the host stood and what the host said of itself (its
 * status, its log's tail): a wait for the window to hear of a host's thread that failed in CI is read from its message.
 */
export async function waitForHosted<T>(
  what: string,
  check: () => T | Promise<T>,
  ms?: number,
): Promise<NonNullable<T>> {
  try {
    return await waitFor(what, check, ms);
  } catch (err) {
    const { hub } = await api();
    const link = hub.hosted.link;
    const status = await cli(hub.home, ["host", "status", "--format", "json"]);
    const log = await readFile(hostPlace(hub.home).log, "utf8").catch((e: Error) => e.message);
    const state = { connected: link.connected, synced: link.synced, hostPid: link.hostPid, sessions: link.sessions };
    throw new Error(
      `${(err as Error).message}; the window's link ${JSON.stringify(state)}; host status (exit ${status.code}) ${status.stdout}${status.stderr}; host log's tail ${log.slice(-3000)}`,
      { cause: err },
    );
  }
}

/** How many turns of thread `id` have ended (its stored records). */
export async function turnsEnded(id: string): Promise<number> {
  const { hub } = await api();
  return hub.threads.read(id).records.filter((r) => r.kind === "turn_end").length;
}

/** The prompt box's Send of `parts` in the panel of thread `id`. */
export async function sendIn(id: string, parts: WirePart[]): Promise<void> {
  const { hub } = await api();
  await hub.composer.handle({ threadId: id, post: () => undefined }, { type: "send", parts });
}

/** A new-thread panel's Send of `parts` to `agentId` (`acpThreads.host.runSessions: host`): the id of the thread
 * the host started for it. */
export async function sendNewInHost(
  agentId: string,
  parts: WirePart[],
  mode: "session" | "run" = "session",
): Promise<string> {
  const { hub } = await api();
  const before = new Set(hub.hosted.startedHere);
  const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
  await waitFor("the new thread's panel", () => hub.panels.get(draft));
  const posted: unknown[] = [];
  await hub.composer.handle(
    { threadId: draft, post: (m) => void posted.push(m) },
    { type: "send", parts, agentId, mode },
  );
  // the thread the host started for this window (its reply's id: a store listing that caught up late with an
  // earlier test's thread must not pass for it), then found in the store (a quick run may have ended before its row
  // is looked at)
  const id = await waitFor("the thread in the host", () =>
    [...hub.hosted.startedHere].find((i) => !before.has(i) && hub.threads.ids().includes(i)),
  ).catch((err: Error) => {
    throw new Error(`${err.message}; the panel got ${JSON.stringify(posted).slice(0, 600)}`);
  });
  assert.notEqual(id, draft, "the host's thread (the new-thread panel closed)");
  assert.equal(hub.live.get(id), undefined, "no session of it in this window");
  assert.ok(hub.threads.read(id).metadata.tags.includes("runs:host"), "the host ran it");
  return id;
}

/** The Sessions view's row of a thread the thread host runs (undefined: not listed). */
export async function hostedNode(threadId: string): Promise<Extract<SessionNode, { type: "hosted" }> | undefined> {
  const { hub } = await api();
  const groups = await hub.tree.getChildren();
  return groups
    .flatMap((g) => (g.type === "group" ? g.children : [g]))
    .find((n): n is Extract<SessionNode, { type: "hosted" }> => n.type === "hosted" && n.threadId === threadId);
}
