// WorkspaceTracker: baseline + deltas on a real disk, in a git repository and in a plain folder, with
// directory watches and with stat walks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import { WorkspaceTracker, type FileDelta } from "../../../../src/core/ledger/tracker";
import { WalkWorker } from "../../../../src/core/ledger/walk-worker-client";
import { nullLogger } from "../../../../src/core/log";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdio: "pipe" });

function seed(ws: string): void {
  mkdirSync(join(ws, "src/lib"), { recursive: true });
  writeFileSync(join(ws, ".gitignore"), "node_modules/\n*.log\n");
  writeFileSync(join(ws, "src/a.ts"), "export const a = 1;\n");
  writeFileSync(join(ws, "src/lib/b.ts"), "export const b = 2;\n");
  writeFileSync(join(ws, "README.md"), "# hi\n");
}

const byRel = (ds: FileDelta[]) => Object.fromEntries(ds.map((d) => [d.rel, d]));

async function scenario(ws: string, home: string, opts: { watch: boolean; walker?: WalkWorker }): Promise<void> {
  const blobs = new BlobStore(join(home, "blobs"));
  const t = await WorkspaceTracker.open(ws, {
    blobs,
    watch: opts.watch,
    cacheDir: join(home, "cache"),
    ...(opts.walker ? { walker: opts.walker } : {}),
  });
  try {
    assert.equal(t.mode, opts.watch ? "watch" : "walk");
    assert.equal(t.fileCount, 4);
    assert.deepEqual(await t.sync(), []);
    writeFileSync(join(ws, "src/a.ts"), "export const a = 42;\n");
    writeFileSync(join(ws, "new.txt"), "new\n");
    rmSync(join(ws, "README.md"));
    writeFileSync(join(ws, "debug.log"), "ignored\n");
    mkdirSync(join(ws, "node_modules/pkg"), { recursive: true });
    writeFileSync(join(ws, "node_modules/pkg/index.js"), "ignored");
    mkdirSync(join(ws, "src/fresh/deeper"), { recursive: true });
    writeFileSync(join(ws, "src/fresh/deeper/c.ts"), "c\n");
    const d = byRel(await t.sync());
    assert.deepEqual(Object.keys(d).sort(), ["README.md", "new.txt", "src/a.ts", "src/fresh/deeper/c.ts"]);
    assert.equal(d["new.txt"].before, null);
    assert.equal(d["README.md"].after, null);
    const [before] = await t.keep([d["src/a.ts"].before]);
    assert.equal(before?.stored, true);
    assert.equal(blobs.getText(before!.id!), "export const a = 1;\n");
    assert.equal(blobs.getText(d["src/a.ts"].after!.id!), "export const a = 42;\n");
    const [gone] = await t.keep([d["README.md"].before]);
    assert.equal(blobs.getText(gone!.id!), "# hi\n");
    // a rewrite with the same content is no change; a binary file is noted, not stored
    writeFileSync(join(ws, "src/a.ts"), "export const a = 42;\n");
    writeFileSync(join(ws, "img.bin"), Buffer.from([1, 0, 2, 3]));
    const d2 = byRel(await t.sync());
    assert.deepEqual(Object.keys(d2), ["img.bin"]);
    assert.equal(d2["img.bin"].after?.binary, true);
    assert.equal(d2["img.bin"].after?.stored, false);
    // a removed folder reports each file
    rmSync(join(ws, "src/fresh"), { recursive: true });
    assert.deepEqual(Object.keys(byRel(await t.sync())), ["src/fresh/deeper/c.ts"]);
  } finally {
    t.dispose();
  }
}

for (const watch of [true, false]) {
  test(`git repository, ${watch ? "watching" : "stat walks"}: changes, creations, deletions; ignored files never`, async () => {
    await withTmp(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      seed(ws);
      git(ws, "init", "-q");
      git(ws, "add", "-A");
      git(ws, "commit", "-qm", "init");
      await scenario(ws, join(dir, "home"), { watch });
    });
  });

  test(`plain folder, ${watch ? "watching" : "stat walks"}: the same`, async () => {
    await withTmp(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      seed(ws);
      await scenario(ws, join(dir, "home"), { watch });
    });
  });
}

// #36 item 6: the same walks in the worker thread the editor uses (dist/walk-worker.js)
for (const git_ of [true, false]) {
  test(`${git_ ? "git repository" : "plain folder"}, stat walks in the walk worker: the same deltas`, async () => {
    await withTmp(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      seed(ws);
      if (git_) {
        git(ws, "init", "-q");
        git(ws, "add", "-A");
        git(ws, "commit", "-qm", "init");
      }
      const walker = new WalkWorker(join(repoRoot(), "dist", "walk-worker.js"));
      try {
        await scenario(ws, join(dir, "home"), { watch: false, walker });
        assert.equal(walker.failed, undefined, "every walk ran in the worker");
      } finally {
        walker.dispose();
      }
    });
  });
}

