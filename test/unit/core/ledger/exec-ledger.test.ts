// Exec runs in the edit ledger: a command that writes, creates and deletes files in its folder is one turn of
// its exec thread; the versions before the run come from the baseline prepared before the process started.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openExecRegistry } from "../../../../src/core/exec";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { LedgerExecRecorder } from "../../../../src/core/ledger/exec-recorder";
import { findTurn } from "../../../../src/core/ledger/ledger-view";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { withTmp } from "../store/helpers";

test("an exec run's file changes are turn 1 of its thread, and restorable", () =>
  withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    writeFileSync(join(ws, "keep.txt"), "before\n");
    writeFileSync(join(ws, "gone.txt"), "bye\n");
    const home = join(dir, "home");
    const ledger = new EditLedger({ home });
    const registry = openExecRegistry(home, {
      sweepIntervalMs: 0,
      wrapRecorder: (threads) => new LedgerExecRecorder(ledger, threads),
    });
    try {
      await registry.prepare(ws);
      const run = registry.start({
        command: "sh",
        args: ["-c", "echo after > keep.txt; echo new > new.txt; rm gone.txt"],
        cwd: ws,
      });
      const info = await run.exited;
      await ledger.flush();
      const view = ledger.read(info.threadId!);
      const t1 = findTurn(view, 1)!;
      assert.equal(t1.summary?.status, "exit 0");
      assert.equal(t1.summary?.agent?.id, "exec");
      const text = (s: { id: string | null } | null) => (s?.id ? ledger.blobs.getText(s.id) : s);
      assert.deepEqual(t1.files.map((f) => [f.path.slice(ws.length + 1), text(f.before), text(f.after)]).sort(), [
        ["gone.txt", "bye\n", null],
        ["keep.txt", "before\n", "after\n"],
        ["new.txt", null, "new\n"],
      ]);
      await applyRestore(ledger, await planRestore(ledger, info.threadId!, { turn: 1 }), { cwd: ws });
      assert.equal(readFileSync(join(ws, "keep.txt"), "utf8"), "before\n");
      assert.equal(readFileSync(join(ws, "gone.txt"), "utf8"), "bye\n");
    } finally {
      await registry.shutdown(true);
      registry.dispose();
      ledger.dispose();
    }
  }));
