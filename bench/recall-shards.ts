/**
 * `bench:recall --shard-probe`: measures the next step proposed for the import goal (CHANGELOG #12, second pass), not
 * something the product does: the corpus's files split in two (hard links), each half imported by its own
 * RecallWorkers into its own index file, both at once. One SQLite file has one writer, so this is what the second
 * core could add once the read path spans two shard files.
 */
import { linkSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { discoverTranscripts } from "../src/core/recall/discover";
import { RecallWorkers } from "../src/core/recall/worker/client";

export async function importInShards(dir: string, root: string): Promise<{ messages: number; ms: number }> {
  const base = join(dir, "shard-probe");
  rmSync(base, { recursive: true, force: true });
  const roots = [join(base, "root0"), join(base, "root1")];
  discoverTranscripts(root, { allHistory: true })
    .map((f) => f.path)
    .sort()
    .forEach((file, i) => {
      const to = join(roots[i % 2], relative(root, file));
      mkdirSync(dirname(to), { recursive: true });
      linkSync(file, to);
    });
  const script = join(process.cwd(), "dist", "recall-worker.js");
  const workers = roots.map((_, k) => new RecallWorkers(script, join(base, `home${k}`)));
  try {
    const t0 = performance.now();
    const sums = await Promise.all(
      workers.map((w, k) => w.import({ codex: { root: roots[k], allHistory: true } }).done),
    );
    const ms = performance.now() - t0;
    return { messages: sums.flat().reduce((n, s) => n + s.messages, 0), ms };
  } finally {
    await Promise.all(workers.map((w) => w.dispose()));
    rmSync(base, { recursive: true, force: true });
  }
}
