// The draft picker's "logged in" hint for an agent whose run is in the thread host (#35, host parity row 21): the
// host's status row of a run names its agent (the id the editor started it with) and carries the login state the
// agent last reported, so a window that follows no thread of it still says whether the agent is logged in. Before,
// the hint read the window's own sessions only. Real processes: a host with the CLI's run path, the fake agent
// reporting its login as codex-acp does (`_auth/status_update` right after initialize).
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentLogin } from "../../../../src/vscode/login-view";
import { withHostedRun } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a hosted run's row names its agent and its login; the picker's hint reads it", () =>
  withHostedRun(
    "acp-host-login-",
    () => ({
      keepOpen: true,
      agentLabel: { id: "fake-codex", name: "Fake Codex" },
      env: { FAKE_AGENT_AUTH_STATUS: "ada@example.com" },
    }),
    async ({ conn, threadId: id, of }) => {
      await waitFor(() => of("turn_ended").length > 0, "the turn ended");
      const st = await conn.request({ t: "status" });
      const rows = st.t === "status" ? st.status.sessions : [];
      const row = rows.find((s) => s.threadId === id);
      assert.equal(row?.agentId, "fake-codex");
      assert.equal(row?.agentName, "Fake Codex", "and its display name (a live row drawn from the row says it)");
      assert.deepEqual(row?.authStatus, { kind: "chat-gpt", label: "ada@example.com" });
      assert.match(agentLogin([], rows, "fake-codex") ?? "", /ada@example\.com/);
      assert.equal(agentLogin([], rows, "another-agent"), undefined, "only the agent that reported it");
      // a window session of the agent says it first (the window's own, as before)
      const windowSession = {
        agent: { id: "fake-codex" },
        isOpen: true,
        authStatus: { kind: "chat-gpt", label: "bob@example.com" },
      } as Parameters<typeof agentLogin>[0][number];
      assert.match(agentLogin([windowSession], rows, "fake-codex") ?? "", /bob@example\.com/);
      await conn.request({ t: "stop_thread", threadId: id });
      await waitFor(() => of("ended").length > 0, "the run ended");
    },
  ));
