// The thread host through the CLI (#35), real processes: `run --detach` returns while the turn runs in the host;
// two clients racing start one host; `host status` / `host stop`; the host leaves when idle; `attach` from a
// cursor prints each record once; `--permission ask` waits for `answer` from any shell (first answer wins).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { hostPlace } from "../../../../src/core/host/door";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, startCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { cli, detached, endSleep, hostEnv, hostPid, steering, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

const records = (home: string, id: string) => new ThreadStore(home).read(id).records;
const ended = (home: string, id: string) => records(home, id).some((r) => r.kind === "turn_end");

test("run --detach returns with the thread id while the turn goes on in the host; status shows it", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const id = await detached(home, ["--agent", FAKE_AGENT, "sleep 600000"], steering);
      assert.ok(!ended(home, id), "the command returned before the turn ended");
      const st = await cli(home, ["host", "status", "--format", "json"]);
      assert.equal(st.code, 0, st.stderr);
      const status = JSON.parse(st.stdout) as { pid: number; sessions: { threadId: string; state: string }[] };
      assert.equal(status.pid, hostPid(home));
      assert.deepEqual(
        status.sessions.map((s) => s.threadId),
        [id],
      );
      await endSleep(home, id);
      await waitFor(() => ended(home, id), "the detached turn ended");
      assert.match(JSON.stringify(records(home, id)), /sleeping/);
    } finally {
      await stopHost(home);
    }
  }));

test("two clients racing to start the host end with one host; it leaves when idle, its socket gone", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const ids = await Promise.all([1, 2, 3].map((i) => detached(home, ["--agent", FAKE_AGENT, `stream ${i}`])));
      assert.equal(new Set(ids).size, 3);
      const pid = hostPid(home)!;
      assert.ok(pid);
      const log = readFileSync(hostPlace(home).log, "utf8");
      assert.equal(log.match(/serves /g)?.length ?? 0, 1, log);
      await waitFor(() => ids.every((id) => ended(home, id)), "the three turns ended");
      await waitFor(() => !pidAlive(pid), "the idle host left");
      assert.equal(existsSync(hostPlace(home).socket), false);
      const st = await cli(home, ["host", "status"]);
      assert.equal(st.code, 4);
      assert.match(st.stdout, /no thread host runs/);
    } finally {
      await stopHost(home);
    }
  }));

test("host stop refuses while sessions run; --force cancels them and the host leaves", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const id = await detached(home, ["--agent", FAKE_AGENT, "sleep 60000"]);
      const pid = hostPid(home)!;
      const refused = await cli(home, ["host", "stop"]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /1 session\(s\) still run in the host; 'acp-threads host stop --force'/);
      assert.ok(pidAlive(pid));
      const stop = await cli(home, ["host", "stop", "--force"]);
      assert.equal(stop.code, 0, stop.stderr);
      await waitFor(() => !pidAlive(pid), "the host left");
      await waitFor(() => ended(home, id), "the cancelled turn was recorded");
      assert.equal(records(home, id).find((r) => r.kind === "turn_end")?.stopReason, "cancelled");
    } finally {
      await stopHost(home);
    }
  }));

test("attach from a cursor prints each record once, then follows the running turn to its end", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      // the turn runs until it is steered: the attach below starts while it runs, whatever the load
      const id = await detached(home, ["--agent", FAKE_AGENT, "sleep 600000"], steering);
      const attach = startCli(["attach", id, "--format", "json"], { home, env: hostEnv() });
      let out = "";
      attach.child.stdout!.on("data", (d) => (out += d));
      await waitFor(() => out.includes("sleeping"), "the attach printed the running turn");
      await endSleep(home, id);
      const whole = await attach.done;
      assert.equal(whole.code, 0, whole.stderr);
      const lines = out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; text?: string });
      // what came after the attach (the steered answer) is printed too, and each record once
      assert.deepEqual(
        lines.filter((e) => e.type === "text").map((e) => e.text),
        ["sleeping", "steered: wake up"],
      );
      assert.equal(lines.filter((e) => e.type === "user_text" && e.text === "sleep 600000").length, 1);
      // a second turn on the same thread, followed from the cursor where the first attach ended
      const count = records(home, id).length;
      const next = await cli(home, ["run", "--detach", "--thread", id, "stream 3"]);
      assert.equal(next.code, 0, next.stderr);
      const tail = await cli(home, ["attach", id, "--from", String(count), "--format", "json"]);
      assert.equal(tail.code, 0, tail.stderr);
      const texts = tail.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; text?: string })
        .filter((e) => e.type === "text" || e.type === "user_text");
      assert.deepEqual(
        texts.map((e) => e.text),
        ["stream 3", "chunk 0 chunk 1 chunk 2 "],
      );
    } finally {
      await stopHost(home);
    }
  }));

