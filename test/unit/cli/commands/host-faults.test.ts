// Thread host faults (#35), real processes: the host killed with SIGKILL mid-turn takes its agents with it (the
// parent-death guard), the thread file stays whole, the next client sees the turn interrupted and goes on; a
// client killed mid-turn changes nothing for the turn or the host; a host lock that still looks held delays a start.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { hostPlace, preparePlace } from "../../../../src/core/host/door";
import { lockPathFor, pidAlive } from "../../../../src/core/platform/file-lock";
import { readRecords } from "../../../../src/core/store/jsonl-reader";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, startCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { cli, detached, hostEnv, hostPid, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

const turnEnds = (home: string, id: string) =>
  new ThreadStore(home).read(id).records.filter((r) => r.kind === "turn_end").length;
const prompts = (home: string, id: string) => {
  const path = new ThreadStore(home).pathFor(id);
  return existsSync(path) ? readRecords(path).records.filter((r) => r.kind === "user_message").length : 0;
};

test("the host killed mid-turn: its agent ends, the thread stays whole, the next client sees it interrupted and goes on", () =>
  withTmpDir("acp-host-", async (home) => {
    const pidfile = join(home, "agent.pid");
    try {
      const id = await detached(home, ["--agent", FAKE_AGENT, "sleep 60000"], { FAKE_AGENT_PIDFILE: pidfile });
      await waitFor(() => existsSync(pidfile), "the agent started");
      // mid-turn: the prompt is recorded (the agent writes its pid file when it starts, before the host sends the
      // prompt; a kill in between left no turn to call interrupted: CI rehearsal, stop 58, under load)
      await waitFor(() => prompts(home, id) === 1, "the turn started");
      const agent = Number(readFileSync(pidfile, "utf8"));
      const host = hostPid(home)!;
      process.kill(host, "SIGKILL");
      await waitFor(() => !pidAlive(agent), "the agent ended with its host (no orphan)");
      const read = readRecords(new ThreadStore(home).pathFor(id));
      assert.equal(read.tornBytes, 0, "no torn line");
      assert.deepEqual(read.warnings, []);
      const seen = await cli(home, ["attach", id]);
      assert.equal(seen.code, 0, seen.stderr);
      assert.match(seen.stderr, new RegExp(`the last turn of thread ${id} was interrupted`));
      const resumed = await cli(home, ["run", "--thread", id, "--format", "json", "stream 2"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(turnEnds(home, id), 1);
      // a new host replaces the dead one's socket
      const again = await detached(home, ["--agent", FAKE_AGENT, "stream 1"]);
      await waitFor(() => turnEnds(home, again) === 1, "a turn in the new host");
    } finally {
      await stopHost(home);
    }
  }));

test("a client killed mid-turn changes nothing: the turn ends, the host goes on, a new client attaches", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const id = await detached(home, ["--agent", FAKE_AGENT, "sleep 1500"]);
      const watcher = startCli(["attach", id], { home, env: hostEnv() });
      let out = "";
      watcher.child.stdout!.on("data", (d) => (out += d));
      await waitFor(() => out.includes("sleeping"), "the client shows the turn");
      watcher.child.kill("SIGKILL");
      await watcher.done;
      await waitFor(() => turnEnds(home, id) === 1, "the turn ended anyway");
      const st = await cli(home, ["host", "status", "--format", "json"]);
      assert.equal(st.code, 0, st.stderr);
      const after = await cli(home, ["attach", id]);
      assert.equal(after.code, 0, after.stderr);
      assert.match(after.stdout, /sleeping/);
    } finally {
      await stopHost(home);
    }
  }));

test("a host lock that still looks held (a killed host not yet reaped) delays the start, never fails it", () =>
  withTmpDir("acp-host-", async (home) => {
    const place = hostPlace(home);
    preparePlace(home, place);
    // the lock of a host that is going away: its pid lives for a moment more, then its lock is stale
    const dying = spawn(process.execPath, ["-e", "setTimeout(() => {}, 1500)"], { stdio: "ignore" });
    const holder = { pid: dying.pid, host: hostname(), label: "a dying host", since: new Date().toISOString() };
    writeFileSync(lockPathFor(place.hostLock), JSON.stringify({ ...holder, token: "dying" }), { mode: 0o600 });
    try {
      // the first host started finds the lock live and leaves; before, the client waited 15 s for it and failed
      const id = await detached(home, ["--agent", FAKE_AGENT, "stream 1"]);
      await waitFor(() => turnEnds(home, id) === 1, "the turn ran in a host started after the lock went stale");
      assert.notEqual(hostPid(home), dying.pid);
    } finally {
      dying.kill("SIGKILL");
      await stopHost(home);
    }
  }));
