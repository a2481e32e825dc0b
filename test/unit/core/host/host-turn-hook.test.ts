// #35 (host parity row 42): the user's acpThreads.hooks.turnEnded for a thread the thread host runs. The window that
// starts the run sends its command with it; the host runs it when each turn ends (with or without a window
// attached: a reloaded window would not be there to run it), the turn_ended event and the turn's usage on its stdin,
// in the run's folder. The command is held in the host's memory only: nothing in the data home names it.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    const st = statSync(p);
    return st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : [];
  });
}

test("a run carrying the user's turnEnded hook: the host runs it per turn with the event on stdin; never written", () =>
  withCliHost("acp-host-hook-", async ({ dir, home }) => {
    const c = await connectHost({ home, client: "a window" });
    assert.ok(c);
    try {
      const out = join(dir, "hook-out");
      const hook = `cat >> hook-out; echo hook-ran-in-$(basename "$PWD")`;
      const started = await c.request({
        t: "run",
        run: {
          cwd: dir,
          prompts: ["cost 1 2 0.25", "stream 2"],
          agent: FAKE_AGENT,
          permission: "approve-all",
          env: {},
          stallMs: 0,
          retry: "off",
          turnEndedHook: hook,
        },
      });
      assert.equal(started.t, "started");
      const threadId = started.t === "started" ? started.threadId : "";
      // the window let go at once: the host runs the hook on its own
      c.close();
      const lines = () => (existsSync(out) ? readFileSync(out, "utf8").trim().split("\n").filter(Boolean) : []);
      await waitFor(() => lines().length === 2, "the hook ran for both turns");
      const events = lines().map((l) => JSON.parse(l) as { kind: string; threadId: string; usage?: unknown });
      assert.deepEqual(
        events.map((e) => [e.kind, e.threadId]),
        [
          ["turn_ended", threadId],
          ["turn_ended", threadId],
        ],
      );
      assert.deepEqual((events[0]!.usage as { cost?: unknown }).cost, [{ currency: "USD", amount: 0.25 }]);
      // the command is the user's: no file of the data home (thread, index, host log) names it
      for (const f of filesUnder(home))
        if (statSync(f).size < 8 * 1024 * 1024)
          assert.ok(!readFileSync(f, "utf8").includes("hook-ran-in"), `${f} names the hook's command`);
    } finally {
      c.close();
    }
  }));
