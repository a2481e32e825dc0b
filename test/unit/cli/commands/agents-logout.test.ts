// `acp-threads agents logout ID`: the agent is started, gets `logout` when it advertises `auth.logout`, and the
// login state it reports afterwards (`_auth/status_update`) is printed; an agent without logout gets a clear
// error and is sent nothing.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("agents logout logs an agent that offers it out and prints its new login state", () =>
  withTmpDir("acp-logout-", async (home) => {
    const pidfile = join(home, "agent.pid");
    const env = { FAKE_AGENT_LOGOUT: "1", FAKE_AGENT_PIDFILE: pidfile };
    const res = await runCli(["agents", "logout", FAKE_AGENT], { home, env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^logged out of .* \(Not logged in\)$/m);
    assert.equal(readFileSync(`${pidfile}.logout`, "utf8"), "logged out");
  }));

test("agents logout on an agent without logout says so and sends nothing", () =>
  withTmpDir("acp-logout-", async (home) => {
    const pidfile = join(home, "agent.pid");
    const res = await runCli(["agents", "logout", FAKE_AGENT], { home, env: { FAKE_AGENT_PIDFILE: pidfile } });
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /does not offer logging out over ACP/);
    assert.equal(existsSync(`${pidfile}.logout`), false);
    const usage = await runCli(["agents", "logout"], { home });
    assert.equal(usage.code, 2);
  }));
