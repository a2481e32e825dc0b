// The thread host over an in-process connection (#35 item 7, step 2 of the session start plan): a client in the
// host's own process (the window, next) gets what a socket's client gets: a run's records and events, attach from a
// cursor beside a socket's client, permission questions answered first-wins, and the same flow control: a client
// that stops reading holds a bounded buffer in the host, catches up, and past the hard cap is let go and reattaches
// from its cursor. A host made in process listens nowhere, takes no lock, never leaves when idle, and its stop()
// removes nothing it did not make. Real hosts; a real agent process (the stdio fake agent) where a run is needed.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { hostRunner } from "../../../../src/cli/host-runner";
import { connectInProcess, type HostConnection } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import type { HostPush } from "../../../../src/core/host/protocol";
import { HostRefusal } from "../../../../src/core/host/protocol-refusal";
import { CLIENT_BUFFER_CAP, HARD_BUFFER_CAP, ThreadHost } from "../../../../src/core/host/server";
import { nullLogger } from "../../../../src/core/log";
import type { HostWatchdog } from "../../../../src/core/host/protocol";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { ENGINE_PROCESS, fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { pushClient } from "../../../fixtures/host/push-client";
import { collect, slowBesideFast } from "../../../fixtures/host/feed-checks";
import { stubHost } from "../../../fixtures/host/stub-host";
import { waitFor } from "../../../fixtures/spawner/wait";

/** An in-process client of `host` that keeps every push. */
async function inProcessClient(host: ThreadHost, name: string, conns: HostConnection[]) {
  const c = await connectInProcess(host.connect(), { client: name });
  conns.push(c);
  const pushes: HostPush[] = [];
  c.onPush((m) => pushes.push(m));
  return { c, pushes };
}

test("a host made in process runs a real agent for its in-process client; no socket, lock or idle leave", () =>
  withTmpDir("acp-inproc-", async (dir) => {
    const home = join(dir, "home");
    const place = hostPlace(home);
    const host = ThreadHost.inProcess({
      home,
      runner: hostRunner(home, nullLogger),
      logger: nullLogger,
      idleMs: 50,
      engineScripts: { process: ENGINE_PROCESS },
    });
    let left = false;
    void host.closed.then(() => (left = true));
    const conns: HostConnection[] = [];
    try {
      const w = await inProcessClient(host, "window (in process)", conns);
      await w.c.request({ t: "events" });
      const r = await w.c.request({ t: "run", run: fakeRun(dir, { prompts: ["hello", "again"] }) });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id, "the run started");
      await w.c.request({ t: "attach", threadId: id, from: 0 });
      const ended = () => w.pushes.find((m) => m.t === "ended");
      await waitFor(() => !!ended(), "the run ended");
      assert.equal(ended()?.t === "ended" && ended()?.exitCode, 0);
      const fed = w.pushes.flatMap((m) => (m.t === "records" ? m.records : []));
      const said = fed.flatMap((x) => (x.kind === "agent_message" ? [x.text] : []));
      assert.deepEqual(said, ["echo: hello", "echo: again"]);
      // what it was fed is the thread file, record for record
      assert.deepEqual(fed, new ThreadStore(home).read(id).records);
      const kindsOf = () => w.pushes.flatMap((m) => (m.t === "event" && m.event.threadId === id ? [m.event.kind] : []));
      // the host announces `ended` once the thread's feed has ended (host-run.ts): it may come after the feed's
      // `ended` push, on a later turn of the in-process connection
      await waitFor(() => kindsOf().includes("ended"), "the ended event");
      const kinds = kindsOf();
      for (const k of ["started", "turn_started", "turn_ended", "ended"] as const) assert.ok(kinds.includes(k), k);
      const st = await w.c.request({ t: "status" });
      assert.ok(st.t === "status" && st.status.clients === 1 && st.status.socket === "(in process)");
      // nothing at the door: no socket, no lock, no key
      for (const p of [place.socket, place.hostLock, place.key]) assert.equal(existsSync(p), false, p);
      // idle (no run, and its client gone) far past idleMs: it still serves, until its owner stops it
      w.c.close();
      await waitFor(() => host.status().clients === 0, "the client's end closed");
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(left, false, "an in-process host does not leave when idle");
      const again = await inProcessClient(host, "later", conns);
      assert.equal((await again.c.request({ t: "status" })).t, "status");
    } finally {
      for (const c of conns) c.close();
      await host.stop();
    }
    assert.equal(left, true, "stop() resolves closed");
    assert.throws(() => host.connect(), /does not serve/);
  }));

test("an in-process and a socket client attached at different cursors each get every record once, in order", () =>
  withTmpDir("acp-inproc-", async (home) => {
    const stub = await stubHost(home);
    try {
      stub.append(["a", "b", "c"]);
      const inner = await connectInProcess(stub.host.connect(), { client: "in process" });
      const seenInner = collect(inner, 0);
      await inner.request({ t: "attach", threadId: stub.threadId, from: 0 });
      stub.append(["d"]);
      const outer = await stub.client("socket");
      const seenOuter = collect(outer, 2);
      await outer.request({ t: "attach", threadId: stub.threadId, from: 2 });
      for (let i = 0; i < 50; i++) stub.append([`x${i}`]);
      // a second in-process client, attached from where the records are now
      const late = await connectInProcess(stub.host.connect(), { client: "in process, late" });
      const seenLate = collect(late, 40);
      await late.request({ t: "attach", threadId: stub.threadId, from: 40 });
      for (let i = 50; i < 60; i++) stub.append([`x${i}`]);
      stub.end();
      await waitFor(() => seenInner.at.ended && seenOuter.at.ended && seenLate.at.ended, "all three saw the end");
      const all = ["a", "b", "c", "d", ...Array.from({ length: 60 }, (_, i) => `x${i}`)];
      assert.deepEqual(seenInner.texts, all);
      assert.deepEqual(seenOuter.texts, all.slice(2));
      assert.deepEqual(seenLate.texts, all.slice(40));
      for (const c of [inner, outer, late]) c.close();
    } finally {
      stub.end();
      await stub.host.stop();
    }
  }));

