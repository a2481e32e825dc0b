// The window's Restore through the engine (#35): `localEngine` given the window's live ledger and its editor (the
// `EditorFiles` port, ports.ts) plans `ledger.restore` against unsaved buffers (an unsaved one is a file changed
// since), writes through the editor, records the restore in that same ledger, and checks the thread's folders as
// the CLI's restore does: a recorded second folder is restored, a file outside every folder is refused before
// anything is written (the preview names it: `outside`); a restore that `expect`s its preview's plan is refused as
// stale once the plan differs. The editor here is a plain object over the disk.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import { AcpThreadsError } from "../../../../src/core/errors";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { EditorFiles } from "../../../../src/core/ports";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withTmp, startInput } from "../store/helpers";
import { turn } from "../ledger/helpers";

/** An editor over the disk: `unsaved` buffers win over it, and each write or removal is listed (then done on disk). */
function fakeEditor(): EditorFiles & { unsaved: Map<string, string>; done: string[] } {
  const unsaved = new Map<string, string>();
  const done: string[] = [];
  return {
    unsaved,
    done,
    currentText: async (p) => {
      if (unsaved.has(p)) return unsaved.get(p)!;
      try {
        return readFileSync(p, "utf8");
      } catch {
        return null;
      }
    },
    isDirty: (p) => unsaved.has(p),
    write: async (p, content) => {
      done.push(`write ${p}`);
      unsaved.delete(p);
      writeFileSync(p, content);
    },
    remove: async (p) => {
      done.push(`remove ${p}`);
      rmSync(p, { force: true });
    },
  };
}

/**
 * A thread in `<dir>/ws` that recorded `<dir>/second` among its folders; turn 1 changed ws/a.txt (a0 → a1), turn 2
 * second/s.txt (s0 → s1), turn 3 `<dir>/outside/victim.txt`, in no folder of the thread (v0 → v1).
 */
async function world(dir: string) {
  const home = join(dir, "home");
  const [ws, second, outside] = ["ws", "second", "outside"].map((f) => join(dir, f));
  for (const f of [ws, second, outside]) mkdirSync(f);
  const store = new ThreadStore(home);
  const h = store.create(startInput(ws));
  h.close();
  store.patchMetadata(h.threadId, { folders: [ws, second] });
  const [a, s, victim] = [join(ws, "a.txt"), join(second, "s.txt"), join(outside, "victim.txt")];
  writeFileSync(a, "a0\n");
  writeFileSync(s, "s0\n");
  writeFileSync(victim, "v0\n");
  const live = new EditLedger({ home, walkWorker: false });
  await turn(live, ws, 1, () => writeFileSync(a, "a1\n"), h.threadId);
  await turn(live, second, 2, () => writeFileSync(s, "s1\n"), h.threadId);
  await turn(live, outside, 3, () => writeFileSync(victim, "v1\n"), h.threadId);
  let asked = 0;
  const editor = fakeEditor();
  const engine = localEngine({ store, ledger: () => (asked++, live), editor });
  return { store, dir, threadId: h.threadId, a, s, victim, live, editor, engine, asked: () => asked };
}

/** Runs `fn` over a new world, its live ledger disposed after. */
const withWorld = (fn: (w: Awaited<ReturnType<typeof world>>) => Promise<void>) =>
  withTmp(async (dir) => {
    const w = await world(dir);
    try {
      await fn(w);
    } finally {
      w.live.dispose();
    }
  });

