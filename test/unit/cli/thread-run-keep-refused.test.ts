// A run kept open (the thread host's, as a window's session) whose later prompt cannot be built for its agent
// (a usage error: an empty prompt here; the host refuses those it knows at admission, this is the run's own
// guard): that prompt fails, the run goes on for its next one with the same agent, and the watchdog did not count
// it as a turn (it never reached the agent: a turn "running" from then on would be called stalled while the run
// waits idle). Before, the run (then the CLI's runOnThread) rethrew any usage error of any turn: the whole run ended,
// its agent with it. Real processes: the engine's run loop (the one the CLI's and the hosts' runs go through) with
// the stdio fake agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NextPrompt } from "../../../src/core/model/run";
import { runLoop } from "../../../src/core/session/run-loop";
import type { Supervisor } from "../../../src/core/watchdog/supervisor";
import { quietRun } from "../../fixtures/cli/quiet-run";
import { withTmpDir } from "../../fixtures/fake-agents/tmp-dir";

test("a kept-open run's later prompt that cannot be built fails alone; the run goes on, no turn counted", () =>
  withTmpDir("acp-keep-refused-", async (dir) => {
    let supervisor: Supervisor | undefined;
    const running: boolean[] = [];
    const next: (NextPrompt | undefined)[] = [{ text: "", parts: [] }, { text: "two" }, undefined];
    const o = quietRun(dir, {
      stallMs: 60_000,
      retry: "offer",
      keepOpen: true,
      onSupervisor: (s) => (supervisor = s),
      nextPrompt: () => {
        running.push(supervisor?.watchdog.turnRunning ?? true);
        return next.shift();
      },
    });
    const summary = await runLoop(o);
    assert.equal(summary.end, "ok", summary.error);
    assert.ok(summary.threadId);
    const answers = o.store.read(summary.threadId).records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []));
    assert.deepEqual(answers, ["echo: one", "echo: two"], "the run went on with the same agent");
    assert.deepEqual(running, [false, false, false], "no turn counted as running between prompts");
  }));
