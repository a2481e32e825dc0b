// The thread host asks an attached editor to serve its agents' files (#35 item 7), against the real host, its real
// run path (the CLI's) and the real stdio fake agent: a session in a folder the editor serves reads the editor's
// answer and writes through it; the disk does what nobody served (no serving client, one that goes mid-request,
// no answer in time, an answer that it failed); a refusal is the agent's error and never falls back. Hostile: a
// path outside the session's roots is refused before anyone is asked, a session outside the client's folders is
// not sent to it, and only the client asked can answer. A write's question carries the edit (diff review). One
// write, never two: an editor still working on a write (saying so) is waited for past the wait; one that vanished
// leaves it to the disk and never applies it late; a silent one is dropped before the disk takes it.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { hostRunner } from "../../../../src/cli/host-runner";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import type { HostEvent, PendingQuestion } from "../../../../src/core/host/protocol";
import type { ServeAnswer, ServeOp } from "../../../../src/core/host/protocol-serve";
import { answerServe } from "../../../../src/core/host/serve-answer";
import { ThreadHost } from "../../../../src/core/host/server";
import { nullLogger } from "../../../../src/core/log";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { waitFor } from "../../../fixtures/spawner/wait";

const TIMEOUT_MS = 400;

interface Editor {
  conn: HostConnection;
  asked: ServeOp[];
}

/** A client serving `roots`; `answer` says what it answers each op (undefined: it never answers). */
async function editor(
  home: string,
  roots: string[],
  answer: (op: ServeOp, conn: HostConnection) => ServeAnswer | undefined,
): Promise<Editor> {
  const conn = await connectHost({ home, client: "an editor", watching: true, serves: { fs: true, roots } });
  assert.ok(conn);
  const asked: ServeOp[] = [];
  conn.onPush((m) => {
    if (m.t !== "serve") return;
    asked.push(m.op);
    const a = answer(m.op, conn);
    if (a) void conn.request({ t: "served", ask: m.ask, answer: a }).catch(() => undefined);
  });
  return { conn, asked };
}

/** Runs the fake agent's `prompt` in `cwd` in the host; its records once the run ended. */
async function run(home: string, cwd: string, prompt: string): Promise<ThreadRecord[]> {
  const conn = await connectHost({ home, client: "acp-threads run --detach" });
  assert.ok(conn);
  try {
    const records: ThreadRecord[] = [];
    const ended = new Promise<void>((resolve) =>
      conn.onPush((m) => {
        if (m.t === "records") records.push(...m.records);
        if (m.t === "ended") resolve();
      }),
    );
    const started = await conn.request({
      t: "run",
      run: { cwd, prompts: [prompt], agent: FAKE_AGENT, permission: "approve-all", env: {}, stallMs: 0, retry: "off" },
    });
    assert.equal(started.t, "started");
    await conn.request({ t: "attach", threadId: started.t === "started" ? started.threadId : "", from: 0 });
    await ended;
    return records;
  } finally {
    conn.close();
  }
}

const said = (records: ThreadRecord[]) => records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : [])).join("");

/** A host in `dir/home`, a workspace `dir/ws` holding a.txt ("on disk"). */
function withHost(fn: (o: { home: string; ws: string; dir: string }) => Promise<void>): Promise<void> {
  return withTmpDir("acp-host-serve-fs-", async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "a.txt"), "on disk");
    const host = new ThreadHost({
      home,
      place: hostPlace(home),
      runner: hostRunner(home, nullLogger),
      logger: nullLogger,
      serveTimeoutMs: { read: TIMEOUT_MS, write: TIMEOUT_MS },
    });
    assert.ok(await host.listen());
    try {
      await fn({ home, ws, dir });
    } finally {
      await host.stop();
    }
  });
}

test("a session in a folder the editor serves reads the editor's text and writes through it, not the disk", () =>
  withHost(async ({ home, ws }) => {
    const e = await editor(home, [ws], (op) => ({ done: true, ...(op.kind === "read" ? { content: "unsaved" } : {}) }));
    try {
      assert.match(said(await run(home, ws, `read ${join(ws, "a.txt")}`)), /read: unsaved/);
      await run(home, ws, `write ${join(ws, "b.txt")} from the agent`);
      assert.equal(existsSync(join(ws, "b.txt")), false, "the editor wrote it (its buffer), not the host");
      assert.deepEqual(
        e.asked.find((op) => op.kind === "write"),
        {
          kind: "write",
          path: join(ws, "b.txt"),
          content: "from the agent",
        },
      );
    } finally {
      e.conn.close();
    }
  }));

