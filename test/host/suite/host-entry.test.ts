// Issue 35, every "start or resume a session" entry point honours acpThreads.host.runSessions, in the real
// extension host: with the setting `host`, `acpThreads.spawn` with arguments, Resume with a prompt, Rewind's
// edited prompt (the input box's path), Fork from here (the fork's first prompt), Hand off and Send review all end
// with the thread run by the thread host (its records written by the host's run, tagged as the host's), never a
// session of this window. Send review to a thread the host is running goes into the host's queue, not a resume
// (before, it threw "could not be resumed"); the others started window sessions whatever the setting said. A
// hosted agent is offered the window's recall MCP server, a command line that answers from here.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { ReviewNotes } from "../../../src/core/store/review-notes";
import { api, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach, ranInHost, spawned } from "./host-cli";

/** A thread of this window's own session (the setting still `window`), its session closed again. */
async function windowThread(task: string): Promise<string> {
  const s = await spawnIdleFake(task);
  await s.close();
  return s.threadId;
}

describe("every entry point honours acpThreads.host.runSessions (#35)", () => {
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");
  const toHost = () => cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);

  before(() => useFakeAgent());
  afterEach(async () => {
    await cfg().update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  it("acpThreads.spawn with arguments starts the thread in the host", async () => {
    const { hub } = await api();
    await toHost();
    const id = await spawned("spawned for the host");
    await ranInHost(id, /^spawned for the host$/);
    assert.equal(hub.threads.read(id).metadata.agent.id, "fake");
  });

  it("Resume with a prompt, and Rewind's edited prompt, continue in the host", async () => {
    const id = await windowThread("first in the window");
    await toHost();
    await vscode.commands.executeCommand("acpThreads.resume", id, "resumed in the host");
    await ranInHost(id, /^resumed in the host$/);

    const fork = await vscode.commands.executeCommand<string | undefined>(
      "acpThreads.rewindThread",
      id,
      1,
      "first in the window",
      { mode: "conversation", prompt: "rewound into the host" },
    );
    assert.ok(fork && fork !== id, "the rewound fork");
    await ranInHost(fork, /^rewound into the host$/);
  });

  it("Fork from here: the fork is not resumed in the window; its panel's first prompt runs in the host", async () => {
    const { hub } = await api();
    const id = await windowThread("to fork");
    await toHost();
    const fork = await vscode.commands.executeCommand<string>("acpThreads.forkThread", id, 1, "to fork");
    assert.ok(fork);
    assert.equal(hub.live.get(fork), undefined, "no window session for the fork");
    await waitFor("the fork's panel", () => hub.panels.get(fork));
    await hub.composer.handle(
      { threadId: fork, post: () => undefined },
      { type: "send", parts: [{ type: "text", text: "the fork goes on" }] },
    );
    await ranInHost(fork, /^the fork goes on$/);
  });

  it("Hand off starts the new thread in the host, linked to the old one", async () => {
    const { hub } = await api();
    const from = await windowThread("to hand off");
    await toHost();
    const to = await vscode.commands.executeCommand<unknown>("acpThreads.handoff", from, {
      agentId: "fake",
      brief: "the handoff brief",
    });
    assert.equal(typeof to, "string", "the host's thread id (no session of this window)");
    const id = to as string;
    await ranInHost(id, /^the handoff brief$/);
    const m = hub.threads.read(id).metadata;
    assert.deepEqual([m.origin?.kind, m.origin?.source], ["handoff", from]);
    assert.match(m.title ?? "", /^Handoff: /);
    await waitFor("the old thread lists it", () => hub.threads.read(from).metadata.handedOffTo.includes(id));
  });

  it("Send review to a thread the host is running goes into the host's queue, then runs there", async () => {
    const { hub } = await api();
    await cfg().update("review.comments", true, vscode.ConfigurationTarget.Global);
    try {
      const id = await detach(hub.home, ["sleep 60000"]);
      await waitFor("the host's turn running", () => hub.hosted.link.session(id)?.state === "working");
      const path = join(workspaceRoot(), "src", "greet.js");
      await new ReviewNotes(hub.threads.threadsDir).save(id, [
        {
          id: "n1",
          group: "g1",
          path,
          start: 1,
          end: 1,
          body: "review for the host",
          quote: "line",
          createdAt: new Date().toISOString(),
        },
      ]);
      const how = await vscode.commands.executeCommand("acpThreads.sendReview", id, { intro: "hosted review" });
      assert.equal(how, "queued", "behind the host's running turn");
      assert.ok(!hub.live.get(id)?.isOpen, "not resumed in this window");
      await hub.hosted.cancel(id); // the sleeping turn ends; the host runs the queued review next
      await ranInHost(id, /^hosted review\n[\s\S]*review for the host/);
    } finally {
      await cfg().update("review.comments", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("with recall offered to agents, the hosted agent gets the window's recall MCP server, whose command line answers", async () => {
    const { hub } = await api();
    await cfg().update("recall.offerToAgents", true, vscode.ConfigurationTarget.Global);
    try {
      await toHost();
      const id = await spawned("recall offered");
      await ranInHost(id, /^recall offered$/);
      const traffic = join(hub.threads.layout.trafficDir, `${id}.ndjson`);
      // the traffic file is made with the session: until then there is nothing to read (not a failure)
      const opened = await waitFor("the session/new in the traffic", () =>
        (existsSync(traffic) ? readFileSync(traffic, "utf8") : "")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { m?: { method?: string; params?: { mcpServers?: McpServer[] } } })
          .find((e) => e.m?.method === "session/new"),
      );
      const [server] = opened.m?.params?.mcpServers ?? [];
      assert.equal(server?.name, "acp-threads-recall");
      assert.equal(server.command, process.execPath, "the window's runtime (the host runs under it too)");
      assert.match(server.args[0] ?? "", /[\\/]dist[\\/]cli\.js$/);
      assert.deepEqual(
        server.env.map((e) => e.name),
        ["ACP_THREADS_HOME", "ELECTRON_RUN_AS_NODE"],
      );
      assert.match(await toolsOf(server, hub.home), /"name":"recall"/, "the command line serves the recall tools");
    } finally {
      await cfg().update("recall.offerToAgents", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

interface McpServer {
  name: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
}

/** Runs the MCP server's command line (its env as the host gives it) and asks it for its tools: the answer. */
function toolsOf(server: McpServer, home: string): Promise<string> {
  const child = spawn(server.command, server.args, {
    env: { ...process.env, ACP_THREADS_HOME: home, ELECTRON_RUN_AS_NODE: "1" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ];
  child.stdin.write(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  let out = "";
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no tools/list answer: ${out}`)), 15_000);
    child.stdout.on("data", (d: Buffer) => {
      out += String(d);
      const answer = out.split("\n").find((l) => l.startsWith('{"jsonrpc":"2.0","id":2'));
      if (!answer) return;
      clearTimeout(timer);
      resolve(answer);
    });
  }).finally(() => child.kill());
}
