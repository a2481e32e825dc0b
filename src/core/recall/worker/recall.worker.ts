/**
 * A recall worker thread: owns one connection to the recall index and answers the host's requests in order.
 * Searches and the recent list first sync our own threads (incremental; skipped while an import holds the
 * index). An import reports progress as it goes and stops within a few hundred lines once the host sets the
 * cancel flag; after it, the same worker compacts the index when the import was a bulk one (compact.ts). Bundled on its own as dist/recall-worker.js (scripts/build.mjs: `*.worker.ts`).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ImportControl, ImportProgress } from "../progress";
import { openRecall, type Recall, type SyncSummary } from "../recall";
import type { ImportPlan, WorkerData, WorkerReply, WorkerRequest } from "./protocol";

const data = workerData as WorkerData;
const cancel = new Int32Array(data.cancel);
let recall: Recall | undefined;
const open = () => (recall ??= openRecall(data.home));

const cancelled = () => Atomics.load(cancel, 0) === 1;

function runImport(id: number, plan: ImportPlan): SyncSummary[] {
  const ctl = {
    cancelled,
    progress: (progress: ImportProgress) => post({ id, progress }),
  } satisfies ImportControl;
  const r = open();
  const out: SyncSummary[] = [];
  const steps: (() => SyncSummary)[] = [];
  if (plan.own) steps.push(() => r.syncOwnThreads(ctl));
  if (plan.codex) steps.push(() => r.importCodex(plan.codex!, ctl));
  if (plan.claude) steps.push(() => r.importClaude(plan.claude!, ctl));
  for (const step of steps) {
    if (ctl.cancelled()) break;
    const sum = step();
    out.push(sum);
    if (sum.cancelled) break;
  }
  return out;
}

function handle(req: WorkerRequest): unknown {
  switch (req.op) {
    case "search":
      open().syncOwnThreads();
      return open().search(req.query, req.opts);
    case "recent":
      open().syncOwnThreads();
      return open().recent(req.opts);
    case "status":
      return open().status();
    case "import":
      return runImport(req.id, req.plan);
    case "compact":
      return open().compactAfter(req.added, { cancelled });
    case "close":
      return undefined;
  }
}

function post(m: WorkerReply): void {
  parentPort!.postMessage(m);
}

parentPort!.on("message", (req: WorkerRequest) => {
  if (req.op === "close") {
    // close the index (its file descriptors belong to the process, not to this thread) and let the thread end
    recall?.close();
    recall = undefined;
    parentPort!.close();
    return;
  }
  try {
    post({ id: req.id, ok: true, result: handle(req) });
  } catch (err) {
    post({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