// #36 item 6: the worker's walks reuse unchanged folders' listings and answer with differences; nothing is missed
test("stat walks in the walk worker over an hour-old tree: an edit deep inside it, a rename, a file tracked below an ignored folder", async () => {
  await withTmp(async (dir) => {
    const ws = join(dir, "ws");
    const deep = join(ws, "src/a/b/c");
    mkdirSync(deep, { recursive: true });
    mkdirSync(join(ws, "build"));
    writeFileSync(join(ws, ".gitignore"), "build/\n");
    writeFileSync(join(deep, "deep.ts"), "deep 1\n");
    writeFileSync(join(ws, "src/old.ts"), "old\n");
    writeFileSync(join(ws, "build/kept.js"), "tracked anyway 1\n");
    git(ws, "init", "-q");
    git(ws, "add", "-A");
    git(ws, "add", "-f", "build/kept.js");
    git(ws, "commit", "-qm", "init");
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const d of ["", "src", "src/a", "src/a/b", "src/a/b/c", "build"]) utimesSync(join(ws, d), hourAgo, hourAgo);
    const walker = new WalkWorker(join(repoRoot(), "dist", "walk-worker.js"));
    const t = await WorkspaceTracker.open(ws, { blobs: new BlobStore(join(dir, "blobs")), watch: false, walker });
    const rels = async () => (await t.sync()).map((d) => d.rel).sort();
    try {
      assert.deepEqual(await rels(), []);
      assert.deepEqual(await rels(), []);
      writeFileSync(join(deep, "deep.ts"), "deep 2\n");
      assert.deepEqual(await rels(), ["src/a/b/c/deep.ts"]);
      renameSync(join(ws, "src/old.ts"), join(deep, "moved.ts"));
      assert.deepEqual(await rels(), ["src/a/b/c/moved.ts", "src/old.ts"]);
      writeFileSync(join(ws, "build/kept.js"), "tracked anyway 2\n");
      assert.deepEqual(await rels(), ["build/kept.js"]);
      writeFileSync(join(ws, "build/kept.js"), "tracked anyway, again\n");
      assert.deepEqual(await rels(), ["build/kept.js"]);
      writeFileSync(join(deep, "deep.ts"), "deep 3\n");
      rmSync(join(deep, "moved.ts"));
      assert.deepEqual(await rels(), ["src/a/b/c/deep.ts", "src/a/b/c/moved.ts"]);
      assert.equal(walker.failed, undefined);
    } finally {
      t.dispose();
      walker.dispose();
    }
  });
});

test("a walk worker that cannot start: the walks run in-process, and why is logged once", async () => {
  await withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    seed(ws);
    const warnings: string[] = [];
    const logger = { ...nullLogger, warn: (m: string) => void warnings.push(m) };
    const walker = new WalkWorker(join(dir, "no-such-worker.js"), logger);
    await scenario(ws, join(dir, "home"), { watch: false, walker });
    assert.match(walker.failed ?? "", /walk worker/);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0]!, /stat walks run in-process/);
  });
});

test("a workspace that is a sub-folder of a repository: parent .gitignore rules apply", async () => {
  await withTmp(async (dir) => {
    git(dir, "init", "-q");
    writeFileSync(join(dir, ".gitignore"), "*.gen.ts\n");
    const ws = join(dir, "pkg");
    mkdirSync(ws);
    writeFileSync(join(ws, "a.ts"), "a\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "init");
    writeFileSync(join(ws, "dirty.ts"), "untracked at start\n");
    const blobs = new BlobStore(join(dir, "home/blobs"));
    const t = await WorkspaceTracker.open(ws, { blobs });
    try {
      assert.equal(t.fileCount, 2);
      writeFileSync(join(ws, "x.gen.ts"), "ignored by the parent's rules\n");
      writeFileSync(join(ws, "dirty.ts"), "changed\n");
      writeFileSync(join(dir, "outside.ts"), "not in the workspace\n");
      const d = await t.sync();
      assert.deepEqual(
        d.map((x) => x.rel),
        ["dirty.ts"],
      );
      assert.equal(blobs.getText(d[0].before!.id!), "untracked at start\n");
    } finally {
      t.dispose();
    }
  });
});

test("files over the size limit are noted with their size, never read", async () => {
  await withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    writeFileSync(join(ws, "big.txt"), "x".repeat(5000));
    const t = await WorkspaceTracker.open(ws, { blobs: new BlobStore(join(dir, "b")), limits: { maxFileBytes: 1000 } });
    try {
      writeFileSync(join(ws, "big.txt"), "y".repeat(6000));
      const [d] = await t.sync();
      assert.equal(d.before?.tooLarge, true);
      assert.equal(d.after?.tooLarge, true);
      assert.equal(d.after?.size, 6000);
      assert.equal(d.after?.id, null);
    } finally {
      t.dispose();
    }
  });
});

test("a workspace over the file limit is not tracked on disk, with a reason", async () => {
  await withTmp(async (dir) => {
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}`), "x");
    const t = await WorkspaceTracker.open(dir, { blobs: new BlobStore(join(dir, ".b")), limits: { maxFiles: 3 } });
    assert.equal(t.mode, "off");
    assert.match(t.offReason!, /exceed/);
    writeFileSync(join(dir, "f1"), "y");
    assert.deepEqual(await t.sync(), []);
    t.dispose();
  });
});

test("the manifest cache of a plain folder spares re-reading unchanged files on the next open", async () => {
  await withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    seed(ws);
    const opts = { blobs: new BlobStore(join(dir, "blobs")), cacheDir: join(dir, "cache") };
    await (await WorkspaceTracker.open(ws, opts)).dispose();
    writeFileSync(join(ws, "src/a.ts"), "changed while no session ran\n");
    const t = await WorkspaceTracker.open(ws, opts);
    try {
      assert.equal(t.stateOf("src/a.ts")?.size, "changed while no session ran\n".length);
      assert.deepEqual(await t.sync(), []);
    } finally {
      t.dispose();
    }
  });
});
