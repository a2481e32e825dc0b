// The window's own in-process thread host writes its runs' records on the thread pool (durability "soon", #35 item 7):
// a run ends only once its records have landed and its thread file is closed, so a client following the run gets
// every record before `ended`, and when `ended` comes the file is whole and unlocked (a client may open it at once);
// a turn's `turn_ended` is told once its turn_end record is in the file (a listener that reads the thread finds it).
// A question (or an elicitation) of a turn, and a decision the policy made, are told after the turn's `turn_started`.
// The pool's writes of thread records are held back (fs.write of a record line delayed), so the run's end comes
// while its last records are still queued. A real host, a real agent process (the stdio fake agent).
import assert from "node:assert/strict";
import fs from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { hostFront } from "../../../../src/cli/host-runner";
import { connectInProcess } from "../../../../src/core/host/client";
import { hostedRunner } from "../../../../src/core/host/hosted-runner";
import type { HostEvent, HostPush } from "../../../../src/core/host/protocol";
import { ThreadHost } from "../../../../src/core/host/server";
import { nullLogger } from "../../../../src/core/log";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { readRecords } from "../../../../src/core/store/jsonl-reader";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { policyAllowed, timeless } from "../../../fixtures/fake-agents/ask-events";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { ENGINE_PROCESS, fakeRun } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

type Fn = (...a: unknown[]) => unknown;
const fsAny = fs as unknown as Record<string, Fn>;

/** The pool's writes of thread records start `ms` late (fs.write of a buffer of record lines): how many, and the undo. */
function slowRecordWrites(ms: number): { delayed: () => number; restore: () => void } {
  const write = fsAny.write!;
  let delayed = 0;
  fsAny.write = (...a: unknown[]) => {
    const buf = a[1];
    if (!Buffer.isBuffer(buf) || !buf.subarray(0, 5).equals(Buffer.from('{"v":'))) return write(...a);
    delayed++;
    setTimeout(() => write(...a), ms);
  };
  return { delayed: () => delayed, restore: () => (fsAny.write = write) };
}

/** An in-process host at `home` whose runs write on the thread pool (`tellsDecisions`: the policy's answers told). */
const soonHost = (home: string, tellsDecisions = false) =>
  ThreadHost.inProcess({
    home,
    runner: hostedRunner(home, nullLogger, {
      ...hostFront(home),
      durability: "soon",
      ...(tellsDecisions ? { tellsDecisions } : {}),
    }),
    logger: nullLogger,
    engineScripts: { process: ENGINE_PROCESS },
  });

test("an in-process host's run with durability soon: every record reaches its client before `ended`, the file whole and unlocked", () =>
  withTmpDir("acp-inproc-soon-", async (dir) => {
    const home = join(dir, "home");
    const host = soonHost(home);
    const slow = slowRecordWrites(150);
    const c = await connectInProcess(host.connect(), { client: "window (in process)" });
    try {
      const pushes: HostPush[] = [];
      let path = "";
      /** The thread file as `ended` found it. */
      let atEnded: { records: ThreadRecord[]; tornBytes: number; locked: boolean } | undefined;
      /** At each `turn_ended` event: how many turn ends the thread file held. */
      const turnEndsAt: number[] = [];
      c.onPush((m) => {
        pushes.push(m);
        if (m.t === "event" && m.event.kind === "turn_ended") {
          const file = new ThreadStore(home).pathFor(m.event.threadId);
          turnEndsAt.push(readRecords(file).records.filter((x) => x.kind === "turn_end").length);
        }
        if (m.t !== "ended") return;
        const read = readRecords(path);
        atEnded = { records: read.records, tornBytes: read.tornBytes, locked: liveWriter(path) !== undefined };
      });
      await c.request({ t: "events" });
      const r = await c.request({ t: "run", run: fakeRun(dir, { prompts: ["hello", "again"] }) });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id, "the run started");
      path = new ThreadStore(home).pathFor(id);
      await c.request({ t: "attach", threadId: id, from: 0 });
      await waitFor(() => !!atEnded, "the run's `ended`");
      const fed = pushes.flatMap((m) => (m.t === "records" ? m.records : []));
      const said = fed.flatMap((x) => (x.kind === "agent_message" ? [x.text] : []));
      assert.deepEqual(said, ["echo: hello", "echo: again"]);
      assert.ok(slow.delayed() > 0, "the run's records were written on the thread pool (fs.write), not with writeSync");
      // once the thread is closed nothing more lands: what the file holds then is what `ended` should have found
      await waitFor(() => liveWriter(path) === undefined, "the thread closed");
      const final = readRecords(path);
      assert.equal(final.tornBytes, 0);
      assert.deepEqual(fed, final.records, "every record of the thread reached the client, before `ended`");
      assert.deepEqual(atEnded!.records, final.records, "the file was whole when `ended` came");
      assert.equal(atEnded!.tornBytes, 0);
      assert.equal(atEnded!.locked, false, "the thread was closed and unlocked when `ended` came");
      // (the next turn's may be there too: one write of the pool carries every record queued while the last one ran)
      assert.equal(turnEndsAt.length, 2, "two turn_ended events");
      turnEndsAt.forEach((n, i) =>
        assert.ok(n >= i + 1, `turn ${i + 1}'s turn_ended was told with ${n} turn_end records in the file`),
      );
      assert.ok(fed.filter((x) => x.kind === "turn_end").length === 2, "both turns' ends reached the client");
    } finally {
      c.close();
      await host.stop();
      slow.restore();
    }
  }));

test("an in-process host's run with durability soon: a turn's questions and answers are told after its turn_started, the policy's answers too", () =>
  withTmpDir("acp-inproc-order-", async (dir) => {
    const home = join(dir, "home");
    const host = soonHost(home, true); // as the window's own host runs (window-front.ts)
    // the turn's start waits for its prompt's record to land; the agent asks at once
    const slow = slowRecordWrites(150);
    const c = await connectInProcess(host.connect(), { client: "window (in process)" });
    try {
      const events: HostEvent[] = [];
      c.onPush((m) => {
        if (m.t === "event") events.push(m.event);
        if (m.t === "question")
          void c.request({ t: "answer", threadId: m.question.threadId, option: "ok", requestId: m.question.requestId });
      });
      await c.request({ t: "events" });
      // reads: the policy allows them; an edit: asked of the clients, answered by this one
      const run = fakeRun(dir, { prompts: ["ask read", "ask edit"], permission: "approve-reads", askClients: true });
      const r = await c.request({ t: "run", run });
      const id = r.t === "started" ? r.threadId : "";
      await c.request({ t: "attach", threadId: id, from: 0 });
      await waitFor(() => events.some((e) => e.kind === "ended"), "the run's `ended`");
      assert.ok(slow.delayed() > 0, "the run's records were written on the thread pool");
      assert.deepEqual(
        events.map((e) => e.kind),
        [
          "started",
          "turn_started",
          "answered",
          "turn_ended",
          "turn_started",
          "needs_input",
          "answered",
          "turn_ended",
          "ended",
        ],
      );
      const [policy, client] = events.filter((e) => e.kind === "answered");
      // as the editor tells its own sessions' decisions (vscode/api/questions.ts): nobody was asked, the tool
      // call's id is the request's
      assert.deepEqual(timeless(policy), policyAllowed(id));
      assert.equal(client?.kind === "answered" && client.by, "window (in process)");
    } finally {
      c.close();
      await host.stop();
      slow.restore();
    }
  }));
