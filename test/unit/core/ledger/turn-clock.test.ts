// #36 item 6: the workspace file system's clock read at a turn's start (turn-clock.ts). A change made before
// `now()` has a ctime at or before the time it returns, a change made after it a later one — every time, with no
// pause between them (the kernel's coarse timestamps: two writes in one tick share a time).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TurnClock } from "../../../../src/core/ledger/turn-clock";
import { withTmp } from "../store/helpers";

test("a change before now() has a ctime at or before it, a change after it a later one (50 times, no pause)", () =>
  withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const clock = await TurnClock.open(ws, dir);
    assert.ok(clock, "the clock of a local Linux file system can be read");
    for (let i = 0; i < 50; i++) {
      writeFileSync(join(ws, "before.txt"), `${i}\n`);
      const since = await clock.now();
      assert.notEqual(since, undefined);
      writeFileSync(join(ws, "after.txt"), `${i}\n`);
      assert.ok(lstatSync(join(ws, "before.txt")).ctimeMs <= since!, `round ${i}: before`);
      assert.ok(lstatSync(join(ws, "after.txt")).ctimeMs > since!, `round ${i}: after`);
    }
    assert.equal((lstatSync(join(dir, "turn-clock")).mode & 0o777).toString(8), "600");
  }));

test("no clock on another OS, or when the ledger's folder is on another file system than the workspace", () =>
  withTmp(async (dir) => {
    assert.equal(await TurnClock.open(dir, dir, "darwin"), undefined);
    assert.equal(await TurnClock.open(dir, dir, "win32"), undefined);
    assert.equal(await TurnClock.open(dir, join(dir, "no", "such", "folder")), undefined);
    // /dev/shm (tmpfs) is another file system than the temporary folder on most Linux machines
    if (!existsSync("/dev/shm") || lstatSync("/dev/shm").dev === lstatSync(dir).dev) return;
    const other = mkdtempSync("/dev/shm/turn-clock-");
    try {
      assert.equal(await TurnClock.open(other, dir), undefined);
      assert.ok(await TurnClock.open(other, other), "tmpfs alone has a clock");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }));
