// #36 item 6: when the OS grants some folder watches and refuses the rest (the inotify limit), the tracker keeps
// the watches it got and stat-walks only the folders left without one, at every turn. Every kind of change must
// still be the turn's, in both parts: an edit in place, a file created in an old folder and in a new one, a
// deletion, a rename (across folders, and of a folder), a folder made in a watched folder once the limit is
// reached. In a git repository and in a plain folder, the walks in-process and in the walk worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import { nullLogger, type Logger } from "../../../../src/core/log";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { g } from "../worktree/helpers";
import { turn, withLedger } from "./helpers";

const rels = (ws: string, op: OpView) => op.files.map((f) => relative(ws, f.path).split("\\").join("/")).sort();

function put(ws: string, rel: string, text: string): void {
  mkdirSync(dirname(join(ws, rel)), { recursive: true });
  writeFileSync(join(ws, rel), text);
}

for (const git of [true, false])
  for (const worker of [false, true]) {
    const where = `${git ? "git repository" : "plain folder"}, ${worker ? "walks in the walk worker" : "walks in-process"}`;
    const walkWorker = worker ? join(repoRoot(), "dist", "walk-worker.js") : false;

    test(`${where}: with 2 watches granted, changes in the watched and the walked folders are all the turn's`, async () => {
      const warnings: string[] = [];
      const logger: Logger = { ...nullLogger, warn: (m: string) => warnings.push(m) };
      await withLedger(
        async (ws, ledger) => {
          // sorted, parents first: "" and "a" get the 2 watches; "m" (with "m/n") and "z" are walked
          for (const rel of ["a/one.txt", "m/two.txt", "m/n/three.txt", "z/four.txt", "z/five.txt"]) put(ws, rel, rel);
          if (git) {
            // the files stay untracked: a committed file's "before" is read through a `git cat-file` process that
            // (since before this change) keeps the test's process from exiting once the ledger is disposed
            put(ws, "README", "r\n");
            g(ws, "init", "-q");
            g(ws, "add", "README");
            g(ws, "commit", "-qm", "init");
          }
          const first = await turn(ledger, ws, 1, () => {
            writeFileSync(join(ws, "a/one.txt"), "edited in a watched folder\n");
            writeFileSync(join(ws, "m/n/three.txt"), "edited in place, deep in a walked folder\n");
            writeFileSync(join(ws, "m/new.txt"), "created in an old walked folder\n");
            put(ws, "m/fresh/x.txt", "created in a new folder inside a walked one\n");
            put(ws, "a/made/y.txt", "created in a new folder inside a watched one: no watch left for it\n");
            unlinkSync(join(ws, "z/four.txt"));
            renameSync(join(ws, "z/five.txt"), join(ws, "m/n/five.txt"));
          });
          assert.ok(
            warnings.some((w) => /folder\(s\) left without a watch/.test(w)),
            `the tracker kept its watches: ${warnings.join("; ")}`,
          );
          assert.deepEqual(rels(ws, first), [
            "a/made/y.txt",
            "a/one.txt",
            "m/fresh/x.txt",
            "m/n/five.txt",
            "m/n/three.txt",
            "m/new.txt",
            "z/five.txt",
            "z/four.txt",
          ]);
          // the next turn's walks are differences from the last one: still nothing missed, nothing reported twice
          const second = await turn(ledger, ws, 2, () => {
            writeFileSync(join(ws, "m/new.txt"), "edited again\n");
            writeFileSync(join(ws, "a/made/y.txt"), "edited in the folder made last turn\n");
            renameSync(join(ws, "m/fresh"), join(ws, "z/fresh"));
          });
          assert.deepEqual(rels(ws, second), ["a/made/y.txt", "m/fresh/x.txt", "m/new.txt", "z/fresh/x.txt"]);
          const quiet = await turn(ledger, ws, 3, () => undefined);
          assert.deepEqual(rels(ws, quiet), []);
        },
        { watch: 2, walkWorker, logger },
      );
    });
  }
