// #35 item 7, cancellable engine requests: a recall request stops at its next step once its caller aborts it, with
// an `interrupted` error, in process (`localEngine`) and over the thread host's socket (`engine_cancel`); a request
// not aborted answers as before. Hostile: a client cannot cancel another client's request (requests are kept per
// connection: the same number on another connection is another request). A recall import is served by the host in
// its engine worker (host-worker.ts; test/unit/core/host/host-recall-import.test.ts).
import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { EngineRequest } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import { HostEngine } from "../../../../src/core/host/host-engine";
import type { EngineHostPush } from "../../../../src/core/host/protocol-engine";
import { nullLogger } from "../../../../src/core/log";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env";
import { ENGINE_PROCESS, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { withTmp } from "../store/helpers";
import { threadWith } from "./helpers";

const SEARCH: EngineRequest = { op: "recall.search", query: "question", global: true, sync: true };
/** Answered at once in the engine process (nothing to compact), and not held by the gated worker. */
const COMPACT: EngineRequest = { op: "recall.compact", added: 0 };
const HELD = join(repoRoot(), "dist-test", "fixtures", "host", "held-engine.main.js");
const interrupted = (err: unknown) => err instanceof AcpThreadsError && err.code === "interrupted";

test("a recall request aborted once started stops with `interrupted`, in process; one not aborted answers", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(`${dir}/home`);
    threadWith(store, dir, 3);
    const engine = localEngine({ home: store.home });
    const abort = new AbortController();
    const cancelled = engine.call(SEARCH, { signal: abort.signal });
    abort.abort();
    await assert.rejects(cancelled, interrupted);
    const found = await engine.call(SEARCH, { signal: new AbortController().signal });
    assert.equal(found.status, "ok", "the same request not aborted answers (our threads synced first)");
    const status = new AbortController();
    const st = engine.call({ op: "recall.status" }, { signal: status.signal });
    status.abort();
    await assert.rejects(st, interrupted, "every recall request stops at its first step");
  }));

test("the host cancels a request for the connection that sent it, never for another one", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(`${dir}/home`);
    threadWith(store, dir, 2);
    // SEARCH syncs the index first: the host serves it in its engine process (host-worker.ts), whose worker here is
    // the gated one (held-engine.main.ts): with `hold` beside the data home, a syncing read holds the worker's
    // thread (writing `held`) until `go` appears, so a request cannot end before the test lets it: no race between
    // a cancel and a search that a synced index answers in milliseconds
    const host = new HostEngine({
      home: store.home,
      logger: nullLogger,
      engine: { process: ENGINE_PROCESS, worker: HELD },
    });
    const at = (name: string) => join(dir, name);
    const pushes: EngineHostPush[] = [];
    const push = (m: EngineHostPush) => pushes.push(m);
    const [alice, mallory, probe] = [{}, {}, {}];
    let probes = 0;
    /** A request held in the worker: sent, and seen held there; its reply (in an object: not awaited here). */
    const held = async (owner: object, id: number) => {
      rmSync(at("go"), { force: true });
      rmSync(at("held"), { force: true });
      const reply = host.request({ t: "engine", id, req: SEARCH }, owner, push);
      await waitFor(() => existsSync(at("held")), `request ${id} held in the engine worker`);
      return { reply };
    };
    /**
     * Lets the held request go once the engine process has read every message sent before now (a cancel the host
     * relayed is then on the worker's cancel port: its channel keeps their order, and this compaction, not gated,
     * is answered after them); the worker fetches its cancels before it serves a call.
     */
    const release = async () => {
      const relayed = await host.request({ t: "engine", id: ++probes, req: COMPACT }, probe, push);
      assert.equal(relayed.t, "engine", JSON.stringify(relayed));
      writeFileSync(at("go"), "");
    };
    writeFileSync(at("hold"), "");
    // mallory cancels alice's request number 1 (she knows the number: every connection counts from 1)
    const { reply: hers } = await held(alice, 1);
    const refused = await host.request({ t: "engine_cancel", id: 1, call: 1 }, mallory, push);
    assert.deepEqual(refused, { t: "ok", id: 1 }, "answered as any cancel (it says nothing of other clients)");
    await release();
    const reply = await hers;
    assert.equal(reply?.t, "engine", `alice's request answered: ${JSON.stringify(reply).slice(0, 200)}`);
    // alice cancels her own
    const { reply: again } = await held(alice, 2);
    await host.request({ t: "engine_cancel", id: 3, call: 2 }, alice, push);
    await release();
    const stopped = await again;
    assert.equal(stopped?.t, "error", JSON.stringify(stopped).slice(0, 200));
    assert.equal((stopped as { engine?: { code: string } }).engine?.code, "interrupted");
    // a closed connection's requests are cancelled
    const { reply: orphan } = await held(alice, 4);
    host.closed(alice);
    await release();
    assert.equal((await orphan)?.t, "error");
    await host.close();
  }));

test("over the host's socket: an aborted call is cancelled there; another client's cancel of its number is not", () =>
  withCliHost("acp-engine-cancel-", async ({ dir, home }) => {
    threadWith(new ThreadStore(home), dir, 2);
    const alice = await connectHost({ home, client: "alice" });
    const mallory = await connectHost({ home, client: "mallory" });
    assert.ok(alice && mallory);
    try {
      const abort = new AbortController();
      const first = alice.engine(SEARCH, { signal: abort.signal });
      abort.abort(); // the host opens the index (SQLite's WASM) and syncs first: the cancel is there before
      await assert.rejects(first, interrupted);
      // mallory's request numbers and alice's are counted apart: her cancel of alice's next number touches nothing
      const hers = alice.engine(SEARCH);
      await mallory.request({ t: "engine_cancel", call: 2 });
      await mallory.request({ t: "engine_cancel", call: 3 });
      assert.equal((await hers).status, "ok", "alice's request answered");
      // an import runs in the host's engine worker (host-worker.ts; it was refused: it would hold the sessions)
      assert.ok(Array.isArray(await alice.engine({ op: "recall.import", own: true })), "an import is served");
    } finally {
      alice.sock.destroy();
      mallory.sock.destroy();
    }
  }));