test("a permission question: the in-process client answers first, the socket client is told who did", () =>
  withCliHost("acp-inproc-ask-", async ({ dir, home, host }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const conns: HostConnection[] = [];
    try {
      const window = await inProcessClient(host, "VS Code window (in process)", conns);
      const terminal = await pushClient(home, "acp-threads attach (pid 2)", conns);
      await terminal.c.request({ t: "events" });
      const file = join(ws, "out.txt");
      const r = await window.c.request({
        t: "run",
        run: fakeRun(ws, { permission: "ask", prompts: [`write ${file} hello`] }),
      });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id, "the run started");
      for (const c of [window, terminal]) await c.c.request({ t: "attach", threadId: id, from: 0 });
      const questions = (pushes: HostPush[]) => pushes.flatMap((m) => (m.t === "question" ? [m.question] : []));
      await waitFor(() => questions(window.pushes).length > 0 && questions(terminal.pushes).length > 0, "asked");
      const q = questions(window.pushes)[0]!;
      assert.equal(questions(terminal.pushes)[0]!.requestId, q.requestId);
      const won = await window.c.request({ t: "answer", threadId: id, option: "yes", requestId: q.requestId });
      assert.equal(won.t, "answered");
      const late = await terminal.c.request({ t: "answer", threadId: id, option: "no", requestId: q.requestId }).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(late instanceof HostRefusal && late.reason === "answered", String(late));
      assert.match(late.message, /already answered by VS Code window \(in process\)/);
      for (const c of [window, terminal]) {
        await waitFor(() => c.pushes.some((m) => m.t === "settled"), "settled pushed");
        const s = c.pushes.filter((m) => m.t === "settled");
        assert.equal(s.length, 1);
        assert.ok(s[0]!.t === "settled" && s[0]!.by === "VS Code window (in process)" && s[0]!.optionId === "yes");
      }
      const answered = terminal.events(id, "answered");
      assert.equal(answered.length, 1);
      assert.equal(answered[0]!.kind === "answered" && answered[0]!.by, "VS Code window (in process)");
      await waitFor(() => existsSync(file), "the allowed write happened");
      const rec = new ThreadStore(home).read(id).records.find((x) => x.kind === "permission");
      assert.ok(rec?.kind === "permission" && rec.decidedBy === "user" && rec.optionId === "yes");
    } finally {
      for (const c of conns) c.close();
    }
  }));

test("hostile: an in-process client that stops reading is held to the cap, catches up, and past the hard cap is let go; it reattaches from its cursor", () =>
  withTmpDir("acp-inproc-", async (home) => {
    const stub = await stubHost(home);
    try {
      const { slow, fast, seenSlow, seenFast, appended, most } = await slowBesideFast(stub, (name) =>
        connectInProcess(stub.host.connect(), { client: `${name} (in process)` }),
      );
      assert.ok(most > CLIENT_BUFFER_CAP / 2, `the slow client's bytes wait in the host (${most})`);
      // its reader resumes: it catches up from the file, nobody waited for it
      slow.sock.resume();
      await waitFor(() => seenSlow.texts.length === appended, "the slow client caught up");
      // it stops again, and the run's pushes that are not records (a watchdog's, large) pile up past the hard cap
      slow.sock.pause();
      const ctl = stub.ctl();
      const outcome = "y".repeat(256 * 1024);
      const watchdog = { alert: undefined, next: undefined, running: undefined, exhausted: false, auto: false };
      const history = [{ step: "continue", at: 0, outcome }] as HostWatchdog["history"];
      let sent = 0;
      let held = 0; // what the host held for it before the push that let it go
      while (stub.host.status().clients === 2 && sent * outcome.length < 4 * HARD_BUFFER_CAP) {
        held = stub.host.status().maxUnsent;
        ctl.watchdog({ ...watchdog, history });
        sent++;
        await new Promise((r) => setImmediate(r));
      }
      assert.equal(stub.host.status().clients, 1, "the slow client was let go");
      // at the hard cap, not before: it held up to HARD_BUFFER_CAP, and one more push went past it
      const push = JSON.stringify({ t: "watchdog", threadId: stub.threadId, watchdog: { ...watchdog, history } });
      assert.ok(held <= HARD_BUFFER_CAP && held + push.length + 1 > HARD_BUFFER_CAP, `held ${held} before the cut`);
      stub.append(["after 1", "after 2"]);
      await waitFor(() => seenFast.texts.length === appended + 2, "the fast client never noticed");
      // its end ends once it reads what it had; it reattaches from its cursor and gets the rest, once each
      slow.sock.resume();
      await waitFor(() => slow.closed, "the slow client's connection closed");
      const back = await connectInProcess(stub.host.connect(), { client: "slow, again" });
      const seenBack = collect(back, seenSlow.at.next);
      await back.request({ t: "attach", threadId: stub.threadId, from: seenSlow.at.next });
      stub.append(["after 3"]);
      stub.end();
      await waitFor(() => seenBack.at.ended && seenFast.at.ended, "both saw the end");
      assert.deepEqual([...seenSlow.texts, ...seenBack.texts], seenFast.texts);
      for (const c of [fast, slow, back]) c.close();
    } finally {
      stub.end(); // a run still going keeps its feed's timer (a failed assertion left it: the file never ended)
      await stub.host.stop();
    }
  }));
