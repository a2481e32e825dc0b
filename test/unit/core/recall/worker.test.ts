import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCorpus } from "../../../../bench/recall-corpus";
import { RecallImports, type ImportProgress } from "../../../../src/core/engine/import-job";
import { localEngine } from "../../../../src/core/engine/local";
import { workerEngine } from "../../../../src/core/engine/worker";
import { AcpThreadsError } from "../../../../src/core/errors";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { threadWith } from "../engine/helpers";

const SCRIPT = join(__dirname, "..", "..", "..", "..", "dist", "engine-worker.js");

test("engine worker: an import runs in its own worker with progress; cancel stops it mid-way; searches answer meanwhile", async () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-worker-"));
  const engine = workerEngine({ script: SCRIPT, home: join(dir, "home") });
  const imports = new RecallImports(engine);
  try {
    const corpus = writeCorpus(join(dir, "sessions"), 6000);
    const seen: ImportProgress[] = [];
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const job = imports.import({ own: true, codex: { root: corpus.root, allHistory: true } }, (p) => {
      seen.push(p);
      if (p.source === "codex_rollout" && p.bytesDone > 0) first();
    });
    assert.equal(imports.import({ own: true }), job, "one import at a time: the running one is returned");
    await started;
    job.cancel();
    const sums = await job.done;
    const last = sums[sums.length - 1];
    assert.equal(last.source, "codex_rollout");
    assert.equal(last.cancelled, true);
    assert.ok(last.messages < corpus.messages, `stopped before the end (${last.messages} of ${corpus.messages})`);
    assert.equal(imports.importing, undefined);
    assert.ok(seen.some((p) => p.source === "codex_rollout" && p.bytes === corpus.bytes));

    const resume = imports.import({ codex: { root: corpus.root, allHistory: true } });
    const during = await engine.call({ op: "recall.search", query: corpus.vocab.latin[0], global: true, sync: true });
    // it answers from whatever is committed at that moment (maybe nothing yet): what matters is that it answers
    assert.ok(["ok", "no_match"].includes(during.status), "a search while the import runs answers");
    const again = await resume.done;
    assert.equal(again[0].cancelled, undefined);
    const status = await engine.call({ op: "recall.status" });
    assert.equal(status.totals.messages, corpus.messages, "resumed: every message exactly once");
    const after = await engine.call({ op: "recall.search", query: corpus.vocab.latin[0], global: true });
    assert.equal(after.status, "ok");
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("engine worker: the same answers as in process; a cancel there stops the request; bad input a usage error; it restarts after close", async () => {
  const dir = mkdtempSync(join(tmpdir(), "engine-worker-"));
  const store = new ThreadStore(join(dir, "home"));
  threadWith(store, dir, 3, "first");
  threadWith(store, dir, 2, "second");
  let engine = workerEngine({ script: SCRIPT, home: store.home });
  const local = localEngine({ home: store.home, recallIndex: {} });
  try {
    const untimed = <T>(r: T) => ({ ...r, elapsed_ms: 0 });
    const search = { op: "recall.search", query: "question", cwd: dir, sync: true } as const;
    const inWorker = await engine.call(search);
    assert.equal(inWorker.status, "ok");
    assert.deepEqual(untimed(inWorker), untimed(await local.call(search)), "the same answer as in process");
    const recent = { op: "recall.recent", global: true, limit: 5 } as const;
    assert.deepEqual(await engine.call(recent), await local.call(recent));

    const abort = new AbortController();
    const cancelled = engine.call(search, { signal: abort.signal });
    abort.abort();
    await assert.rejects(cancelled, (e: unknown) => e instanceof AcpThreadsError && e.code === "interrupted");
    assert.equal((await engine.call(search)).status, "ok", "the next request answers");
    await assert.rejects(
      engine.call({ op: "recall.search", query: "x" } as never),
      (e: unknown) => e instanceof AcpThreadsError && e.code === "usage" && /'cwd'/.test(e.message),
    );
    await engine.close();
    await assert.rejects(engine.call(search), /closed/, "a closed engine takes no request");
    engine = workerEngine({ script: SCRIPT, home: store.home, idleMs: 1 });
    assert.equal((await engine.call(search)).status, "ok", "a new worker opens the index again");
    assert.equal((await engine.call(search)).status, "ok", "and after its idle stop, another one");
  } finally {
    local.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("engine worker: one that dies fails every call in flight with why, and the next call gets a new worker", async () => {
  const dir = mkdtempSync(join(tmpdir(), "engine-worker-dies-"));
  // a worker that answers with its thread id, never answers `hang`, and dies at `die` (as one that crashed)
  const script = join(dir, "dying-worker.js");
  writeFileSync(
    script,
    `const { parentPort, threadId } = require("node:worker_threads");
parentPort.on("message", (m) => {
  if (m.t === "close") process.exit(0);
  if (m.req.query === "hang") return;
  if (m.req.query === "die") process.exit(3);
  parentPort.postMessage({ t: "reply", id: m.id, reply: { threadId } });
});`,
  );
  const engine = workerEngine({ script, home: dir });
  const ask = (query: string) =>
    engine.call({ op: "recall.search", query, global: true } as never) as Promise<{ threadId: number }>;
  try {
    const first = await ask("hello");
    const hanging = ask("hang");
    const dying = ask("die");
    for (const call of [hanging, dying])
      await assert.rejects(call, /the engine worker stopped \(exit code 3\)/, "failed, not left waiting");
    const next = await ask("hello");
    assert.notEqual(next.threadId, first.threadId, "a new worker answers");
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
