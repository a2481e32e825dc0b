// `acp-threads restore` and `rewind` write only inside the thread's folders (#35 item 7): a turn the ledger recorded
// in another folder is shown by --dry-run, and the restore is refused naming it, with nothing written.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