test("the disk serves what no editor did: none serving, a failure, no answer in time, a client gone mid-request", () =>
  withHost(async ({ home, ws }) => {
    const a = join(ws, "a.txt");
    // a client that serves nothing
    const plain = await connectHost({ home, client: "acp-threads attach", watching: true });
    assert.match(said(await run(home, ws, `read ${a}`)), /read: on disk/);
    plain?.close();
    // it answers that it failed
    const failing = await editor(home, [ws], () => ({ failed: "the buffer is gone" }));
    assert.match(said(await run(home, ws, `read ${a}`)), /read: on disk/);
    await run(home, ws, `write ${join(ws, "failed.txt")} on the disk`);
    assert.equal(readFileSync(join(ws, "failed.txt"), "utf8"), "on the disk");
    assert.ok(failing.asked.length >= 2, "it was asked first");
    failing.conn.close();
    // it never answers
    const silent = await editor(home, [ws], () => undefined);
    assert.match(said(await run(home, ws, `read ${a}`)), /read: on disk/);
    assert.ok(silent.asked.length >= 1);
    silent.conn.close();
    // it goes while asked
    const leaving = await editor(home, [ws], (_op, conn) => void conn.close());
    assert.match(said(await run(home, ws, `read ${a}`)), /read: on disk/);
    assert.ok(leaving.asked.length >= 1);
  }));

test("hostile: an editor's refusal is the agent's error; the disk never does what it refused", () =>
  withHost(async ({ home, ws }) => {
    const e = await editor(home, [ws], (op) =>
      op.kind === "read" ? { done: true, content: null } : { refused: "the user declined", code: "permission_denied" },
    );
    try {
      await run(home, ws, `write ${join(ws, "refused.txt")} should not be written`);
      assert.ok(
        e.asked.some((op) => op.kind === "write"),
        "the editor was asked",
      );
      assert.equal(existsSync(join(ws, "refused.txt")), false, "no fallback to the disk");
    } finally {
      e.conn.close();
    }
  }));

test("hostile: a path outside the session's roots is refused before the editor is asked, though it claims it", () =>
  withHost(async ({ home, ws, dir }) => {
    const outside = join(dir, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "secret");
    const e = await editor(home, [ws, outside, "/"], () => ({ done: true, content: "served" }));
    try {
      const records = await run(home, ws, `read ${join(outside, "secret.txt")}`);
      assert.deepEqual(e.asked, [], "nobody was asked");
      assert.doesNotMatch(said(records), /read: (served|secret)/);
    } finally {
      e.conn.close();
    }
  }));

test("hostile: a session outside the client's folders is not sent to it", () =>
  withHost(async ({ home, ws, dir }) => {
    const other = join(dir, "other");
    mkdirSync(other);
    writeFileSync(join(other, "c.txt"), "other on disk");
    const e = await editor(home, [ws], () => ({ done: true, content: "served" }));
    try {
      assert.match(said(await run(home, other, `read ${join(other, "c.txt")}`)), /read: other on disk/);
      assert.deepEqual(e.asked, []);
    } finally {
      e.conn.close();
    }
  }));

test("hostile: only the client asked can answer; another client's answer is ignored", () =>
  withHost(async ({ home, ws }) => {
    const intruder = await connectHost({ home, client: "another client", watching: true });
    assert.ok(intruder);
    // the serving client never answers; the intruder answers every ask number it could guess
    const e = await editor(home, [ws], () => {
      for (let ask = 1; ask <= 3; ask++)
        void intruder.request({ t: "served", ask, answer: { done: true, content: "forged" } }).catch(() => undefined);
      return undefined;
    });
    try {
      const text = said(await run(home, ws, `read ${join(ws, "a.txt")}`));
      assert.ok(e.asked.length >= 1);
      assert.match(text, /read: on disk/);
    } finally {
      e.conn.close();
      intruder.close();
    }
  }));

test("a write's question carries the edit to the thread's clients (their diff review), never to status or events", () =>
  withHost(async ({ home, ws }) => {
    const conn = await connectHost({ home, client: "an editor" });
    assert.ok(conn);
    try {
      const events: HostEvent[] = [];
      let question: PendingQuestion | undefined;
      conn.onPush((m) => {
        if (m.t === "event") events.push(m.event);
        if (m.t === "question") question = m.question;
      });
      await conn.request({ t: "events" });
      const path = join(ws, "asked.txt");
      const started = await conn.request({
        t: "run",
        run: {
          cwd: ws,
          prompts: [`write ${path} proposed text`],
          agent: FAKE_AGENT,
          permission: "ask",
          env: {},
          stallMs: 0,
          retry: "off",
        },
      });
      const threadId = started.t === "started" ? started.threadId : "";
      await conn.request({ t: "attach", threadId, from: 0 });
      await waitFor(() => question !== undefined, "the question");
      assert.deepEqual(question?.proposed, { path, oldText: null, newText: "proposed text" });
      const status = await conn.request({ t: "status" });
      const pending = status.t === "status" ? status.status.sessions[0]?.pending : undefined;
      assert.ok(pending && !("proposed" in pending), "status: the question without the texts");
      const asked = events.find((e) => e.kind === "needs_input");
      assert.ok(asked?.kind === "needs_input" && !("proposed" in asked.question), "events: without the texts");
      await conn.request({ t: "answer", threadId, option: "allow" });
      await waitFor(() => existsSync(path), "the write the answer allowed");
    } finally {
      conn.close();
    }
  }));

