// An import waits a moment (5 s) for the import lock another importer holds before it refuses; a cancel ends that
// wait at once (the import answers cancelled, nothing done) instead of after the whole wait with "locked". Hostile:
// the test holds the lock, as another process importing would, and cancels the import once it waits for it (its
// announcement is out: recall.ts's importRoot announces itself, then waits), in the engine worker that serves the
// window's imports (the cancel comes on the worker's cancel port while its thread waits).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workerEngine } from "../../../../src/core/engine/worker";
import { homeLayout } from "../../../../src/core/store/paths";
import { tryAcquireLock } from "../../../../src/core/store/file-lock";
import { waitFor } from "../../../fixtures/spawner/wait";

const SCRIPT = join(__dirname, "..", "..", "..", "..", "dist", "engine-worker.js");

test("an import waiting for another importer's lock stops when cancelled, not after its wait, with nothing done", async () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-lock-cancel-"));
  const home = join(dir, "home");
  const root = join(dir, "sessions");
  mkdirSync(root);
  const engine = workerEngine({ script: SCRIPT, home });
  const dbPath = homeLayout(home).recallDb;
  mkdirSync(join(dbPath, ".."), { recursive: true, mode: 0o700 });
  const held = tryAcquireLock(`${dbPath}.import`);
  assert.ok(held.ok, "the test holds the import lock");
  try {
    const abort = new AbortController();
    const sums = engine.call({ op: "recall.import", codex: { root } }, { signal: abort.signal });
    const importers = `${dbPath}.importers`;
    await waitFor(() => existsSync(importers) && readdirSync(importers).length > 0, "the import announced, waiting");
    abort.abort();
    const out = await sums;
    assert.deepEqual(
      out.map((s) => ({ source: s.source, cancelled: s.cancelled, files: s.files, messages: s.messages })),
      [{ source: "codex_rollout", cancelled: true, files: 0, messages: 0 }],
    );
  } finally {
    held.release();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