test("the window's restore: planned against unsaved text, written through the editor, in its live ledger; a recorded second folder is restored", () =>
  withWorld(async (w) => {
    const { threadId, a, s, editor, engine } = w;
    w.editor.unsaved.set(a, "a1 and an unsaved edit\n");
    const preview = await engine.call({ op: "ledger.restore", threadId, turn: 1, files: [a, s], dryRun: true });
    assert.deepEqual(
      preview.plan?.items.map((i) => [i.path, i.action, i.conflict]),
      [
        [s, "revert", false],
        [a, "revert", true],
      ],
      "the unsaved buffer is a change since",
    );
    assert.equal(preview.outside, undefined);
    const refused = await engine.call({ op: "ledger.restore", threadId, turn: 1, files: [a, s] });
    assert.deepEqual(refused.refused?.details, { conflicts: [a] });
    assert.deepEqual(editor.done, [], "nothing written");
    // the thread held by another writer (the thread host running it): the window's own restore is still made
    const held = new ThreadStore(w.store.home).open(threadId);
    const made = await engine.call({ op: "ledger.restore", threadId, turn: 1, files: [a, s], force: true });
    held.close();
    assert.equal(made.heldBy, undefined);
    assert.equal(made.result?.files, 2);
    assert.deepEqual(editor.done.sort(), [`write ${a}`, `write ${s}`].sort(), "through the editor");
    assert.equal(readFileSync(a, "utf8"), "a0\n");
    assert.equal(readFileSync(s, "utf8"), "s0\n", "the recorded second folder's file is back");
    assert.equal(w.live.read(threadId).ops.at(-1)?.op, made.result?.op, "recorded in the live ledger");
    assert.ok(w.asked() >= 3, "every request went through the live ledger");
  }));

test("hostile: through the editor, a file outside every folder of the thread is named by the preview and refused; nothing written", () =>
  withWorld(async (w) => {
    const { threadId, victim, editor, engine } = w;
    for (const req of [{ turn: 3 }, { turn: 1 }, { target: "turn-3" }, { fromTurn: 2 }]) {
      const preview = await engine.call({ op: "ledger.restore", threadId, ...req, dryRun: true });
      assert.equal(preview.outside?.code, "path_outside_workspace", JSON.stringify(req));
      assert.deepEqual(preview.outside?.details?.outside, [victim]);
      assert.match(preview.outside?.message ?? "", /victim\.txt; nothing was restored$/);
      await assert.rejects(
        engine.call({ op: "ledger.restore", threadId, ...req, force: true }),
        (err: unknown) => err instanceof AcpThreadsError && err.code === "path_outside_workspace",
      );
    }
    assert.deepEqual(editor.done, [], "nothing written through the editor");
    assert.equal(readFileSync(victim, "utf8"), "v1\n");
    assert.deepEqual(
      w.live.read(threadId).ops.map((o) => o.type),
      ["turn", "turn", "turn"],
      "no restore recorded",
    );
  }));

test("a restore that expects its preview's plan: made while the plan is the same; stale (nothing written) once it is not", () =>
  withWorld(async (w) => {
    const { threadId, a, editor, engine } = w;
    const restore = { op: "ledger.restore", threadId, turn: 1, files: [a] } as const;
    const { planKey } = await engine.call({ ...restore, dryRun: true });
    assert.match(planKey ?? "", /^[0-9a-f]{32}$/);
    assert.equal((await engine.call({ ...restore, dryRun: true })).planKey, planKey, "the same plan, the same key");
    const isStale = (r: { refused?: { details?: Record<string, unknown>; message: string } }) =>
      r.refused?.details?.stale === true && /changed since the restore's preview/.test(r.refused.message);
    // a key that is no preview's, a buffer edited since, a turn recorded since: each is stale, nothing written
    assert.ok(isStale(await engine.call({ ...restore, expect: "not a key" })));
    editor.unsaved.set(a, "a1, edited while the preview was open\n");
    assert.ok(isStale(await engine.call({ ...restore, expect: planKey!, force: true })));
    editor.unsaved.delete(a);
    await turn(w.live, join(w.dir, "ws"), 4, () => writeFileSync(a, "a4\n"), threadId);
    assert.ok(isStale(await engine.call({ ...restore, expect: planKey! })));
    assert.deepEqual(editor.done, [], "nothing written");
    assert.equal(readFileSync(a, "utf8"), "a4\n");
    // the new preview's key: made
    const again = await engine.call({ ...restore, dryRun: true });
    assert.notEqual(again.planKey, planKey);
    const made = await engine.call({ ...restore, expect: again.planKey! });
    assert.equal(made.result?.files, 1);
    assert.equal(readFileSync(a, "utf8"), "a0\n");
  }));
