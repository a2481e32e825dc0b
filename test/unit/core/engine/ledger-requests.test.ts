// #35 item 7, the edit ledger's read and restore side on the engine requests. A restore names a thread, a turn and
// optionally files the ledger recorded; the engine plans what to write from its own records. Hostile: a request
// naming a `..` path or a file the ledger never recorded, a ledger record pointing outside the thread's folders, and
// a thread another process writes are refused and nothing is written, in process and over the host's socket.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { turn } from "../ledger/helpers";
import { startInput } from "../store/helpers";

const refused = (code: string, why: RegExp) => (err: unknown) =>
  err instanceof AcpThreadsError && err.code === code && why.test(err.message);

/**
 * A thread working in `<dir>/ws` whose ledger has turn 1 (a.txt modified), turn 2 (b.txt added) and turn 3, which
 * the ledger recorded as writing `<dir>/outside/victim.txt`, outside the thread's folder (a record pointing elsewhere).
 */
async function world(dir: string, home: string) {
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const store = new ThreadStore(home);
  const h = store.create(startInput(ws));
  h.close();
  const threadId = h.threadId;
  const outside = join(dir, "outside");
  mkdirSync(outside);
  const victim = join(outside, "victim.txt");
  writeFileSync(join(ws, "a.txt"), "a0\n");
  writeFileSync(victim, "v0\n");
  const ledger = new EditLedger({ home });
  try {
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "a.txt"), "a1\n"), threadId);
    await turn(ledger, ws, 2, () => writeFileSync(join(ws, "b.txt"), "b\n"), threadId);
    await turn(ledger, outside, 3, () => writeFileSync(victim, "precious\n"), threadId);
  } finally {
    ledger.dispose();
  }
  return { store, threadId, ws, victim };
}

/** The refusals a client (in process or over the socket) gets; nothing is written by any of them. */
async function hostileRestores(engine: Engine, w: Awaited<ReturnType<typeof world>>): Promise<void> {
  const { threadId, ws, victim } = w;
  const a = join(ws, "a.txt");
  const attempts: [Record<string, unknown>, string, RegExp][] = [
    [{ turn: 3 }, "path_outside_workspace", /would write outside the thread's folders .*victim\.txt; nothing was/],
    [{ turn: 1 }, "path_outside_workspace", /victim\.txt/],
    [{ turn: 1, files: [victim] }, "path_outside_workspace", /victim\.txt/],
    [{ turn: 1, files: [`${ws}/../victim.txt`] }, "usage", /is not a plain absolute path/],
    [{ turn: 1, files: [`${ws}/sub/../a.txt`] }, "usage", /is not a plain absolute path/],
    [
      { turn: 1, files: [join(ws, "never.txt")] },
      "usage",
      /has no change to .*never\.txt to restore \(from turn 1 on\)/,
    ],
    [{ turn: 2, files: [a] }, "usage", /has no change to .*a\.txt to restore \(from turn 2 on\)/],
    [{ turn: 1, files: ["a.txt"] }, "usage", /ledger\.restore: 'files' must be a list of absolute paths/],
    [{ turn: 1, undo: true }, "usage", /give exactly one of 'turn', 'target', 'undo' and 'fromTurn'/],
    [{}, "usage", /give exactly one of/],
  ];
  for (const [more, code, why] of attempts)
    // a preview writes nothing: it shows what a restore would refuse to write outside
    for (const dryRun of code === "path_outside_workspace" ? [false] : [false, true])
      await assert.rejects(
        engine.call({ op: "ledger.restore", threadId, dryRun, ...more } as never),
        refused(code, why),
        JSON.stringify(more),
      );
  const preview = await engine.call({ op: "ledger.restore", threadId, turn: 3, dryRun: true });
  assert.deepEqual(
    preview.plan?.items.map((i) => [i.action, i.path]),
    [["revert", victim]],
  );
  assert.deepEqual(preview.rels, [victim], "outside the thread's folder: the absolute path");
  assert.equal(readFileSync(victim, "utf8"), "precious\n", "the file outside is not written");
  assert.equal(readFileSync(a, "utf8"), "a1\n", "nor the thread's own");
  assert.ok(existsSync(join(ws, "b.txt")));
  const { ops } = await engine.call({ op: "ledger.changes", threadId });
  assert.deepEqual(
    ops.map((o) => o.op),
    ["turn-1", "turn-2", "turn-3"],
    "no restore was recorded",
  );
}

test("hostile: a restore naming a `..` path, a file never recorded, or writing outside the thread's folders is refused; nothing written", () =>
  withCliHost("acp-ledger-engine-", async ({ dir, home }) => {
    const w = await world(dir, home);
    const engine = localEngine({ home });
    await hostileRestores(engine, w);
    // the files the ledger has, inside the thread's folder, are restored: a.txt only
    const a = join(w.ws, "a.txt");
    const only = await engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 1, files: [a] });
    assert.deepEqual(only.rels, ["a.txt"]);
    assert.deepEqual(
      only.plan?.items.map((i) => [i.action, i.path]),
      [["revert", a]],
    );
    assert.equal(only.result?.files, 1);
    assert.equal(readFileSync(a, "utf8"), "a0\n");
    assert.ok(existsSync(join(w.ws, "b.txt")), "a file not named is left alone");
    assert.equal(readFileSync(w.victim, "utf8"), "precious\n");
    // and undone
    const undo = await engine.call({ op: "ledger.restore", threadId: w.threadId, undo: true });
    assert.equal(undo.result?.files, 1);
    assert.equal(readFileSync(a, "utf8"), "a1\n");
  }));