test("--permission ask: the turn waits; answer from any shell, first answer wins, the attached client is told", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const id = await detached(
        home,
        [
          "--agent",
          FAKE_AGENT,
          "--permission",
          "ask",
          `write ${join(home, "out.txt")} hello`,
          // keeps the run (and its answered question) held until both answers came, whatever the load
          "sleep 600000",
        ],
        steering,
      );
      const watcher = startCli(["attach", id], { home, env: hostEnv() });
      let err = "";
      watcher.child.stderr!.on("data", (d) => (err += d));
      await waitFor(() => /acp-threads answer/.test(err), "the attached client shows the question");
      assert.match(err, new RegExp(`answer from any shell: acp-threads answer ${id} --option allow\\|reject`));
      const events = await cli(home, ["events", "--format", "json"]);
      assert.match(events.stdout, /"kind":"needs_input"/);
      // two shells answer at once: one wins, the other is told who did
      const answers = await Promise.all([
        cli(home, ["answer", id.slice(0, 20), "--option", "allow"]),
        cli(home, ["answer", id, "--option", "allow"]),
      ]);
      const won = answers.filter((a) => a.code === 0);
      assert.equal(won.length, 1, JSON.stringify(answers));
      // the fake agent's allow_once option (its id and label), then the question it answered
      const [option, which] = won[0]!.stdout.split("\n");
      assert.equal(option, 'yes "Allow"');
      assert.match(which ?? "", /^question [0-9a-f-]{36}: /);
      assert.ok(which?.endsWith(`: Write ${join(home, "out.txt")}`), which);
      const lost = answers.find((a) => a.code !== 0)!;
      assert.equal(lost.code, 1);
      assert.match(lost.stderr, /the question was already answered by acp-threads answer \(pid \d+\)/);
      const done = await watcher.done;
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stderr, /answered yes "Allow" by acp-threads answer \(pid \d+\)/);
      assert.equal(readFileSync(join(home, "out.txt"), "utf8"), "hello");
      const none = await cli(home, ["answer", id, "--option", "allow"]);
      assert.equal(none.code, 1);
      await endSleep(home, id);
    } finally {
      await stopHost(home);
    }
  }));

test("--permission ask without --detach is a usage error; run [--detach] --thread on a held thread goes to the host", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const bad = await cli(home, ["run", "--agent", FAKE_AGENT, "--permission", "ask", "hi"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--permission ask goes with --detach/);
      // the first turn runs until it is steered (a fixed-length one could end before the next command, under
      // load, and that command would then run the thread itself)
      const id = await detached(home, ["--agent", FAKE_AGENT, "sleep 600000"], steering);
      const more = await cli(home, ["run", "--thread", id, "stream 2"]);
      assert.equal(more.code, 0, more.stderr);
      assert.match(more.stderr, /runs in the thread host; queued there/);
      // --detach too: the host refuses a second run of the thread (held), so the prompt is queued in its run
      const detachedMore = await cli(home, ["run", "--detach", "--thread", id, "--format", "json", "stream 1"]);
      assert.equal(detachedMore.code, 0, detachedMore.stderr);
      assert.deepEqual(JSON.parse(detachedMore.stdout), { threadId: id });
      assert.match(detachedMore.stderr, /runs thread \S+ already; queued there/);
      await endSleep(home, id);
      await waitFor(
        () => records(home, id).filter((r) => r.kind === "turn_end").length === 3,
        "both queued prompts ran in the host",
      );
      const sessions = records(home, id).filter((r) => r.kind === "session_open").length;
      assert.equal(sessions, 1, "one run: no second session of the thread");
    } finally {
      await stopHost(home);
    }
  }));

test("an agent the host starts gets the environment of the shell that asked for it, not the host's", () =>
  withTmpDir("acp-host-", async (home) => {
    try {
      const first = await detached(home, ["--agent", FAKE_AGENT, "sleep 1500"]); // starts the host
      const pidfile = join(home, "second-agent.pid");
      // the fake agent writes its pid where FAKE_AGENT_PIDFILE says: set in the second shell only
      const second = await detached(home, ["--agent", FAKE_AGENT, "stream 1"], { FAKE_AGENT_PIDFILE: pidfile });
      await waitFor(() => ended(home, first) && ended(home, second), "both turns ended");
      assert.ok(existsSync(pidfile), "the second agent saw the second shell's environment");
    } finally {
      await stopHost(home);
    }
  }));