/** A client serving `roots` through serve-answer.ts (as the window does): `work` answers each op, given its signal. */
async function workingEditor(
  home: string,
  roots: string[],
  work: (op: ServeOp, signal: AbortSignal, conn: HostConnection) => Promise<ServeAnswer>,
  aliveMs = TIMEOUT_MS / 4,
): Promise<Editor & { abandoned: { op: ServeOp; applied: boolean }[] }> {
  const conn = await connectHost({ home, client: "an editor", watching: true, serves: { fs: true, roots } });
  assert.ok(conn);
  const asked: ServeOp[] = [];
  const abandoned: { op: ServeOp; applied: boolean }[] = [];
  conn.onPush((m) => {
    if (m.t !== "serve") return;
    asked.push(m.op);
    void answerServe(conn, m.ask, m.op, (op, signal) => work(op, signal, conn), {
      aliveMs,
      abandoned: (op, applied) => abandoned.push({ op, applied }),
    });
  });
  return { conn, asked, abandoned };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a write the editor works on longer than the wait (a merge view open) is its alone: it says so, no disk write", () =>
  withHost(async ({ home, ws }) => {
    const applied: string[] = [];
    const e = await workingEditor(home, [ws], async (op, signal) => {
      if (op.kind === "read") return { done: true, content: null };
      await sleep(4 * TIMEOUT_MS); // the user takes their time in the merge view
      if (signal.aborted) return { failed: "no longer waited for" };
      applied.push(op.content);
      return { done: true };
    });
    try {
      const path = join(ws, "slow.txt");
      const records = await run(home, ws, `write ${path} from the agent`);
      assert.deepEqual(applied, ["from the agent"], "the editor applied it, once");
      // before, the host gave up after its wait and wrote it on the disk as well: two writes
      assert.equal(existsSync(path), false, "the host did not write it on the disk");
      assert.deepEqual(e.abandoned, []);
      assert.match(said(records), /wrote/);
    } finally {
      e.conn.close();
    }
  }));

test("an answer given while the editor still says 'serving' is taken as given: nothing is reported given up", () =>
  withHost(async ({ home, ws }) => {
    // a 'serving' every millisecond: some go after the answer, and the host (done with the ask) refuses them
    const e = await workingEditor(
      home,
      [ws],
      async (op) => {
        await sleep(50);
        return { done: true, ...(op.kind === "read" ? { content: null } : {}) };
      },
      1,
    );
    try {
      for (let i = 0; i < 3; i++) await run(home, ws, `write ${join(ws, `w${i}.txt`)} from the agent`);
      await sleep(100);
      assert.ok(e.asked.length >= 3);
      assert.deepEqual(e.abandoned, [], "answered, not given up");
    } finally {
      e.conn.close();
    }
  }));

test("a window that vanishes while its write is open: the disk takes the write, the window never applies it late", () =>
  withHost(async ({ home, ws }) => {
    const applied: string[] = [];
    const e = await workingEditor(home, [ws], async (op, signal, conn) => {
      if (op.kind === "read") return { done: true, content: null };
      conn.close(); // the window reloads (its connection goes) while the merge view is open
      await sleep(2 * TIMEOUT_MS);
      if (signal.aborted) return { failed: "no longer waited for" }; // what the window's files check before applying
      applied.push(op.content);
      return { done: true };
    });
    const path = join(ws, "vanished.txt");
    await run(home, ws, `write ${path} from the agent`);
    await waitFor(() => e.abandoned.length > 0, "the window told it gave up the write");
    assert.equal(readFileSync(path, "utf8"), "from the agent", "the disk took it");
    assert.deepEqual(applied, [], "no late apply");
    assert.deepEqual(
      e.abandoned.map((a) => [a.op.kind, a.applied]),
      [["write", false]],
    );
  }));

test("hostile: a serving client silent past the wait on a write is dropped before the disk takes it; another client cannot keep it waiting", () =>
  withHost(async ({ home, ws }) => {
    // it neither answers nor says it still works (an extension host stuck, a half-dead connection)
    const e = await editor(home, [ws], () => undefined);
    let closed = false;
    e.conn.onClose(() => (closed = true));
    // another client says "still working" for every ask number it could guess
    const intruder = await connectHost({ home, client: "another client", watching: true });
    assert.ok(intruder);
    const forging = setInterval(() => {
      for (let ask = 1; ask <= 5; ask++) void intruder.request({ t: "serving", ask }).catch(() => undefined);
    }, TIMEOUT_MS / 8);
    try {
      const path = join(ws, "silent.txt");
      await run(home, ws, `write ${path} from the agent`);
      assert.equal(readFileSync(path, "utf8"), "from the agent");
      // before, its connection stayed: a client that recovered would apply the write the disk already took
      await waitFor(() => closed, "the silent client dropped");
      assert.ok(e.asked.some((op) => op.kind === "write"));
    } finally {
      clearInterval(forging);
      intruder.close();
    }
  }));
