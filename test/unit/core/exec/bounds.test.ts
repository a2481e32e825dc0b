import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ExecRegistry } from "../../../../src/core/exec";
import { tempDir } from "./helpers";

const HUNDRED_MB = 100 * 1024 * 1024;

test("a command printing 100 MB keeps head, tail and the total count with memory and disk bounded", async () => {
  const { dir, cleanup } = tempDir();
  const registry = new ExecRegistry({ execDir: dir, sweepIntervalMs: 0 });
  try {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const script = `echo START; head -c ${HUNDRED_MB} /dev/zero | tr '\\0' 'x'; echo; echo END`;
    const run = registry.start({ command: "sh", args: ["-c", script], cwd: dir });
    const info = await run.exited;
    clearInterval(sampler);
    assert.equal(info.exitCode, 0);
    const total = HUNDRED_MB + "START\n".length + "\nEND\n".length;
    assert.equal(info.bytes, total);
    const head = registry.log(run.id, { head: 16 });
    assert.equal(head.text, "START\nxxxxxxxxxx");
    const tail = registry.log(run.id, { tail: 8 });
    assert.equal(tail.text, "xxx\nEND\n");
    const middle = registry.poll(run.id, 64 * 1024);
    assert.ok(middle.gap && middle.gap.from === 64 * 1024, "the dropped middle is reported as a gap");
    const disk = readdirSync(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
    assert.ok(disk <= 64 * 1024 + 1024 * 1024 + 4096, `disk use stays bounded (${disk} bytes)`);
    const growthMb = (rssPeak - rssBefore) / 1024 / 1024;
    assert.ok(growthMb < 200, `RSS growth ${growthMb.toFixed(1)} MB stays well below the output size`);
  } finally {
    registry.dispose();
    cleanup();
  }
});
