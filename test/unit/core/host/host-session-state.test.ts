// #35: a hosted run's session state (modes, config options, slash commands, login) to and from the host's
// clients, against the real host, its real run path (the CLI's) and the real stdio fake agent mid-turn with
// codex-acp's modes. Every attached client gets the state, a client attaching later gets it on attach, a change by
// one client reaches the agent (its own answer comes back) and every client. Hostile: a mode, config option or value
// the agent did not offer, a value of the wrong type, a login the agent does not offer and a thread the host does
// not hold are refused with a clear error, and the agent's state is unchanged.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import type { HostPush } from "../../../../src/core/host/protocol";
import type { HostSessionState } from "../../../../src/core/host/session-state";
import { withCliHostClients } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

/** The latest state each connection was pushed for the thread. */
function stateOf(c: HostConnection): { now?: HostSessionState; pushes: number; ended: boolean } {
  const seen: { now?: HostSessionState; pushes: number; ended: boolean } = { pushes: 0, ended: false };
  c.onPush((m: HostPush) => {
    if (m.t === "session_state") {
      seen.now = m.state;
      seen.pushes++;
    }
    if (m.t === "ended") seen.ended = true;
  });
  return seen;
}

const modeValue = (s: HostSessionState | undefined) => s?.configOptions.find((o) => o.id === "mode")?.currentValue;

test("a hosted run's modes, config options, commands and login reach every client, and a client's change reaches the agent; what the agent did not offer is refused", () =>
  withCliHostClients("acp-host-state-", async ({ client, sleepingRun }) => {
    const window = await client("a window");
    const first = stateOf(window);
    const env = { FAKE_AGENT_MODES: "codex", FAKE_AGENT_COMMANDS: "1", FAKE_AGENT_LOGOUT: "1" };
    const threadId = await sleepingRun(window, env);
    await window.request({ t: "attach", threadId, from: 0 });
    await waitFor(() => (first.now?.commands.length ?? 0) > 0, "the window gets the state with the slash commands");
    const s = first.now!;
    assert.equal(s.modes?.currentModeId, "agent");
    assert.deepEqual(
      s.modes?.availableModes.map((m) => m.id),
      ["read-only", "workspace-write", "agent", "agent-full-access"],
    );
    assert.deepEqual(
      s.configOptions.map((o) => o.id),
      ["mode", "model"],
    );
    assert.deepEqual(
      s.commands.map((c) => c.name),
      ["review", "init"],
    );
    assert.deepEqual(s.authActions, { login: false, logout: true });

    // a client attaching later gets the current state on attach
    const other = await client("another client");
    const second = stateOf(other);
    await other.request({ t: "attach", threadId, from: 0 });
    await waitFor(() => second.now !== undefined, "the state is re-sent on attach");
    assert.deepEqual(second.now, first.now);

    // a legacy mode change: to the agent, then to every client
    assert.equal((await window.request({ t: "set_mode", threadId, modeId: "read-only" })).t, "ok");
    await waitFor(() => second.now?.modes?.currentModeId === "read-only", "the other client sees the new mode");
    // a config option change: the agent answers the new list (its own current value), every client gets it
    assert.equal(
      (await other.request({ t: "set_config", threadId, configId: "mode", value: "workspace-write" })).t,
      "ok",
    );
    await waitFor(() => modeValue(first.now) === "workspace-write", "the window sees the agent's answer");
    // logging out: the agent's new login state reaches the clients
    assert.equal((await window.request({ t: "login", threadId, action: "logout" })).t, "ok");
    await waitFor(() => second.now?.authStatus?.label === "Not logged in", "the login state follows");

    // hostile or invalid: refused with a clear error, nothing reaches the agent, the state is unchanged
    const pushes = first.pushes;
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ t: "set_mode", modeId: "root" }, /has no mode 'root'; its modes are read-only, workspace-write/],
      [{ t: "set_mode", modeId: 42 }, /not a string/],
      [{ t: "set_mode", modeId: "x".repeat(10_000) }, /not a string of 1 to/],
      [{ t: "set_config", configId: "sandbox", value: "off" }, /has no config option 'sandbox'/],
      [{ t: "set_config", configId: "model", value: "gpt-evil" }, /'model' has no value 'gpt-evil'/],
      [{ t: "set_config", configId: "mode", value: true }, /not a string/],
      [{ t: "set_config", configId: "__proto__", value: "x" }, /has no config option/],
      [{ t: "login", action: "login" }, /does not offer logging in/],
      [{ t: "login", action: "sudo" }, /not 'login' or 'logout'/],
    ];
    for (const [req, why] of bad)
      await assert.rejects(window.request({ ...req, threadId } as never), why, JSON.stringify(req).slice(0, 80));
    for (const t of ["set_mode", "set_config", "login"])
      await assert.rejects(
        window.request({ t, threadId: "../../etc", modeId: "read-only", configId: "mode", value: "agent" } as never),
        /does not hold/,
      );
    assert.equal(first.pushes, pushes, "no state change came of a refused request");
    assert.equal(modeValue(first.now), "workspace-write");

    await window.request({ t: "cancel", threadId });
    await waitFor(() => first.ended, "the run ends");
    // no run is live: a change is refused, not queued for a run that is not there
    await assert.rejects(
      window.request({ t: "set_mode", threadId, modeId: "agent" }),
      /does not hold|no run of thread/,
    );
  }));
