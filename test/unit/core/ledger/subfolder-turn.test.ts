// A file written into a subfolder during a turn is one of that turn's files, whatever the folder held when the
// tracker took its baseline: an empty folder (made before the first turn, or during an earlier one), a folder
// holding only untracked files or only empty folders, a tree made and filled in the same turn, a folder moved
// in from outside the workspace. In a git repository and in a plain folder, with watches (all, or two granted and
// the rest refused by the OS) and with stat walks, the walks (a plain folder's baseline, which also lists the
// folders to watch) in-process and in the walk worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { g } from "../worktree/helpers";
import { turn, withLedger } from "./helpers";

const rels = (ws: string, op: OpView) => op.files.map((f) => relative(ws, f.path).split("\\").join("/")).sort();

function gitInit(ws: string): void {
  writeFileSync(join(ws, "tracked.txt"), "t\n");
  g(ws, "init", "-q");
  g(ws, "add", "-A");
  g(ws, "commit", "-qm", "init");
}

for (const git of [true, false])
  // 2: the OS grants two watches ("" and the first folder) and refuses the rest, which are walked (#36 item 6)
  for (const watch of [true, 2, false])
    for (const worker of [false, true]) {
      const how = watch === 2 ? "2 watches, the rest walked" : watch ? "watching" : "stat walks";
      const where = `${git ? "git repository" : "plain folder"}, ${how}, ${worker ? "walks in the walk worker" : "walks in-process"}`;
      const walkWorker = worker ? join(repoRoot(), "dist", "walk-worker.js") : false;
      const run = (fn: (ws: string, ledger: EditLedger) => Promise<void>) =>
        withLedger(
          async (ws, ledger) => {
            if (git) gitInit(ws);
            await fn(ws, ledger);
          },
          { watch, walkWorker },
        );

      test(`${where}: a file written into a subfolder made empty before the first turn is the turn's file`, () =>
        run(async (ws, ledger) => {
          mkdirSync(join(ws, "src"));
          mkdirSync(join(ws, "deep/er/still"), { recursive: true });
          const op = await turn(ledger, ws, 1, () => {
            writeFileSync(join(ws, "src/a.txt"), "a\n");
            writeFileSync(join(ws, "deep/er/still/b.txt"), "b\n");
          });
          assert.deepEqual(rels(ws, op), ["deep/er/still/b.txt", "src/a.txt"]);
        }));

      test(`${where}: a file written into a subfolder holding only untracked files is the turn's file`, () =>
        run(async (ws, ledger) => {
          mkdirSync(join(ws, "loose/nest"), { recursive: true });
          writeFileSync(join(ws, "loose/nest/u.txt"), "u\n");
          const op = await turn(ledger, ws, 1, () => {
            writeFileSync(join(ws, "loose/a.txt"), "a\n");
            writeFileSync(join(ws, "loose/nest/u.txt"), "changed\n");
          });
          assert.deepEqual(rels(ws, op), ["loose/a.txt", "loose/nest/u.txt"]);
        }));

      test(`${where}: a file written into a subfolder made during an earlier turn is the later turn's file`, () =>
        run(async (ws, ledger) => {
          const one = await turn(ledger, ws, 1, () => {
            mkdirSync(join(ws, "src"));
            writeFileSync(join(ws, "top.txt"), "t\n");
          });
          assert.deepEqual(rels(ws, one), ["top.txt"]);
          const two = await turn(ledger, ws, 2, () => writeFileSync(join(ws, "src/a.txt"), "a\n"));
          assert.deepEqual(rels(ws, two), ["src/a.txt"]);
        }));

      test(`${where}: a tree made and filled in the same turn (mkdir -p a/b/c, then a/b/c/x)`, () =>
        run(async (ws, ledger) => {
          mkdirSync(join(ws, "empty"));
          const op = await turn(ledger, ws, 1, () => {
            mkdirSync(join(ws, "a/b/c"), { recursive: true });
            writeFileSync(join(ws, "a/b/c/x.txt"), "x\n");
            mkdirSync(join(ws, "empty/b/c"), { recursive: true });
            writeFileSync(join(ws, "empty/b/c/y.txt"), "y\n");
          });
          assert.deepEqual(rels(ws, op), ["a/b/c/x.txt", "empty/b/c/y.txt"]);
        }));

      test(`${where}: a folder with files moved in from outside the workspace, into the root and into an empty folder`, () =>
        run(async (ws, ledger) => {
          mkdirSync(join(ws, "empty"));
          const outside = mkdtempSync(join(dirname(ws), "outside-"));
          for (const name of ["one", "two"]) {
            mkdirSync(join(outside, name, "sub"), { recursive: true });
            writeFileSync(join(outside, name, "f.txt"), `${name}\n`);
            writeFileSync(join(outside, name, "sub/g.txt"), `${name} g\n`);
          }
          try {
            const op = await turn(ledger, ws, 1, () => {
              renameSync(join(outside, "one"), join(ws, "one"));
              renameSync(join(outside, "two"), join(ws, "empty/two"));
            });
            assert.deepEqual(rels(ws, op), ["empty/two/f.txt", "empty/two/sub/g.txt", "one/f.txt", "one/sub/g.txt"]);
          } finally {
            rmSync(outside, { recursive: true, force: true });
          }
        }));

      test(`${where}: a file written through a symlink to a folder outside the workspace is not the turn's file`, () =>
        run(async (ws, ledger) => {
          const outside = mkdtempSync(join(dirname(ws), "outside-"));
          symlinkSync(outside, join(ws, "link"), "dir");
          try {
            const op = await turn(ledger, ws, 1, () => {
              writeFileSync(join(ws, "link/out.txt"), "o\n");
              writeFileSync(join(ws, "kept.txt"), "k\n");
            });
            assert.deepEqual(rels(ws, op), ["kept.txt"]);
          } finally {
            rmSync(outside, { recursive: true, force: true });
          }
        }));

      test(`${where}: a file written into an ignored empty folder is not the turn's file`, () =>
        run(async (ws, ledger) => {
          writeFileSync(join(ws, ".gitignore"), "build/\n");
          mkdirSync(join(ws, "build"));
          const op = await turn(ledger, ws, 1, () => {
            writeFileSync(join(ws, "build/out.js"), "o\n");
            writeFileSync(join(ws, "kept.txt"), "k\n");
          });
          assert.deepEqual(rels(ws, op), ["kept.txt"]);
        }));
    }