test("hostile: over the host's socket, the same restores are refused and nothing is written", () =>
  withCliHost("acp-ledger-engine-", async ({ dir, home }) => {
    const w = await world(dir, home);
    const conn = await connectHost({ home, client: "ledger engine test" });
    assert.ok(conn);
    try {
      await hostileRestores(conn.asEngine, w);
      const local = localEngine({ home });
      for (const req of [
        { op: "ledger.changes", threadId: w.threadId, patch: true },
        { op: "ledger.changes", threadId: w.threadId, turn: 9 },
        { op: "handoff.brief", threadId: w.threadId },
        { op: "ledger.restore", threadId: w.threadId, fromTurn: 2, files: [join(w.ws, "b.txt")], dryRun: true },
      ] as const)
        assert.deepStrictEqual(await conn.asEngine.call(req), await local.call(req), req.op);
    } finally {
      conn.close();
    }
  }));

test("a restore of a thread another process writes is not made (heldBy); a change since refuses with the plan", () =>
  withCliHost("acp-ledger-engine-", async ({ dir, home }) => {
    const w = await world(dir, home);
    const engine = localEngine({ home });
    const b = join(w.ws, "b.txt");
    const held = new ThreadStore(home).open(w.threadId);
    const reply = await engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 2, files: [b] });
    assert.equal(reply.heldBy, process.pid);
    assert.equal(reply.result, undefined);
    assert.ok(existsSync(b), "nothing written while another writer holds the thread");
    held.close();
    writeFileSync(b, "b by hand\n");
    const changed = await engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 2, files: [b] });
    assert.equal(changed.refused?.code, "usage");
    assert.deepEqual(changed.refused?.details, { conflicts: [b] });
    assert.equal(changed.plan?.items[0]?.conflict, true);
    assert.equal(readFileSync(b, "utf8"), "b by hand\n");
    const forced = await engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 2, files: [b], force: true });
    assert.match(forced.result!.op, /^restore-/);
    assert.equal(existsSync(b), false);
    // a rewind from a turn that changed nothing since: no plan
    const changes = await engine.call({ op: "ledger.changes", threadId: w.threadId, turn: 2, patch: true });
    assert.match(changes.patch!, /^# turn 2 \(Fake\): 1 file\(s\)\n/);
    assert.equal(changes.ops[0]?.restoredBy, forced.result!.op);
    assert.deepEqual(await engine.call({ op: "ledger.restore", threadId: w.threadId, fromTurn: 4 }), { plan: null });
  }));
