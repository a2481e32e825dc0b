// #36 item 6, partial watches: when the OS granted some folder watches and refused the rest, a turn's first sync
// (the watch events drained, the folders without a watch walked) runs while the turn already works, as with stat
// walks alone (turn-start-race.test.ts). The race made certain: the agent writes after the turn's start and before
// that sync looked at anything, in a watched folder and in a walked one. Each change must be the turn's, once, with
// its version before; the user's edits just before the start must not be. A git repository and a plain folder, the
// walks in-process and in the walk worker, on the real file system.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import { WorkspaceTracker, type FileDelta } from "../../../../src/core/ledger/tracker";
import { WalkWorker } from "../../../../src/core/ledger/walk-worker-client";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";
import { g } from "../worktree/helpers";
import { turn, withLedger } from "./helpers";

const rels = (ds: readonly FileDelta[]) => ds.map((d) => d.rel).sort();
const opRels = (ws: string, op: OpView) => op.files.map((f) => relative(ws, f.path).split("\\").join("/")).sort();
const hourAgo = () => new Date(Date.now() - 3600_000);

/**
 * With 2 watches, sorted and parents first: "" and "a" are watched, "z" is walked. All an hour old. The user's
 * watched file is in the root, whose entries the agent does not change: in a git repository a clean file the
 * tracker never stat'ed (known from the index, in a watched folder) is not told apart from one replaced when its
 * folder's entries changed after the turn's start, and is left to the turn's end (see the development record).
 */
const SEEDED = ["a/w.txt", "a/same.txt", "a/gone.txt", "user.txt", "z/k.txt", "z/same.txt", "z/user.txt"];

function seed(ws: string, git: boolean): void {
  for (const d of ["a", "z"]) mkdirSync(join(ws, d));
  for (const f of SEEDED) writeFileSync(join(ws, f), `${f} before\n`);
  if (git) {
    g(ws, "init", "-q");
    g(ws, "add", "-A");
    g(ws, "commit", "-qm", "init");
  }
  for (const p of [...SEEDED, "", "a", "z"]) utimesSync(join(ws, p), hourAgo(), hourAgo());
}

/** The user, just before the turn starts: an edit in place in each part. */
function userWrites(ws: string): void {
  for (const f of ["user.txt", "z/user.txt"]) writeFileSync(join(ws, f), `${f}: the user's edit\n`);
}

/** The agent, at once: edits, a file made and one deleted, a rewrite keeping size and mtime, in both parts. */
function agentWrites(ws: string): void {
  const at = hourAgo();
  for (const f of ["a/w.txt", "z/k.txt"]) writeFileSync(join(ws, f), `${f} after\n`);
  for (const f of ["a/same.txt", "z/same.txt"]) {
    writeFileSync(join(ws, f), `${f} AFTER\n`);
    utimesSync(join(ws, f), at, at);
  }
  for (const f of ["a/new.txt", "z/new.txt"]) writeFileSync(join(ws, f), "new\n");
  rmSync(join(ws, "a/gone.txt"));
}

const AGENT = ["a/gone.txt", "a/new.txt", "a/same.txt", "a/w.txt", "z/k.txt", "z/new.txt", "z/same.txt"];

for (const git of [true, false])
  for (const worker of [false, true]) {
    const where = `${git ? "git repository" : "plain folder"}, 2 watches, the rest walked ${worker ? "in the walk worker" : "in-process"}`;
    const script = join(repoRoot(), "dist", "walk-worker.js");

    test(`${where}: the agent writes after the turn's start and before its first sync: every change is the turn's, once, with its version before; the user's edits before the start are not`, () =>
      withTmp(async (dir) => {
        const ws = join(dir, "ws");
        mkdirSync(ws);
        seed(ws, git);
        const walker = worker ? new WalkWorker(script) : undefined;
        const blobs = new BlobStore(join(dir, "blobs"));
        const t = await WorkspaceTracker.open(ws, {
          blobs,
          watch: 2,
          cacheDir: join(dir, "cache"),
          ...(walker ? { walker } : {}),
        });
        try {
          assert.equal(t.mode, "watch");
          assert.deepEqual(rels(await t.sync()), []);
          userWrites(ws);
          const since = await t.turnStamp();
          assert.notEqual(since, undefined, "a partial watch's first sync may run while the turn works");
          agentWrites(ws);
          const start = await t.sync({ since: since! });
          assert.deepEqual(rels(start), ["user.txt", "z/user.txt"], "the turn's first sync: the user's edits");
          const end = await t.sync();
          assert.deepEqual(rels(end), AGENT, "the turn's end: the agent's, each once");
          const kept = await t.keep(end.map((d) => d.before));
          end.forEach((d, i) => {
            if (d.rel.endsWith("new.txt")) return assert.equal(kept[i], null, d.rel);
            assert.ok(kept[i]?.stored && kept[i]!.id, d.rel);
            assert.equal(blobs.getText(kept[i]!.id!), `${d.rel} before\n`, d.rel);
          });
          assert.deepEqual(rels(await t.sync()), [], "a quiet sync after");
        } finally {
          t.dispose();
          walker?.dispose();
        }
      }));

    test(`${where}, through the ledger: the agent writes as the turn starts, in a watched and a walked folder; each change is the turn's once`, () =>
      withLedger(
        async (ws, ledger) => {
          seed(ws, git);
          assert.deepEqual(opRels(ws, await turn(ledger, ws, 1, () => undefined)), []);
          userWrites(ws);
          // the agent writes at once: the turn's first sync may still be under way
          const op = await turn(ledger, ws, 2, () => agentWrites(ws));
          assert.deepEqual(opRels(ws, op), AGENT);
          assert.ok(op.files.find((f) => f.path === join(ws, "z/k.txt"))?.before?.stored);
          assert.equal(readFileSync(join(ws, "user.txt"), "utf8"), "user.txt: the user's edit\n");
          assert.deepEqual(opRels(ws, await turn(ledger, ws, 3, () => undefined)), [], "a quiet turn after");
        },
        { watch: 2, walkWorker: worker ? script : false },
      ));
  }
