// `acp-threads restore` and `rewind` write only inside the thread's folders (#35 item 7): a turn the ledger recorded
// in another folder is shown by --dry-run, and the restore is refused naming it, with nothing written.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { main as restore } from "../../../../src/cli/commands/restore";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput } from "../../core/store/helpers";
import { turn, withLedger } from "../../core/ledger/helpers";
import { runCommand } from "../in-process";

test("restore shows a file outside the thread's folder in its plan and refuses to write it (exit 1, nothing written)", () =>
  withLedger(async (ws, ledger) => {
    const home = dirname(ledger.dir);
    const h = new ThreadStore(home).create(startInput(ws));
    h.close();
    const outside = join(dirname(ws), "outside");
    mkdirSync(outside);
    const victim = join(outside, "victim.txt");
    writeFileSync(join(ws, "a.txt"), "a0\n");
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "a.txt"), "a1\n"), h.threadId);
    await turn(ledger, outside, 2, () => writeFileSync(victim, "precious\n"), h.threadId);
    const cli = (...argv: string[]) => runCommand(restore, argv, { home, cwd: ws });
    const dry = await cli(h.threadId, "--turn", "1", "--dry-run");
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /revert {3}a\.txt/);
    assert.ok(dry.out.includes(`delete   ${victim}`), dry.out);
    const refused = await cli(h.threadId, "--turn", "1", "--force");
    assert.equal(refused.code, 1);
    assert.match(refused.err, /would write outside the thread's folders .*victim\.txt; nothing was restored/);
    assert.equal(readFileSync(victim, "utf8"), "precious\n");
    assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a1\n", "nothing written, the thread's own file neither");
  }));

test("restore refuses a file whose folder was swapped for a link out of the thread's folder (nothing written there)", () =>
  // turn 1 made d/key.txt, turn 2 deleted it; then d became a link to a folder elsewhere (an agent's terminal can do
  // that): going back to before turn 2 would write d/key.txt through the link, outside the thread's folder
  withLedger(async (ws, ledger) => {
    const home = dirname(ledger.dir);
    const h = new ThreadStore(home).create(startInput(ws));
    h.close();
    const d = join(ws, "d");
    mkdirSync(d);
    await turn(ledger, ws, 1, () => writeFileSync(join(d, "key.txt"), "attacker key\n"), h.threadId);
    await turn(ledger, ws, 2, () => rmSync(join(d, "key.txt")), h.threadId);
    const outside = join(dirname(ws), "outside-ssh");
    mkdirSync(outside);
    rmSync(d, { recursive: true });
    symlinkSync(outside, d);
    const refused = await runCommand(restore, [h.threadId, "--turn", "2", "--force"], { home, cwd: ws });
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.err, /would write outside the thread's folders .*key\.txt; nothing was restored/);
    assert.deepEqual(readdirSync(outside), [], "nothing written through the link");
  }));
