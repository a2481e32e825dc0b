/**
 * A terminal's last output is kept (platform/pty-tail.ts). node-pty on Linux ended a terminal's stream when the
 * program's side hung up after a short read, dropping what the kernel still queued: the tail of a fast writer,
 * an exec run's last lines. The tests hold this process's event loop while the program writes and ends, so its
 * whole output is queued when the loop comes back, as it is on a loaded machine. Without the fix, most of these
 * runs lose their tail (seen: 3 of 5 on an idle machine, 16 of 20 under load).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { ExecRegistry } from "../../../../src/core/exec";
import { isWindows } from "../../../../src/core/platform/host";
import { loadPty } from "../../../../src/core/platform/pty";
import { spawnPtyKeepingTail } from "../../../../src/core/platform/pty-tail";
import { withTmp } from "../store/helpers";

const RUNS = 8;
/** More than a terminal read gives (4095 bytes), less than the kernel queues for a terminal (about 68 KiB). */
const WRITE = "head -c 20000 /dev/zero | tr '\\0' x; echo; echo THE-END";
const skip = isWindows() || !loadPty() ? "needs a POSIX pseudo-terminal (node-pty)" : false;

/** Holds this thread, so the program writes and ends before anything is read. */
const holdLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test("an exec run on a terminal keeps its last output when it ends with more queued than a read takes", { skip }, () =>
  withTmp(async (dir) => {
    const registry = new ExecRegistry({ execDir: join(dir, "exec"), sweepIntervalMs: 0 });
    try {
      for (let i = 0; i < RUNS; i++) {
        const run = registry.start({ command: "sh", args: ["-c", WRITE], cwd: dir, pty: true });
        holdLoop(400);
        const info = await run.exited;
        assert.equal(info.exitCode, 0);
        const text = run.read(0).text;
        assert.equal(text.split("x").length - 1, 20_000, `run ${i + 1}: every byte it wrote`);
        assert.match(text, /THE-END/, `run ${i + 1}: its last line`);
      }
    } finally {
      registry.dispose();
    }
  }),
);

test("a terminal's kept tail decodes characters split across reads", { skip }, async () => {
  const nodePty = loadPty()!;
  for (let i = 0; i < RUNS; i++) {
    // 2-byte characters at an odd offset: reads of 4095 bytes split them
    const script =
      "printf a; for i in $(seq 1 300); do printf 'éééééééééééééééééééééééééééééééééééééééééééééééééé'; done; echo; echo THE-END";
    const term = spawnPtyKeepingTail(nodePty, "/bin/sh", ["-c", script], { env: { ...process.env, LANG: "C.UTF-8" } });
    let out = "";
    term.onData((d) => (out += d));
    const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
    holdLoop(400);
    await exited;
    assert.equal(out.split("é").length - 1, 15_000, `run ${i + 1}: every character whole`);
    assert.ok(!out.includes("\uFFFD"), `run ${i + 1}: no character broken at a read's end`);
    assert.match(out, /THE-END/, `run ${i + 1}: its last line`);
  }
});
