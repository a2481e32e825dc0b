// A thread's recorded folders (`folders`, thread/folders.ts) count as its folders for `ledger.restore` (#35): a
// restore of a turn that wrote into a second folder its session was allowed is made. Hostile: the field is data from
// disk, so a recorded `/`, a relative path, a `..` path or garbage never widens what a restore may write; a file
// outside every recorded folder is still refused, and nothing is written.
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import { AcpThreadsError } from "../../../../src/core/errors";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { MetadataPatch } from "../../../../src/core/model/records";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { turn } from "../ledger/helpers";
import { startInput } from "../store/helpers";

/** A thread in `<dir>/ws` whose one turn wrote `<dir>/second/s.txt` (s0 → s1) and `<dir>/third/t.txt` (t0 → t1). */
async function twoFolders(dir: string, home: string) {
  const [ws, second, third] = ["ws", "second", "third"].map((f) => join(dir, f));
  for (const f of [ws, second, third]) mkdirSync(f);
  const store = new ThreadStore(home);
  const h = store.create(startInput(ws));
  h.close();
  const s = join(second, "s.txt");
  const t = join(third, "t.txt");
  writeFileSync(s, "s0\n");
  writeFileSync(t, "t0\n");
  const ledger = new EditLedger({ home });
  try {
    await turn(ledger, second, 1, () => writeFileSync(s, "s1\n"), h.threadId);
    await turn(ledger, third, 2, () => writeFileSync(t, "t1\n"), h.threadId);
  } finally {
    ledger.dispose();
  }
  return { store, threadId: h.threadId, ws, second, third, s, t };
}

const outsideRefusal = (why: RegExp) => (err: unknown) =>
  err instanceof AcpThreadsError && err.code === "path_outside_workspace" && why.test(err.message);

test("a turn that wrote into a recorded second folder is restored; one outside every recorded folder is refused", () =>
  withCliHost("acp-ledger-folders-", async ({ dir, home }) => {
    const w = await twoFolders(dir, home);
    const engine = localEngine({ home });
    // before the thread records its folders (an older thread): only its cwd, as before
    await assert.rejects(
      engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 1, files: [w.s] }),
      outsideRefusal(/s\.txt; nothing was restored$/),
    );
    w.store.patchMetadata(w.threadId, { folders: [w.ws, w.second] });
    assert.deepEqual(w.store.readMetadata(w.threadId).folders, [w.ws, w.second]);
    // the third folder is in no recorded folder: turn 2 is refused, and so is turn 1 (it would write t.txt too)
    for (const req of [{ turn: 2 }, { turn: 1 }])
      await assert.rejects(
        engine.call({ op: "ledger.restore", threadId: w.threadId, ...req }),
        outsideRefusal(/would write outside the thread's folders \(.*second\): .*t\.txt; nothing was restored$/),
        JSON.stringify(req),
      );
    assert.equal(readFileSync(w.s, "utf8"), "s1\n", "nothing written");
    assert.equal(readFileSync(w.t, "utf8"), "t1\n", "nothing written");
    const made = await engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 1, files: [w.s] });
    assert.equal(made.result?.files, 1);
    assert.equal(readFileSync(w.s, "utf8"), "s0\n", "the second folder's file is back");
    assert.equal(readFileSync(w.t, "utf8"), "t1\n", "the third folder's is not touched");
  }));

test("hostile: a recorded folder that is `/`, relative, not plain or garbage never widens a restore", () =>
  withCliHost("acp-ledger-folders-", async ({ dir, home }) => {
    const w = await twoFolders(dir, home);
    const engine = localEngine({ home });
    const attempts: [string[], RegExp][] = [
      [["/"], /'\/' \(a file system root\)/],
      [["second"], /'second' \(not an absolute path\)/],
      [[`${w.ws}/../second`], /\(not a plain path/],
      [[`${w.second}/`, `${w.ws}//x`], /\/\/x' \(not a plain path/],
      [[""], /'' \(not a path\)/],
    ];
    for (const [folders, why] of attempts) {
      w.store.patchMetadata(w.threadId, { folders });
      await assert.rejects(
        engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 2 }),
        outsideRefusal(new RegExp(`t\\.txt; nothing was restored \\(recorded folders not taken: .*${why.source}`)),
        JSON.stringify(folders),
      );
    }
    // garbage on disk (a list of numbers, a string): the line is not a valid record, so it changes nothing
    const path = w.store.pathFor(w.threadId);
    for (const folders of [[1, 2], "/", { a: "/" }]) {
      const line = { v: 1, ts: new Date().toISOString(), kind: "meta_patch", patch: { folders } };
      appendFileSync(path, `${JSON.stringify(line)}\n`);
    }
    const read = await engine.call({ op: "threads.read", threadId: w.threadId });
    assert.deepEqual(read.metadata.folders, [""], "the last valid patch stands");
    assert.ok(read.warnings.some((x) => /meta_patch field 'folders' has an invalid value/.test(x.message)));
    await assert.rejects(
      engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 2 }),
      outsideRefusal(/t\.txt; nothing was restored/),
    );
    // cleared (null): back to the cwd only
    w.store.patchMetadata(w.threadId, { folders: null } satisfies MetadataPatch);
    assert.equal(w.store.readMetadata(w.threadId).folders, undefined);
    await assert.rejects(
      engine.call({ op: "ledger.restore", threadId: w.threadId, turn: 1 }),
      outsideRefusal(/nothing was restored$/),
    );
    assert.equal(readFileSync(w.s, "utf8"), "s1\n", "nothing written");
    assert.equal(readFileSync(w.t, "utf8"), "t1\n", "nothing written");
  }));
