// The sessions view's listing when the threads index is unavailable (vscode/past-threads.ts): the thread files are
// read through the engine (`threads.scan`), and the view shows the same threads its filter names: those of its
// folders (a thread in a worktree under its repository's), not archived unless asked, of the agent asked for.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import type { Logger } from "../../../src/core/log";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { PastThreads } from "../../../src/vscode/past-threads";
import { startInput, withTmp } from "../core/store/helpers";

test("with the threads index unavailable, the sessions view lists from the thread files, filtered as the view asks", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const a = join(dir, "a");
    const b = join(dir, "b");
    const repo = join(dir, "repo");
    const thread = (cwd: string, extra = {}) => {
      const h = store.create(startInput(cwd, extra));
      h.close();
      return h.threadId;
    };
    const inA = thread(join(a, "sub"));
    const inB = thread(b);
    const otherAgent = thread(a, { agent: { id: "other", name: "Other", command: "/bin/false" } });
    const archived = thread(a);
    store.patchMetadata(archived, { archived: true });
    const inWorktree = thread(join(dir, "wt"));
    store.patchMetadata(inWorktree, {
      worktree: { path: join(dir, "wt"), repo, base: "0".repeat(40), createdAt: new Date().toISOString() },
    });
    // the index cannot be opened: a file where its folder goes
    const indexDir = dirname(store.layout.threadIndexDb);
    rmSync(indexDir, { recursive: true, force: true });
    writeFileSync(indexDir, "not a folder");
    const warned: string[] = [];
    const logger: Logger = { info() {}, warn: (m: string) => void warned.push(m), error() {}, debug() {} };
    const past = new PastThreads(store, logger);
    try {
      const ids = async (filter: Parameters<PastThreads["list"]>[0]) =>
        (await past.list(filter)).map((t) => t.threadId).sort();
      assert.deepEqual(await ids({ cwds: [a] }), [inA, otherAgent].sort());
      assert.ok(
        warned.some((m) => /threads index unavailable/.test(m)),
        "it said why it read the files",
      );
      assert.deepEqual(await ids({ cwds: [a], agent: "Fake" }), [inA]);
      assert.deepEqual(await ids({ cwds: [a], archived: true }), [archived]);
      assert.deepEqual(await ids({ cwds: [repo, b] }), [inB, inWorktree].sort());
      assert.deepEqual(await ids({ cwds: [] }), [inA, inB, otherAgent, inWorktree].sort());
    } finally {
      past.dispose();
    }
  }));
