// #35 item 7: the thread host serves the long engine requests (a recall import, a compaction) in an engine worker of
// its own (host-worker.ts), over its real socket: an import is served and finishes (it was refused before), a cancel
// stops it mid-way and the next import resumes it, a live session's updates keep flowing while an import holds the
// worker busy (order, not time: they arrive before the import's reply), a recall read that syncs the index first
// runs there too, and a worker that crashes fails that
// request only: the host, its session and the next import go on. The host finds the worker beside its bundle, in
// the repository's dist/ and in the packaged extension's layout.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { writeCorpus } from "../../../../bench/recall-corpus";
import type { EngineProgress } from "../../../../src/core/engine/requests";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import { engineProcessScript } from "../../../../src/core/host/host-worker";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { repoRoot } from "../../../fixtures/agent-env";
import { ENGINE_PROCESS, fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { withTmp } from "../store/helpers";

const HELD = join(repoRoot(), "dist-test", "fixtures", "host", "held-engine.main.js");

async function client(home: string): Promise<HostConnection> {
  const c = await connectHost({ home, client: "recall import test" });
  assert.ok(c);
  return c;
}

/**
 * A host whose engine worker is the gated one (held-engine.main.ts), with the gate file `gate` written beside its
 * data home first, and a client of it.
 */
const withGatedHost = (
  prefix: string,
  gate: string,
  fn: (o: { dir: string; home: string; conn: HostConnection }) => Promise<void>,
) =>
  withCliHost(
    prefix,
    async ({ dir, home }) => {
      writeFileSync(join(dir, gate), "");
      const conn = await client(home);
      try {
        await fn({ dir, home, conn });
      } finally {
        conn.close();
      }
    },
    { engineScripts: { process: ENGINE_PROCESS, worker: HELD } },
  );

test("the host serves a recall import in its worker: progress, a cancel mid-way, a resume to the end, a compaction", () =>
  withCliHost("acp-host-import-", async ({ dir, home }) => {
    const corpus = writeCorpus(join(dir, "sessions"), 6000);
    const conn = await client(home);
    try {
      const codex = { root: corpus.root, allHistory: true };
      const abort = new AbortController();
      const seen: EngineProgress[] = [];
      const first = await conn.engine(
        { op: "recall.import", own: true, codex },
        {
          signal: abort.signal,
          onProgress: (p) => {
            seen.push(p);
            if (p.t === "import" && p.progress.source === "codex_rollout" && p.progress.bytesDone > 0) abort.abort();
          },
        },
      );
      const last = first[first.length - 1]!;
      assert.equal(last.source, "codex_rollout");
      assert.equal(last.cancelled, true, "the cancel reached the import in the host's worker");
      assert.ok(last.messages < corpus.messages, `stopped mid-way (${last.messages} of ${corpus.messages})`);
      assert.ok(seen.length > 0, "progress came over the socket");

      const again = await conn.engine({ op: "recall.import", codex });
      assert.equal(again[0]!.cancelled, undefined, "the resumed import finished");
      const status = await conn.engine({ op: "recall.status" });
      assert.equal(status.totals.messages, corpus.messages, "every message exactly once");
      const added = again.reduce((n, s) => n + s.messages, 0);
      assert.deepEqual(Object.keys(await conn.engine({ op: "recall.compact", added })).sort(), ["compacted"]);
    } finally {
      conn.close();
    }
  }));

test("a live session's updates reach its client while an import holds the host's worker busy, before its reply", () =>
  withGatedHost("acp-host-import-held-", "hold", async ({ dir, home, conn }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const { conn: watcher, events } = await listening(home);
    try {
      const order: string[] = [];
      const imported = conn.engine({ op: "recall.import", own: true }).then((r) => (order.push("import reply"), r));
      await waitFor(() => existsSync(join(dir, "held")), "the import holding the worker");
      const r = await watcher.request({ t: "run", run: fakeRun(ws) });
      assert.equal(r.t, "started");
      const threadId = r.t === "started" ? r.threadId : "";
      const records: ThreadRecord[] = [];
      watcher.onPush((m) => void (m.t === "records" && m.threadId === threadId && records.push(...m.records)));
      await watcher.request({ t: "attach", threadId, from: 0 });
      const ended = () => events.some((e) => e.threadId === threadId && e.kind === "ended");
      await waitFor(ended, "the session's end, while the import is held");
      await waitFor(() => records.some((x) => x.kind === "agent_message"), "the agent's reply records");
      order.push("session updates");
      writeFileSync(join(dir, "go"), "");
      assert.ok(Array.isArray(await imported), "the held import then finishes");
      assert.deepEqual(order, ["session updates", "import reply"]);
    } finally {
      watcher.close();
    }
  }));

test("a recall read that syncs the index first runs in the host's worker, not on the sessions' thread", () =>
  withGatedHost("acp-host-sync-read-", "hold", async ({ dir, conn }) => {
    // the gate holds only what reaches the worker: a read served on the host's own thread would answer at once
    const read = conn.engine({ op: "recall.search", query: "anything", global: true, sync: true });
    await Promise.race([
      waitFor(() => existsSync(join(dir, "held")), "the syncing read held in the host's worker"),
      read.then(() => assert.fail("the syncing read was answered on the host's own thread, not in its worker")),
    ]);
    assert.equal((await conn.engine({ op: "recall.status" })).totals.messages, 0, "the host answers meanwhile");
    writeFileSync(join(dir, "go"), "");
    assert.ok(Array.isArray((await read).sessions), "the read then answers");
  }));

test("a worker (or its engine process) that crashes fails that import only: the host, its session, the next import go on", () =>
  withGatedHost("acp-host-import-crash-", "crash", async ({ dir, conn }) => {
    const r = await conn.request({ t: "run", run: fakeRun(dir, { prompts: ["sleep 60000"] }) });
    assert.equal(r.t, "started");
    const threadId = r.t === "started" ? r.threadId : "";
    const working = async () => {
      const s = await conn.request({ t: "status" });
      return s.t === "status" && s.status.sessions.some((x) => x.threadId === threadId && x.state === "working");
    };
    await assert.rejects(conn.engine({ op: "recall.import", own: true }), /engine worker stopped \(exit code 7\)/);
    assert.ok(existsSync(join(dir, "crashed")));
    assert.ok(await working(), "the session still runs in the host");
    assert.ok(Array.isArray(await conn.engine({ op: "threads.list", workspace: dir })), "the host answers");
    assert.ok(Array.isArray(await conn.engine({ op: "recall.import", own: true })), "a new worker imports");
    assert.ok(await working(), "and the session still runs");
    // the engine process itself killed: that import fails, the next one forks another process
    writeFileSync(join(dir, "kill"), "");
    await assert.rejects(conn.engine({ op: "recall.import", own: true }), /engine process stopped \(SIGKILL\)/);
    assert.ok(await working(), "the session still runs");
    assert.ok(Array.isArray(await conn.engine({ op: "recall.import", own: true })), "a new process imports");
  }));

test("the host finds its engine worker beside its bundle: the repository's dist/ and the packaged extension's", () =>
  withTmp((dir) => {
    assert.equal(engineProcessScript(join(repoRoot(), "dist", "cli")), ENGINE_PROCESS);
    const ext = join(dir, "extension", "dist");
    mkdirSync(join(ext, "cli"), { recursive: true });
    assert.equal(engineProcessScript(join(ext, "cli")), undefined, "none there yet");
    writeFileSync(join(ext, "engine-process-worker.js"), "");
    assert.equal(engineProcessScript(join(ext, "cli")), join(ext, "engine-process-worker.js"));
    assert.equal(engineProcessScript(ext), join(ext, "engine-process-worker.js"), "and from a bundle in dist/ itself");
  }));
