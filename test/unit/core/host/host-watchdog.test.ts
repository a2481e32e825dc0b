// #35: a hosted run has the watchdog a window's session has (it was started with `retry: "off"`, so none): a turn
// that goes silent raises a `stalled` alert, pushed to the thread's clients (once to a client that also hears the
// host's events) and shown in the host's status; a client's `retry` takes the ladder's rung (cancel) and every
// client hears the rung taken. Against the real host, its real run path (the CLI's) and the real stdio fake agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import type { HostPush, HostWatchdog } from "../../../../src/core/host/protocol";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const run = (dir: string, retry: "offer" | "off", stallMs: number) => ({
  t: "run" as const,
  run: {
    cwd: dir,
    prompts: ["sleep 60000"],
    agent: FAKE_AGENT,
    permission: "approve-all" as const,
    env: {},
    stallMs,
    retry,
  },
});

test("a hosted turn that goes silent: the watchdog's alert reaches the clients and the status; a client's retry cancels it", () =>
  withCliHost("acp-host-watchdog-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const c = await connectHost({ home, client: "a window" });
      assert.ok(c);
      conns.push(c);
      const pushes: HostPush[] = [];
      c.onPush((m) => pushes.push(m));
      const watched = () => pushes.flatMap((m) => (m.t === "watchdog" ? [m.watchdog] : []));
      await c.request({ t: "events" }); // it hears the host's events too: each change comes once all the same

      // no watchdog: a retry is refused
      const plain = await c.request(run(dir, "off", 0));
      const unwatched = plain.t === "started" ? plain.threadId : "";
      await assert.rejects(c.request({ t: "retry", threadId: unwatched }), /has no watchdog/);
      await c.request({ t: "cancel", threadId: unwatched });

      const started = await c.request(run(dir, "offer", 400));
      const threadId = started.t === "started" ? started.threadId : "";
      await c.request({ t: "attach", threadId, from: 0 });
      await waitFor(() => watched().some((w) => w.alert?.kind === "stalled"), "the stall is pushed");
      const alerted: HostWatchdog = watched().find((w) => w.alert)!;
      assert.equal(alerted.auto, false);
      assert.equal(alerted.next, "cancel");
      assert.equal(
        pushes.filter((m) => m.t === "watchdog" && JSON.stringify(m.watchdog) === JSON.stringify(alerted)).length,
        1,
        "once, though attached and hearing events",
      );
      const status = await c.request({ t: "status" });
      const session = status.t === "status" ? status.status.sessions.find((s) => s.threadId === threadId) : undefined;
      assert.equal(session?.watchdog?.alert?.kind, "stalled");

      // a client that attaches later is told at once
      const late = await connectHost({ home, client: "a late client" });
      assert.ok(late);
      conns.push(late);
      const latePushes: HostPush[] = [];
      late.onPush((m) => latePushes.push(m));
      await late.request({ t: "attach", threadId, from: 0 });
      await waitFor(() => latePushes.some((m) => m.t === "watchdog" && !!m.watchdog.alert), "the late client is told");

      assert.equal((await late.request({ t: "retry", threadId })).t, "ok");
      await waitFor(
        () => watched().some((w) => w.history.some((h) => h.step === "cancel")),
        "every client hears the rung taken",
      );
      await waitFor(() => pushes.some((m) => m.t === "ended" && m.threadId === threadId), "the cancelled run ends");
    } finally {
      for (const c of conns) c.close();
    }
  }));
