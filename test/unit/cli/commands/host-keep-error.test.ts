// A hosted run kept open (#35, the editor's hosted threads: DetachedRun.keepOpen) stays after an error turn, as a
// window's session does: the error is in the thread, the turn's end is announced (stop reason `error`), and the
// next prompt goes to the same agent. Its agent dying mid-turn ends it, unless its watchdog (`retry: offer`) keeps
// it for a person's Restart: `acp-threads retry THREAD` restarts the agent, resumes the session, and the next prompt
// is answered by the new agent process. Real processes: a host with the CLI's run path, the fake stdio agent.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as hostMain } from "../../../../src/cli/commands/host";
import { main as retryMain } from "../../../../src/cli/commands/retry";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import type { HostEvent } from "../../../../src/core/host/protocol";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { eventsClient, untilState } from "../../../fixtures/host/events-client";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../in-process";

const stopReasons = (events: HostEvent[]) =>
  events.map((e) => (e.kind === "turn_ended" ? e.stopReason : undefined)).filter((r) => r !== undefined);
const answers = (home: string, id: string) =>
  new ThreadStore(home).read(id).records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []));

test("an error answer leaves a kept-open run idle for its next prompt, the error in the thread; run --detach still ends", () =>
  withCliHost("acp-host-keep-err-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const pidFile = join(dir, "agent.pid");
    const c = await eventsClient(home);
    try {
      const id = await c.start(
        fakeRun(ws, { keepOpen: true, env: { FAKE_AGENT_PIDFILE: pidFile }, prompts: ["fail upstream 500"] }),
      );
      await waitFor(() => c.of(id, "turn_ended").length === 1, "the failed turn's end announced");
      assert.deepEqual(stopReasons(c.of(id, "turn_ended")), ["error"]);
      await untilState(c, id, "idle");
      assert.equal(c.of(id, "ended").length, 0, "the run stays for the next prompt");
      const records = new ThreadStore(home).read(id).records;
      const error = records.find((r) => r.kind === "error");
      assert.match(error?.kind === "error" ? error.message : "", /upstream 500/, "the error recorded on the thread");
      assert.deepEqual(
        records.flatMap((r) => (r.kind === "turn_end" ? [r.stopReason] : [])),
        ["error"],
        "the turn ended failed, as a window session records it",
      );
      const pid = Number(readFileSync(pidFile, "utf8"));

      await c.conn.request({ t: "prompt", threadId: id, text: "two" });
      await waitFor(() => c.of(id, "turn_ended").length === 2, "the next turn ended");
      assert.deepEqual(stopReasons(c.of(id, "turn_ended")), ["error", "end_turn"]);
      assert.deepEqual(answers(home, id), ["failing", "echo: two"]);
      assert.equal(Number(readFileSync(pidFile, "utf8")), pid, "the same agent process answered");
      await untilState(c, id, "idle");

      // a permission the policy denied, the agent giving up (cancelled): a window session stays, so does this run
      await c.conn.request({ t: "stop_thread", threadId: id });
      await waitFor(() => c.of(id, "ended").length === 1, "stopped");
      const denied = await c.start(fakeRun(ws, { keepOpen: true, permission: "deny-all", prompts: ["write f.txt x"] }));
      await waitFor(() => c.of(denied, "turn_ended").length === 1, "the denied turn ended");
      await untilState(c, denied, "idle");
      assert.equal(c.of(denied, "ended").length, 0, "held after the denial");
      await c.conn.request({ t: "stop_thread", threadId: denied });

      // acp-threads run --detach (not kept open) ends on the error, as before
      const once = await c.start(fakeRun(ws, { prompts: ["fail upstream 500", "never sent"] }));
      await waitFor(() => c.of(once, "ended").length === 1, "the one-shot run ended");
      const ended = c.of(once, "ended")[0] as Extract<HostEvent, { kind: "ended" }>;
      assert.equal(ended.exitCode, 1);
      assert.match(ended.error ?? "", /upstream 500/);
      assert.deepEqual(answers(home, once), ["failing"], "its queue was not run");
    } finally {
      c.conn.close();
    }
  }));

test("the agent dying mid-turn ends a kept-open run with no watchdog", () =>
  withCliHost("acp-host-keep-err-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const c = await eventsClient(home);
    try {
      const id = await c.start(fakeRun(ws, { keepOpen: true, prompts: ["die"] }));
      await waitFor(() => c.of(id, "ended").length === 1, "the run ended");
      assert.equal((c.of(id, "ended")[0] as { exitCode: number }).exitCode, 1);
      assert.equal(await c.session(id), undefined, "the host let the thread go");
    } finally {
      c.conn.close();
    }
  }));

