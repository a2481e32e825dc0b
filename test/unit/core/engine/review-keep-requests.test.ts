// Keep, Undo, Keep all and the thread panel's changed-files rows through the engine (#35 item 7): the window's
// engine (`localEngine` given its live ledger and its editor) records a keep, takes a hunk back out of the text the
// user has (through the editor), keeps what is left of a turn, and lists the turn's rows, with no synchronous file
// call; without a live ledger (the CLI's engine) the same requests answer the same. Bad input gets a clear error and
// writes nothing. Real ledger, real files; every reply is plain JSON data.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine, EngineRequest } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { EditorFiles } from "../../../../src/core/ports";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { countFsCalls } from "../fs-calls";
import { turn } from "../ledger/helpers";
import { withTmp } from "../store/helpers";
import { threadWith } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const TEN = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const text = (edit: Record<number, string> = {}) => lines(...TEN.map((l, i) => edit[i] ?? l));
const plain = (x: unknown) => assert.deepStrictEqual(JSON.parse(JSON.stringify(x)), x, "plain JSON data");

interface Setup {
  ws: string;
  store: ThreadStore;
  ledger: EditLedger;
  threadId: string;
  /** Turn 1's operation: a.txt edited at lines 2 and 9 (two hunks), b.txt created. */
  op: string;
  a: string;
}

/** A thread in `ws` whose turn 1 changed a.txt (two hunks) and created b.txt; `cwd`: the thread's recorded folder. */
function withTurn(fn: (s: Setup) => Promise<void>, cwd?: (ws: string, dir: string) => string) {
  return withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const store = new ThreadStore(join(dir, "home"));
    const threadId = threadWith(store, cwd ? cwd(ws, dir) : ws, 0);
    const ledger = new EditLedger({ home: store.home });
    try {
      const a = join(ws, "a.txt");
      writeFileSync(a, text());
      const recorded = await turn(
        ledger,
        ws,
        1,
        () => {
          writeFileSync(a, text({ 1: "TWO", 8: "NINE" }));
          writeFileSync(join(ws, "b.txt"), "new\n");
        },
        threadId,
      );
      await fn({ ws, store, ledger, threadId, op: recorded.op, a });
    } finally {
      ledger.dispose();
    }
  });
}

const rowsOf = (engine: Engine, s: Setup) => engine.call({ op: "review.turnChanges", threadId: s.threadId, cwd: s.ws });

test("the window's engine keeps a hunk, keeps the rest of a turn and lists the turn's row, with no synchronous file call", () =>
  withTurn(async (s) => {
    const engine = localEngine({ store: s.store, ledger: () => s.ledger });
    const first = await countFsCalls(() => rowsOf(engine, s), ["readFile"]);
    plain(first.value);
    assert.deepEqual(first.sync, [], "no synchronous file call");
    assert.deepEqual(first.value, [
      { turn: 1, op: s.op, files: 2, added: 3, removed: 2, pending: 3, names: ["a.txt", "b.txt"] },
    ]);
    const kept = await countFsCalls(
      () => engine.call({ op: "review.keep", threadId: s.threadId, target: s.op, path: s.a, hunk: 0 }),
      ["readFile"],
    );
    assert.deepEqual([kept.value, kept.sync], [{}, []]);
    assert.equal((await rowsOf(engine, s))[0]!.pending, 2, "one hunk fewer to review");
    const all = await countFsCalls(
      () => engine.call({ op: "review.keepAll", threadId: s.threadId, target: s.op }),
      ["readFile"],
    );
    assert.deepEqual([all.value, all.sync], [{ kept: 2 }, []], "a.txt's second hunk and b.txt");
    assert.equal((await rowsOf(engine, s))[0]!.pending, 0);
    assert.deepEqual(await engine.call({ op: "review.keepAll", threadId: s.threadId, target: s.op }), { kept: 0 });
  }));

test("an undo takes one hunk back out of the editor's text and writes through the editor; without one, the disk", () =>
  withTurn(async (s) => {
    // the user typed a line at the top since (unsaved): the undo merges into that text
    const typed = `typed\n${text({ 1: "TWO", 8: "NINE" })}`;
    const written: [string, string][] = [];
    const editor: EditorFiles = {
      currentText: async (p) => (p === s.a ? typed : null),
      isDirty: (p) => p === s.a,
      write: async (p, content) => void written.push([p, Buffer.from(content).toString("utf8")]),
      remove: async () => assert.fail("nothing is removed"),
    };
    const engine = localEngine({ store: s.store, ledger: () => s.ledger, editor });
    const undone = await countFsCalls(
      () => engine.call({ op: "review.undo", threadId: s.threadId, target: s.op, path: s.a, hunk: 1 }),
      ["readFile"],
    );
    plain(undone.value);
    assert.deepEqual(undone.sync, [], "no synchronous file call");
    assert.match(undone.value.op, /^undo-/);
    assert.deepEqual(written, [[s.a, `typed\n${text({ 1: "TWO" })}`]], "hunk 2 taken back, the typed line kept");
    assert.equal(readFileSync(s.a, "utf8"), text({ 1: "TWO", 8: "NINE" }), "the disk left to the editor");
    assert.equal((await rowsOf(engine, s))[0]!.pending, 2, "the undone hunk is no longer pending");
    // the CLI's engine (no live ledger, no editor): the disk is read and written
    s.ledger.dispose();
    const cli = localEngine({ store: s.store });
    const whole = await cli.call({ op: "review.undo", threadId: s.threadId, target: s.op, path: join(s.ws, "b.txt") });
    assert.match(whole.op, /^undo-/);
    assert.throws(() => readFileSync(join(s.ws, "b.txt")), /ENOENT/, "a created file's undo deletes it");
    assert.deepEqual(
      (await cli.call({ op: "review.turnChanges", threadId: s.threadId, cwd: s.ws }))[0]!.pending,
      1,
      "only a.txt's first hunk is left",
    );
  }));

