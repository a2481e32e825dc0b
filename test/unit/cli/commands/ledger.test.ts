// `acp-threads changes` and `acp-threads restore` on a thread whose ledger has two turns.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { main as changes } from "../../../../src/cli/commands/changes";
import { main as restore } from "../../../../src/cli/commands/restore";
import { main as execMain } from "../../../../src/cli/commands/exec";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput } from "../../core/store/helpers";
import { turn, withLedger } from "../../core/ledger/helpers";
import { runCommand } from "../in-process";

test("changes lists each turn's files (text, json, patch); restore refuses over later edits, --force, --undo", () =>
  withLedger(async (ws, ledger) => {
    const home = dirname(ledger.dir);
    const h = new ThreadStore(home).create(startInput(ws));
    h.close();
    const id = h.threadId;
    writeFileSync(join(ws, "a.txt"), "a0\n");
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "a.txt"), "a1\n"), id);
    await turn(ledger, ws, 2, () => writeFileSync(join(ws, "b.txt"), "b\n"), id);
    const cli = (main: typeof changes, ...argv: string[]) => runCommand(main, argv, { home, cwd: ws });

    const text = await cli(changes, id.slice(0, 13));
    assert.equal(text.code, 0, text.err);
    assert.match(
      text.out,
      /^turn 1 {2}Fake {2}\(end_turn\) .* 1 file changed\n {2}M a\.txt\nturn 2 .*\n {2}A b\.txt\n$/,
    );
    const json = JSON.parse((await cli(changes, id, "--turn", "2", "--format", "json")).out);
    assert.deepEqual(
      json.ops.map((o: { turn: number; files: { rel: string; change: string }[] }) => [o.turn, o.files]),
      [[2, [json.ops[0].files[0]]]],
    );
    assert.equal(json.ops[0].files[0].rel, "b.txt");
    assert.equal(json.ops[0].files[0].change, "added");
    const patch = await cli(changes, id, "--format", "patch", "--turn", "1");
    assert.match(patch.out, /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1 \+1 @@\n-a0\n\+a1\n/);
    const none = await cli(changes, id, "--turn", "9");
    assert.equal(none.code, 1);
    assert.match(none.err, /no recorded changes in turn 9/);

    writeFileSync(join(ws, "a.txt"), "a by hand\n");
    const dry = await cli(restore, id, "--turn", "1", "--dry-run");
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /revert {3}a\.txt .*CHANGED SINCE/);
    assert.match(dry.out, /delete {3}b\.txt/);
    const refused = await cli(restore, id, "--turn", "1");
    assert.equal(refused.code, 2);
    assert.match(refused.err, /a\.txt.*Confirm to overwrite/);
    assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a by hand\n");
    const forced = await cli(restore, id, "--turn", "1", "--force");
    assert.equal(forced.code, 0, forced.err);
    assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a0\n");
    assert.equal(existsSync(join(ws, "b.txt")), false);
    // the turns the restore took back say so, in text and JSON
    const afterRestore = await cli(changes, id);
    assert.match(afterRestore.out, /^turn 1 .* restored by restore-\w+/m);
    assert.match(afterRestore.out, /^turn 2 .* restored by restore-\w+/m);
    const restoredJson = JSON.parse((await cli(changes, id, "--format", "json")).out) as {
      ops: { type: string; restoredBy?: string }[];
    };
    assert.deepEqual(
      restoredJson.ops.filter((o) => o.type === "turn").map((o) => /^restore-/.test(o.restoredBy ?? "")),
      [true, true],
    );
    const undo = await cli(restore, id, "--undo");
    assert.equal(undo.code, 0, undo.err);
    assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a by hand\n");
    assert.equal(readFileSync(join(ws, "b.txt"), "utf8"), "b\n");
    const listed = await cli(changes, id);
    assert.match(listed.out, /restore restore-\w+ to before turn-1 {2}\(overwrote later edits\)/);
    assert.doesNotMatch(listed.out, /restored by/, "the undo brought both turns back");
    const usage = await cli(restore, id);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /exactly one of --turn N, --undo and --op OP/);
  }));

test("acp-threads exec records the run's file changes; changes shows them as turn 1", () =>
  withLedger(async (ws, ledger) => {
    const home = dirname(ledger.dir);
    writeFileSync(join(ws, "a.txt"), "before\n");
    const run = await runCommand(
      execMain,
      ["--cwd", ws, "--format", "json", "--", "sh", "-c", "echo after > a.txt; echo new > b.txt"],
      { home, cwd: ws, env: process.env },
    );
    assert.equal(run.code, 0, run.err);
    const exit = JSON.parse(run.out.trim().split("\n").at(-1)!);
    const listed = await runCommand(changes, [exit.run.threadId, "--format", "json"], { home, cwd: ws });
    const [op] = JSON.parse(listed.out).ops;
    assert.equal(op.turn, 1);
    assert.deepEqual(op.files.map((f: { rel: string; change: string }) => `${f.change} ${f.rel}`).sort(), [
      "added b.txt",
      "modified a.txt",
    ]);
  }));
