// The spawn command with a REAL agent: codex-acp from test/agents, pointed at the scripted model server by the
// demo profile (dist-test/host/demo-env.main.js), fully offline. The agent asks before editing; the test
// answers through the permission broker, as the inline prompt does.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as vscode from "vscode";
import { api, repoRoot, waitFor, workspaceRoot } from "./helpers";
import { sessionOf } from "./session-of";

let demo: ChildProcess | undefined;

describe("spawning a real agent (codex-acp + scripted model)", function () {
  this.timeout(180_000);

  before(async function () {
    if (!existsSync(join(repoRoot(), "test/agents/node_modules/.bin/codex-acp")))
      throw new Error("codex-acp missing: bash test/agents/install.sh");
    demo = spawn(
      process.execPath,
      [join(repoRoot(), "dist-test/host/demo-env.main.js"), "--workspace", workspaceRoot()],
      {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: demo!.stdout! }).once("line", resolve);
      demo!.once("exit", (code) => reject(new Error(`demo-env exited ${code}`)));
    });
    const { profile } = JSON.parse(line);
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("demoProfile", profile, vscode.ConfigurationTarget.Global);
  });

  after(() => {
    demo?.kill("SIGTERM");
  });

  it("runs a task: the agent asks to write a file, the answer allows it, the file appears and the answer streams", async () => {
    const { hub } = await api();
    const threadId = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
      agentId: "demo",
      task: "create hello.txt containing hi from codex",
      mode: "session",
      cwd: workspaceRoot(),
    });
    const s = await sessionOf(hub, threadId);
    assert.equal(s.agent.displayName, "Demo: Codex (local scripted model)");
    let answered = 0;
    await waitFor(
      "the turn to finish (answering permission prompts)",
      () => {
        for (const p of hub.broker.pendingFor(threadId)) {
          const allow = p.options.find((o) => o.kind === "allow_once") ?? p.options[0];
          if (hub.broker.answer(p.requestId, allow.optionId)) answered++;
        }
        return s.status === "idle" || s.status === "failed" || s.status === "closed";
      },
      150_000,
    );
    assert.equal(s.status, "idle", s.statusDetail);
    assert.ok(answered >= 1, "the agent asked at least once");
    const file = join(workspaceRoot(), "hello.txt");
    assert.equal(readFileSync(file, "utf8").trim(), "hi from codex");
    assert.ok(
      s.events.some((e) => e.type === "tool_call"),
      "tool calls were streamed",
    );
    assert.ok(
      s.events.some((e) => e.type === "text" && e.stream === "output"),
      "agent text was streamed",
    );
    console.log(`[figure] real agent: ${s.events.length} events, ${answered} permission prompt(s) answered`);
    await s.close();
  });
});