test("a dead agent with retry: offer keeps the run for a person's Restart: acp-threads retry restarts it", () =>
  withCliHost("acp-host-keep-err-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const pidFile = join(dir, "agent.pid");
    const c = await eventsClient(home);
    const alerts: string[] = [];
    c.conn.onPush((m) => m.t === "watchdog" && m.watchdog.alert && alerts.push(m.watchdog.alert.kind));
    try {
      const past = await c.start(fakeRun(ws));
      await waitFor(() => c.of(past, "ended").length === 1, "a run that ended");
      const none = await runCommand(retryMain, [past], { home });
      assert.equal(none.code, 1, "a thread the host does not hold");
      assert.match(none.err, /does not hold/);

      const id = await c.start(
        fakeRun(ws, {
          keepOpen: true,
          env: { FAKE_AGENT_PIDFILE: pidFile },
          prompts: ["hello"],
          stallMs: 60_000,
          retry: "offer",
        }),
      );
      await waitFor(() => c.of(id, "turn_ended").length === 1, "the first turn ended");
      await untilState(c, id, "idle");
      const nothing = await runCommand(retryMain, [id], { home });
      assert.equal(nothing.code, 1, "no alert: nothing to retry");
      assert.match(nothing.err, /no alert/);
      const first = Number(readFileSync(pidFile, "utf8"));

      await c.conn.request({ t: "prompt", threadId: id, text: "die" });
      await waitFor(() => alerts.includes("died"), "the death pushed");
      await untilState(c, id, "idle");
      const held = await c.session(id);
      assert.equal(held?.watchdog?.alert?.kind, "died", "status shows the alert");
      assert.equal(held?.watchdog?.next, "restart", "Restart offered");
      const status = await runCommand(hostMain, ["status"], { home });
      assert.match(status.out, new RegExp(`${id}  idle  .*watchdog: .*exited.*would: restart`), "host status says so");
      assert.ok(!pidAlive(first), "the agent is dead");
      assert.equal(c.of(id, "ended").length, 0, "the run stays for a person's Restart");

      const wrong = await runCommand(retryMain, [id, "--step", "sideways"], { home });
      assert.equal(wrong.code, 2, "an unknown step is the caller's to fix");
      await assert.rejects(
        c.conn.request({ t: "retry", threadId: id, step: "sideways" as never }),
        /no retry step 'sideways'/,
        "the host takes only the ladder's steps",
      );
      const restarted = await runCommand(retryMain, [id, "--step", "restart"], { home });
      assert.equal(restarted.code, 0, restarted.err);
      assert.match(restarted.out, /^restart: reopened by load/);
      await waitFor(() => answers(home, id).includes("echo: continue"), "the cut turn continued in the new agent");
      const second = Number(readFileSync(pidFile, "utf8"));
      assert.notEqual(second, first, "a new agent process");
      await untilState(c, id, "idle");

      await c.conn.request({ t: "prompt", threadId: id, text: "after" });
      await waitFor(() => answers(home, id).includes("echo: after"), "the next prompt answered");
      assert.equal(Number(readFileSync(pidFile, "utf8")), second, "by the new agent process");
      assert.ok(pidAlive(second));
      assert.equal(c.of(id, "ended").length, 0);
      await untilState(c, id, "idle");
      assert.equal((await c.session(id))?.watchdog?.alert, undefined, "the alert cleared by the healthy turn");

      // the agent dying between turns: the run stays too, and Restart only reopens the session (no turn was cut)
      alerts.length = 0;
      process.kill(second, "SIGKILL");
      await waitFor(() => alerts.includes("died"), "the idle death pushed");
      assert.equal((await c.session(id))?.watchdog?.next, "restart");
      assert.equal(c.of(id, "ended").length, 0, "held for a person's Restart");
      const again = await runCommand(retryMain, [id], { home });
      assert.equal(again.code, 0, again.err);
      assert.match(again.out, /^restart: /);
      const third = Number(readFileSync(pidFile, "utf8"));
      assert.ok(third !== second && pidAlive(third), "a new agent process");
      assert.equal(answers(home, id).filter((a) => a === "echo: continue").length, 1, "nothing continued");
    } finally {
      c.conn.close();
    }
  }));
