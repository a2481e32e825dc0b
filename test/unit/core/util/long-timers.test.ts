// Timeouts past a Node timer's range (2^31 - 1 ms, about 24.8 days): Node fires such a timer after 1 ms (with a
// TimeoutOverflowWarning). `acp-threads exec --timeout 2200000` (and `exec --detach`, the host's exec_start) killed
// its run at once as timed out; `run --timeout` (and a host client's run) gave up at once with exit 3; a watchdog
// `--stall-timeout` that long re-armed its timer every millisecond through every turn. Each waits now (a timer
// past the range waits its most; the watchdog re-arms for the rest). Real processes: an exec registry's `/bin/sh`,
// the engine's run loop with the stdio fake agent, the watchdog on the real clock.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runLoop } from "../../../../src/core/session/run-loop";
import { TurnWatchdog } from "../../../../src/core/watchdog/turn-watchdog";
import { quietRun } from "../../../fixtures/cli/quiet-run";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { waitForOutput, withRegistry } from "../exec/helpers";

const LONG_MS = 2 ** 31 + 1_000;

/** The TimeoutOverflowWarnings `fn` caused (emitted on the next tick). */
async function overflows(fn: () => Promise<void>): Promise<number> {
  let n = 0;
  const count = (w: Error) => void (w.name === "TimeoutOverflowWarning" && n++);
  process.on("warning", count);
  try {
    await fn();
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off("warning", count);
  }
  return n;
}

test("an exec run with a timeout past a timer's range is not killed at once", () =>
  withRegistry(async (registry, dir) => {
    let status = "";
    const warned = await overflows(async () => {
      const run = registry.start({
        command: "/bin/sh",
        args: ["-c", "echo ready; read line; echo got:$line"],
        cwd: dir,
        timeoutMs: LONG_MS,
      });
      await waitForOutput(run, "ready");
      run.write("x\n");
      status = (await run.exited).status;
      assert.match(run.read(0).text, /got:x/);
    });
    assert.equal(status, "exited", "it ran to its end");
    assert.equal(warned, 0, "no timer overflowed");
  }));

test("a watchdog whose stall time is past a timer's range does not spin", async () => {
  const w = new TurnWatchdog(30 * 24 * 3600_000);
  try {
    const warned = await overflows(async () => w.turnStarted());
    assert.equal(warned, 0, "no timer overflowed");
    assert.equal(w.alert, undefined);
  } finally {
    w.dispose();
  }
});

test("a run with a timeout past a timer's range runs its turn", () =>
  withTmpDir("acp-long-timeout-", async (dir) => {
    let summary: Awaited<ReturnType<typeof runLoop>> | undefined;
    const warned = await overflows(async () => {
      summary = await runLoop(quietRun(dir, { timeoutMs: LONG_MS }));
    });
    assert.equal(summary?.end, "ok", summary?.error);
    assert.equal(summary?.stopReason, "end_turn");
    assert.equal(warned, 0, "no timer overflowed");
  }));
