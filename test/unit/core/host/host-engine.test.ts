// #35 item 7: the engine requests over the thread host's socket (`HostConnection.engine`) give the reply the engine
// gives in process (`localEngine`), against a real host in this process and the same data home: the same listing,
// inspection and Markdown, a restore with the same progress and warnings in the same order (pushed before the
// reply), a fork written the same way. An engine error keeps its AcpThreadsError code and message across the socket;
// bad input is refused there as in process (usage, the field named), and a raw message with no request in it too.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine, EngineProgress, EngineRequest } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { outcome, threadWith } from "../engine/helpers";

/** A snapshot of `n` exchanges saved in `root` whose start commit is in no repository (a restore warns). */
function bigSnapshot(path: string, root: string, n: number): void {
  const messages = Array.from({ length: n }, (_, i) => [
    { role: "user", content: `question ${i}` },
    { role: "assistant", content: `answer ${i}` },
  ]).flat();
  const state = { agent_type: "acp", root_dir: root, agent: "fake", mode: "default", model: null };
  const more = { permission_policy: "ask", start_commit: "0123456789abcdef", messages, non_interactive: false };
  writeFileSync(
    path,
    JSON.stringify({
      version: "1.0",
      saved_at: "2026-01-01T00:00:00.000Z",
      file_prefix: "p",
      state: { ...state, ...more },
    }),
  );
}

test("an engine request over the host's socket gives the reply, the progress and the error it gives in process", () =>
  withCliHost("acp-host-engine-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    const local = localEngine({ home });
    const conn = await connectHost({ home, client: "engine test" });
    assert.ok(conn);
    try {
      const remote = conn.asEngine;
      const id = threadWith(store, dir, 3);
      store.patchMetadata(threadWith(store, dir, 1, "Named"), { tags: ["session:fixes"] });
      const snap = join(dir, "big.json");
      bigSnapshot(snap, dir, 300); // 600 messages: over the progress threshold

      const same: EngineRequest[] = [
        { op: "export.folder", home: dir },
        { op: "snapshot.list", dirs: [{ dir }] },
        { op: "snapshot.inspect", path: snap },
        { op: "markdown.export", threadId: id },
        // errors: the engine's code and message, whichever way it was asked
        { op: "snapshot.inspect", path: join(dir, "missing.json") },
        { op: "markdown.export", threadId: "0194a2b3-0000-7000-8000-000000000000" },
        { op: "snapshot.restore", path: snap, rootDir: "relative/root" },
        // bad input, refused alike
        { op: "snapshot.inspect", path: "relative.json" },
        { op: "nope" } as never,
        // the agents area: the runtimes of the host's data home, doctor over a configured agent; a URL is no version
        { op: "runtime.list" },
        { op: "runtime.remove", version: "99.1.0" },
        { op: "runtime.install", spec: "https://example.invalid/node.tgz" },
        { op: "agents.doctor", cwd: dir, probe: false, custom: { mine: { command: "no-such-agent-command" } } },
        // reading threads: the listing, a thread's records from a cursor, its metadata; a path for an id is refused
        { op: "threads.list", workspace: dir, archived: "include", rescan: true },
        { op: "threads.read", threadId: id.slice(0, 13), from: 2 },
        { op: "threads.meta", threadId: id },
        { op: "threads.read", threadId: `../${id}` },
        { op: "threads.meta", threadId: "0194a2b3-0000-7000-8000-000000000000" },
        // the front ends' listings: a named session, "since you left" with its files, the listing from the files
        { op: "threads.named", name: "fixes", workspace: dir },
        { op: "threads.named", name: "none", workspace: dir },
        { op: "threads.away", since: "2000-01-01T00:00:00.000Z", workspace: dir },
        { op: "threads.scan", roots: [dir], agent: "Fake" },
        { op: "threads.scan", roots: ["relative"] },
        // the CLI's thread targets: a prefix's whole id, a missing one, a folder's workspace
        { op: "threads.resolve", threadId: id.slice(0, 13) },
        { op: "threads.resolve", threadId: "../x" },
        { op: "threads.workspace", cwd: dir },
        // resolving an agent on the host's PATH: a command line, an unknown name, a spec's program
        { op: "agents.resolve", agent: `${process.execPath} --acp`, cwd: dir },
        { op: "agents.resolve", agent: "nope", cwd: dir },
        { op: "agents.which", spec: { id: "n", displayName: "N", command: "node", args: [] }, cwd: dir },
      ];
      for (const req of same) assert.deepStrictEqual(await outcome(remote, req), await outcome(local, req), req.op);
      const missing = (await outcome(remote, same[4]!)) as { error: unknown[] };
      assert.deepEqual(missing.error.slice(0, 2), [true, "not_found"], "the engine's code crossed the socket");

      // a restore: the same progress and warning, in the same order, and a thread with the same conversation
      const restore = async (engine: Engine) => {
        const seen: EngineProgress[] = [];
        const r = await engine.call({ op: "snapshot.restore", path: snap }, { onProgress: (p) => seen.push(p) });
        return { seen, r, said: conversation(store.read(r.threadId).records).map((e) => [e.role, e.text]) };
      };
      const here = await restore(local);
      const there = await restore(remote);
      assert.equal(here.seen[0]?.t, "warning", "the start commit's warning comes first");
      assert.deepEqual(
        here.seen.filter((p) => p.t === "progress").map((p) => p.t === "progress" && p.done),
        [250, 500, 600],
      );
      assert.deepStrictEqual(there.seen, here.seen, "the same progress over the socket");
      assert.notEqual(there.r.threadId, here.r.threadId);
      assert.deepStrictEqual({ ...there.r, threadId: "", path: "" }, { ...here.r, threadId: "", path: "" });
      assert.deepStrictEqual(there.said, here.said);
      assert.equal(there.said.length, 600);

      // a fork over the socket is the same fork
      const f1 = await local.call({ op: "fork.write", sourceId: id, at: 2, title: "t" });
      const f2 = await remote.call({ op: "fork.write", sourceId: id, at: 2, title: "t" });
      assert.deepStrictEqual({ ...f2, threadId: "" }, { ...f1, threadId: "" });
      const records = (t: string) =>
        store.read(t).records.filter((r) => r.kind !== "thread_start" && r.kind !== "meta_patch");
      assert.deepStrictEqual(records(f2.threadId), records(f1.threadId));
      assert.deepEqual(store.readMetadata(id).forks, [f1.threadId, f2.threadId]);

      // a raw message with no request in it: a clear usage error, the connection still serves
      const raw = await conn.request({ t: "engine", req: undefined } as never).catch((e: AcpThreadsError) => e);
      assert.ok(raw instanceof AcpThreadsError);
      assert.equal(raw.code, "usage");
      assert.match(raw.message, /not an engine request/);
      assert.deepEqual(await remote.call({ op: "export.folder", home: dir }), { dir });
    } finally {
      conn.close();
    }
  }));
