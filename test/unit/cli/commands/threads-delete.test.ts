// `threads delete ID --agent-session` (#23 item 5): the thread's agent is asked to delete its session
// (`session/delete`) when it advertises `sessionCapabilities.delete`; the thread goes to the trash whatever the
// agent says, and without the flag no agent is started.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

async function thread(home: string, env: NodeJS.ProcessEnv) {
  const res = await runCli(["run", "--agent", FAKE_AGENT, "--format", "json", "hello"], { home, env });
  assert.equal(res.code, 0, res.stderr);
  const id = JSON.parse(res.stdout.trim().split("\n").at(-1)!).threadId as string;
  return { id, sessionId: new ThreadStore(home).readMetadata(id).agentSessionId };
}

test("--agent-session deletes the agent's session (session/delete) and trashes the thread", () =>
  withTmpDir("acp-tdel-", async (home) => {
    const pidfile = join(home, "agent.pid");
    const env = { FAKE_AGENT_DELETE: "1", FAKE_AGENT_PIDFILE: pidfile };
    const { id, sessionId } = await thread(home, env);
    assert.ok(sessionId);
    const res = await runCli(["threads", "delete", id, "--agent-session"], { home, env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, new RegExp(`deleted the agent's session ${sessionId}`));
    assert.equal(readFileSync(`${pidfile}.delete`, "utf8"), sessionId);
    assert.equal(new ThreadStore(home).exists(id), false, "in the trash");
  }));

test("an agent without session/delete: a clear error, the thread is trashed anyway; without the flag no agent starts", () =>
  withTmpDir("acp-tdel-", async (home) => {
    const pidfile = join(home, "agent.pid");
    const env = { FAKE_AGENT_PIDFILE: pidfile };
    const { id } = await thread(home, env);
    const res = await runCli(["threads", "delete", id, "--agent-session", "--format", "json"], { home, env });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /the agent's session was not deleted: .* does not offer deleting its sessions over ACP/);
    assert.equal(JSON.parse(res.stdout).agentSession.deleted, false);
    assert.equal(new ThreadStore(home).exists(id), false, "in the trash all the same");
    const other = await thread(home, { FAKE_AGENT_DELETE: "1" });
    const plain = await runCli(["threads", "delete", other.id], {
      home,
      env: { FAKE_AGENT_DELETE: "1", FAKE_AGENT_PIDFILE: `${pidfile}2` },
    });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(existsSync(`${pidfile}2`), false, "no agent was started");
  }));