/** What a call throws: its code and message (a reply fails the test). */
async function refused(engine: Engine, req: unknown): Promise<[string, string]> {
  try {
    await engine.call(req as EngineRequest);
  } catch (err) {
    assert.ok(err instanceof AcpThreadsError, String(err));
    return [err.code, err.message];
  }
  return assert.fail(`not refused: ${JSON.stringify(req)}`);
}

test("bad Keep / Undo / Keep all / rows requests get a clear error and write nothing", () =>
  withTurn(async (s) => {
    const engine = localEngine({ store: s.store, ledger: () => s.ledger });
    const { threadId, op, a } = s;
    const cases: [unknown, string, RegExp][] = [
      [{ op: "review.keep", threadId, target: op, path: "a.txt" }, "usage", /review\.keep: 'path' must be an absolute/],
      [{ op: "review.keep", threadId, path: a }, "usage", /review\.keep: 'target' must be a string/],
      [{ op: "review.undo", threadId, target: op, path: a, hunk: -1 }, "usage", /'hunk' must be a number, 0 or more/],
      [{ op: "review.undo", threadId, target: op, path: a, force: 1 }, "usage", /'force' must be true or false/],
      [{ op: "review.keepAll", threadId }, "usage", /review\.keepAll: 'target' must be a string/],
      [{ op: "review.turnChanges", threadId, cwd: "ws" }, "usage", /'cwd' must be an absolute path/],
      [
        { op: "review.keep", threadId, target: op, path: join(s.ws, "c.txt") },
        "not_found",
        /has no change to .*c\.txt/,
      ],
      [{ op: "review.keep", threadId, target: "turn-9", path: a }, "not_found", /has no change to .*a\.txt in turn-9/],
      [{ op: "review.keepAll", threadId, target: "turn-9" }, "not_found", /the ledger has no operation turn-9/],
      [{ op: "review.undo", threadId, target: op, path: a, hunk: 7 }, "not_found", /a\.txt has no hunk 8/],
      [{ op: "review.undo", threadId: "0196a000-0000-7000-8000-0000000000ff", target: op, path: a }, "not_found", /./],
      [{ op: "review.undo", threadId: "../x", target: op, path: a }, "usage", /'\.\.\/x' is not a thread id/],
      [{ op: "review.keep", threadId: "../x", target: op, path: a }, "usage", /'\.\.\/x' is not a thread id/],
      [{ op: "review.keepAll", threadId: "../x", target: op }, "usage", /'\.\.\/x' is not a thread id/],
      [{ op: "review.turnChanges", threadId: "../x", cwd: s.ws }, "usage", /'\.\.\/x' is not a thread id/],
    ];
    for (const [req, code, why] of cases) {
      const [c, message] = await refused(engine, req);
      assert.equal(c, code, `${JSON.stringify(req)}: ${message}`);
      assert.match(message, why);
    }
    assert.equal(readFileSync(a, "utf8"), text({ 1: "TWO", 8: "NINE" }), "nothing written");
    assert.equal((await rowsOf(engine, s))[0]!.pending, 3, "nothing kept or undone");
  }));

test("an undo of a change outside the thread's folders is refused, nothing written (a ledger pointing elsewhere)", () =>
  // the thread's recorded folder is another one than where its ledger says turn 1 wrote
  withTurn(
    async (s) => {
      const engine = localEngine({ store: s.store, ledger: () => s.ledger });
      const [code, message] = await refused(engine, {
        op: "review.undo",
        threadId: s.threadId,
        target: s.op,
        path: s.a,
        hunk: 1,
      });
      assert.equal(code, "path_outside_workspace");
      assert.match(message, /the undo would write outside the thread's folders .*a\.txt; nothing was undone/);
      assert.equal(readFileSync(s.a, "utf8"), text({ 1: "TWO", 8: "NINE" }), "nothing written");
      assert.equal((await rowsOf(engine, s))[0]!.pending, 3, "no undo recorded");
    },
    (_ws, dir) => {
      mkdirSync(join(dir, "elsewhere"));
      return join(dir, "elsewhere");
    },
  ));

test("an undo through a folder swapped for a link out of the thread's folder is refused, nothing written there", () =>
  withTmp(async (dir) => {
    const ws = join(dir, "ws");
    const d = join(ws, "d");
    mkdirSync(d, { recursive: true });
    const store = new ThreadStore(join(dir, "home"));
    const threadId = threadWith(store, ws, 0);
    const ledger = new EditLedger({ home: store.home });
    try {
      const f = join(d, "f.txt");
      writeFileSync(f, text());
      const { op } = await turn(ledger, ws, 1, () => writeFileSync(f, text({ 1: "TWO" })), threadId);
      // d is now a link to a folder elsewhere holding a file with the turn's text: the undo would write it there
      const outside = join(dir, "outside");
      mkdirSync(outside);
      writeFileSync(join(outside, "f.txt"), text({ 1: "TWO" }));
      rmSync(d, { recursive: true });
      symlinkSync(outside, d);
      const engine = localEngine({ store, ledger: () => ledger });
      const [code, message] = await refused(engine, { op: "review.undo", threadId, target: op, path: f, hunk: 0 });
      assert.equal(code, "path_outside_workspace");
      assert.match(message, /the undo would write outside the thread's folders .*f\.txt; nothing was undone/);
      assert.equal(readFileSync(join(outside, "f.txt"), "utf8"), text({ 1: "TWO" }), "nothing written there");
    } finally {
      ledger.dispose();
    }
  }));
