// Inline review through the engine (#35 item 7): the window's engine (`localEngine` given its live ledger) places a
// reviewed file's pending hunks from what it read once (each watched thread's ledger, the file's two versions, with
// fs/promises) and keeps, so a placement asked on every keystroke reads nothing; `review.forget` lets a thread's
// part go once it recorded more, and `review.author` names the thread a file's review comments go to. Without a
// live ledger (the CLI's engine, the host's socket) each request reads afresh and answers the same. Real ledger,
// real files; every reply is plain JSON data.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine, EngineReplies } from "../../../../src/core/engine/requests";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { keepChange } from "../../../../src/core/ledger/review";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { countFsCalls } from "../fs-calls";
import { OTHER_THREAD, THREAD, turn } from "../ledger/helpers";
import { withTmp } from "../store/helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const TEN = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const text = (edit: Record<number, string> = {}) => lines(...TEN.map((l, i) => edit[i] ?? l));

type Placed = EngineReplies["review.placed"];
const where = (placed: Placed) => placed.map((p) => [p.start, p.end, p.turn, p.hunk]);
const plain = (x: unknown) => assert.deepStrictEqual(JSON.parse(JSON.stringify(x)), x, "plain JSON data");

/** A home with a live ledger and the window's engine over both; `ws` the workspace. */
function withReview(fn: (o: { ws: string; home: string; ledger: EditLedger; engine: Engine }) => Promise<void>) {
  return withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const home = join(dir, "home");
    const ledger = new EditLedger({ home });
    const engine = localEngine({ store: new ThreadStore(home), ledger: () => ledger });
    try {
      await fn({ ws, home, ledger, engine });
    } finally {
      ledger.dispose();
    }
  });
}

test("the window's engine places a reviewed file's hunks from one read of each ledger and version; typing reads nothing", () =>
  withReview(async ({ ws, ledger, engine }) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, text());
    await turn(ledger, ws, 1, () => writeFileSync(f, text({ 1: "TWO", 8: "NINE" })));
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "b.txt"), "other\n"), OTHER_THREAD);
    const place = (t: string) =>
      engine.call({ op: "review.placed", threads: [THREAD, OTHER_THREAD], path: f, text: t });
    const first = await countFsCalls(() => place(text({ 1: "TWO", 8: "NINE" })), ["readFile"]);
    plain(first.value);
    assert.deepEqual(where(first.value), [
      [1, 2, 1, 0],
      [8, 9, 1, 1],
    ]);
    const op = first.value[0]!.op;
    assert.deepEqual(first.value[0], {
      threadId: THREAD,
      op,
      turn: 1,
      path: f,
      hunk: 0,
      type: "turn",
      agent: "Fake",
      start: 1,
      end: 2,
      removes: true,
    });
    assert.deepEqual(first.sync, [], "no synchronous file call");
    assert.equal(first.paths.filter((p) => p.endsWith(".jsonl")).length, 2, "each thread's ledger once");
    assert.equal(first.paths.length, 4, "and a.txt's two versions");
    let typed = text({ 1: "TWO", 8: "NINE" });
    const typing = await countFsCalls(async () => {
      let last: Placed = [];
      for (let i = 0; i < 20; i++) last = await place((typed = `typed ${i}\n${typed}`));
      return last;
    }, ["readFile"]);
    assert.deepEqual([typing.paths, typing.sync], [[], []], "nothing read while typing");
    assert.deepEqual(where(typing.value), [
      [21, 22, 1, 0],
      [28, 29, 1, 1],
    ]);
    // a Keep: until the window forgets the thread, what was read is served; then the kept hunk is gone
    await keepChange(ledger, THREAD, { op, path: f, hunk: 0 });
    assert.equal((await place(typed)).length, 2, "kept until forgotten");
    assert.deepEqual(await engine.call({ op: "review.forget", threadId: THREAD }), {});
    const after = await countFsCalls(() => place(typed), ["readFile"]);
    assert.deepEqual(where(after.value), [[28, 29, 1, 1]]);
    assert.equal(after.paths.filter((p) => p.endsWith(".jsonl")).length, 1, "only the forgotten thread's ledger again");
  }));

test("review.author names the last of the watched threads to change the file; forgetting a thread reads its new turns", () =>
  withReview(async ({ ws, ledger, engine }) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, text());
    const author = async (threads: string[], path = f) =>
      (await engine.call({ op: "review.author", threads, path })).threadId;
    await turn(ledger, ws, 1, () => writeFileSync(f, text({ 1: "TWO" })));
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "b.txt"), "b\n"), OTHER_THREAD);
    assert.equal(await author([THREAD, OTHER_THREAD]), THREAD);
    assert.equal(await author([OTHER_THREAD]), undefined, "the other thread never changed a.txt");
    assert.equal(await author([THREAD, OTHER_THREAD], join(ws, "c.txt")), undefined);
    await turn(ledger, ws, 2, () => writeFileSync(f, text({ 1: "TWO", 5: "SIX" })), OTHER_THREAD);
    assert.equal(await author([THREAD, OTHER_THREAD]), THREAD, "the other thread's view is kept until forgotten");
    await engine.call({ op: "review.forget", threadId: OTHER_THREAD });
    assert.equal(await author([THREAD, OTHER_THREAD]), OTHER_THREAD, "its turn 2 changed a.txt last");
    const placed = await engine.call({
      op: "review.placed",
      threads: [THREAD, OTHER_THREAD],
      path: f,
      text: text({ 1: "TWO", 5: "SIX" }),
    });
    assert.deepEqual(
      placed.map((p) => [p.threadId, p.start, p.turn]),
      [
        [THREAD, 1, 1],
        [OTHER_THREAD, 5, 2],
      ],
    );
  }));

test("without a live ledger the engine reads afresh for each placement and answers the same", () =>
  withReview(async ({ ws, home, ledger, engine }) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, text());
    await turn(ledger, ws, 1, () => writeFileSync(f, text({ 1: "TWO", 8: "NINE" })));
    const cli = localEngine({ home });
    const req = { op: "review.placed", threads: [THREAD], path: f, text: text({ 1: "TWO", 8: "NINE" }) } as const;
    const windowPlaced = await engine.call(req);
    for (let i = 0; i < 2; i++) {
      const { value, paths } = await countFsCalls(() => cli.call(req), ["readFile"]);
      assert.deepEqual(value, windowPlaced);
      assert.equal(paths.filter((p) => p.endsWith(".jsonl")).length, 1, `placement ${i + 1} reads the ledger`);
    }
    assert.deepEqual(await cli.call({ op: "review.forget", threadId: THREAD }), {}, "nothing kept, nothing to forget");
  }));
