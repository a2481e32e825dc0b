// #36 item 6: with stat walks, a turn's first walk runs while the turn already works (tracker.ts `sync({ since })`,
// turn-clock.ts). The race it must survive, made certain here: the agent's shell writes right after the turn
// started and before that walk looked at anything. Each of its changes must still be the turn's, with the version
// before it; an edit made before the turn started must not be. In a git repository and in a plain folder, the
// walks in-process and in the walk worker, against the real file system (ext4 or tmpfs: the clock is readable).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import { WorkspaceTracker, type FileDelta } from "../../../../src/core/ledger/tracker";
import { WalkWorker } from "../../../../src/core/ledger/walk-worker-client";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";
import { g } from "../worktree/helpers";
import { THREAD, withLedger } from "./helpers";

const rels = (ds: readonly FileDelta[]) => ds.map((d) => d.rel).sort();
const opRels = (ws: string, op: OpView) => op.files.map((f) => relative(ws, f.path).split("\\").join("/")).sort();
const hourAgo = () => new Date(Date.now() - 3600_000);

/** A workspace of a few files and folders, all an hour old (the walk cache reuses their listings). */
function seed(ws: string, git: boolean): void {
  mkdirSync(join(ws, "src/deep/er"), { recursive: true });
  mkdirSync(join(ws, "other"));
  for (const f of ["a.txt", "same.txt", "user.txt", "src/gone.txt", "src/deep/er/c.txt", "other/d.txt"])
    writeFileSync(join(ws, f), `${f} before\n`);
  if (git) {
    g(ws, "init", "-q");
    g(ws, "add", "-A");
    g(ws, "commit", "-qm", "init");
  }
  for (const p of ["", "src", "src/deep", "src/deep/er", "other"]) utimesSync(join(ws, p), hourAgo(), hourAgo());
}

/**
 * The agent's shell, at once: edits, a file made, one deleted, a rewrite keeping size and mtime, a folder moved in
 * (its file keeps its old ctime). None in the root's or other/'s entries: the user's edits there (made before the
 * turn started) are told apart by ctime (an edit in a folder whose entries the agent changed within that walk
 * would be left to the turn's end: see the development record).
 */
function agentWrites(ws: string, outside: string): void {
  writeFileSync(join(ws, "a.txt"), "a.txt after\n");
  writeFileSync(join(ws, "src/new.txt"), "new\n");
  rmSync(join(ws, "src/gone.txt"));
  const at = hourAgo();
  utimesSync(join(ws, "same.txt"), at, at);
  writeFileSync(join(ws, "same.txt"), "same.txt AFTER\n");
  utimesSync(join(ws, "same.txt"), at, at);
  writeFileSync(join(ws, "src/deep/er/c.txt"), "c.txt after\n");
  renameSync(join(outside, "moved"), join(ws, "src/deep/moved"));
}

const AGENT = ["a.txt", "same.txt", "src/deep/er/c.txt", "src/deep/moved/m.txt", "src/gone.txt", "src/new.txt"];

function outsideFolder(ws: string): string {
  const outside = mkdtempSync(join(dirname(ws), "outside-"));
  mkdirSync(join(outside, "moved"));
  writeFileSync(join(outside, "moved/m.txt"), "moved in\n");
  const at = hourAgo();
  for (const p of ["moved/m.txt", "moved"]) utimesSync(join(outside, p), at, at);
  return outside;
}

for (const git of [true, false])
  for (const worker of [false, true]) {
    const where = `${git ? "git repository" : "plain folder"}, stat walks ${worker ? "in the walk worker" : "in-process"}`;
    const script = join(repoRoot(), "dist", "walk-worker.js");

    test(`${where}: the agent writes after the turn's start and before its first walk: every change is the turn's, with its version before; the user's edit before the start is not`, () =>
      withTmp(async (dir) => {
        const ws = join(dir, "ws");
        mkdirSync(ws);
        seed(ws, git);
        const outside = outsideFolder(ws);
        const walker = worker ? new WalkWorker(script) : undefined;
        const blobs = new BlobStore(join(dir, "blobs"));
        const t = await WorkspaceTracker.open(ws, {
          blobs,
          watch: false,
          cacheDir: join(dir, "cache"),
          ...(walker ? { walker } : {}),
        });
        try {
          assert.deepEqual(rels(await t.sync()), []);
          // between turns: the user edits a file and deletes one, and the turn starts right after
          writeFileSync(join(ws, "user.txt"), "user's edit\n");
          rmSync(join(ws, "other/d.txt"));
          const since = await t.turnStamp();
          assert.notEqual(since, undefined, "the workspace's clock can be read here");
          // the agent's shell, before the turn's first walk looked at anything
          agentWrites(ws, outside);
          const start = await t.sync({ since: since! });
          assert.deepEqual(rels(start), ["other/d.txt", "user.txt"], "the turn's first walk: the user's edits");
          const end = await t.sync();
          assert.deepEqual(rels(end), AGENT, "the turn's end: the agent's");
          const by = new Map(end.map((d) => [d.rel, d] as const));
          const kept = await t.keep(end.map((d) => d.before));
          end.forEach((d, i) => {
            const before = kept[i];
            if (d.rel === "src/new.txt" || d.rel === "src/deep/moved/m.txt") assert.equal(before, null, d.rel);
            else {
              assert.ok(before?.stored && before.id, d.rel);
              assert.equal(blobs.getText(before.id), `${d.rel} before\n`, d.rel);
            }
          });
          assert.equal(by.get("src/gone.txt")?.after, null);
          assert.deepEqual(rels(await t.sync()), [], "a quiet sync after");
        } finally {
          t.dispose();
          walker?.dispose();
          rmSync(outside, { recursive: true, force: true });
        }
      }));

    test(`${where}, through the ledger: the agent's shell writes as the turn starts; the user's edit just before is not the turn's`, () =>
      withLedger(
        async (ws, ledger) => {
          seed(ws, git);
          const outside = outsideFolder(ws);
          try {
            const info = (turn: number) => ({ threadId: THREAD, turn, cwd: ws, agent: { id: "fake", name: "Fake" } });
            assert.deepEqual(opRels(ws, await (await ledger.beginTurn(info(1))).end("end_turn")), []);
            writeFileSync(join(ws, "user.txt"), "user's edit\n");
            const capture = await ledger.beginTurn(info(2));
            agentWrites(ws, outside); // at once: the turn's first walk may still be under way
            const op = await capture.end("end_turn");
            assert.deepEqual(opRels(ws, op), AGENT);
            const a = op.files.find((f) => f.path === join(ws, "a.txt"));
            assert.ok(a?.before?.stored);
            assert.equal(readFileSync(join(ws, "user.txt"), "utf8"), "user's edit\n");
            assert.deepEqual(opRels(ws, await (await ledger.beginTurn(info(3))).end("end_turn")), []);
          } finally {
            rmSync(outside, { recursive: true, force: true });
          }
        },
        { watch: false, walkWorker: worker ? script : false },
      ));
  }
