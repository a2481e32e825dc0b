// The edit ledger numbers a thread's turns by its user messages (turn K starts with the K-th prompt), also across a
// resume (a seeded one: the agent cannot load) and in a fork resumed seeded (Rewind's), so a restore's "later turn
// N" names a prompt the thread has. A steered message ("Send now") belongs to the turn it was steered into: the
// ledger, rewindPoint, showTurn and the panel's turnEnds all number the turns by prompts (the last test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFork } from "../../../../src/core/handoff/fork";
import { numberedMessages } from "../../../../src/core/handoff/fork-cut";
import { rewindPoint } from "../../../../src/core/handoff/rewind-point";
import { recordsToEvents } from "../../../../src/core/thread/record-events";
import { showTurn, type HubParts } from "../../../../src/vscode/ledger/hub-wiring";
import { ThreadModel } from "../../../../src/webview/thread/model";
import { turnEnds } from "../../../../src/webview/thread/turn-changes";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { ThreadSession } from "../../../../src/core/session";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startFake, type FakeAgentScript } from "../../../fixtures/fake-agents/in-process";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

const agentRef = { id: "fake", name: "Fake", command: "/bin/false" };

/** Each prompt "write NAME" writes NAME.txt in the folder. */
function writer(ws: string): FakeAgentScript {
  return {
    async prompt(t) {
      const text = t.params.prompt.map((b) => (b.type === "text" ? b.text : "")).join(" ");
      const name = /write (\w+)/.exec(text.split("\n").pop() ?? "")?.[1];
      if (name) await writeFile(join(ws, `${name}.txt`), `${name}\n`);
      await t.say("done");
      return "end_turn";
    },
  };
}

/** A ledger in `home` that notes the turn number of every turn begun. */
function noting(home: string): { ledger: EditLedger; begun: number[] } {
  const ledger = new EditLedger({ home });
  const begun: number[] = [];
  const begin = ledger.beginTurn.bind(ledger);
  ledger.beginTurn = (info, opts) => (begun.push(info.turn), begin(info, opts));
  return { ledger, begun };
}

/** Sessions of the in-process writer in `<dir>/ws`, recorded in `<dir>/home`: two prompts, then closed. */
async function twoPrompts(dir: string) {
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const home = join(dir, "home");
  const { ledger, begun } = noting(home);
  const opts = {
    store: new ThreadStore(home),
    live: { flushMs: 0 },
    ledger,
    createRuntime: () => startFake(writer(ws), { cwd: ws, permissionPolicy: "approve-all" }),
  };
  const s = await ThreadSession.start({ ...opts, agent: agentRef, cwd: ws });
  await s.prompt("write one");
  await s.prompt("write two");
  await s.close();
  return { ws, ledger, begun, opts, threadId: s.threadId };
}

test("turns keep their prompt's number across a seeded resume", () =>
  withTmp(async (dir) => {
    const { ledger, opts, threadId } = await twoPrompts(dir);
    const r = await ThreadSession.resume(opts, threadId);
    await r.prompt("write three");
    await r.prompt("write four");
    await r.close();
    const users = opts.store.read(threadId).records.filter((x) => x.kind === "user_message");
    assert.equal(users.length, 4);
    const turns = (id: string) =>
      ledger
        .read(id)
        .ops.filter((o) => o.type === "turn")
        .map((o) => o.turn);
    assert.deepEqual(turns(threadId), [1, 2, 3, 4]);
    // Rewind's fork before prompt 3 (after message 4), resumed seeded: its prompts are its turns 3 and 4
    const fork = writeFork(opts.store, threadId, 4, { allowEmpty: true });
    const f = await ThreadSession.resume(opts, fork.threadId);
    await f.prompt("write five");
    await f.prompt("write six");
    await f.close();
    assert.equal(opts.store.read(fork.threadId).records.filter((x) => x.kind === "user_message").length, 4);
    assert.deepEqual(turns(fork.threadId), [3, 4], "a fork's turns go on from the prompts it holds");
    assert.deepEqual(turns(threadId), [1, 2, 3, 4], "the source's ledger is its own");
  }));

// #37 item 4's "later turn 5" in a 4-prompt thread: a steered message took a turn number (the ledger, rewindPoint
// and showTurn counted it, the panel's turnEnds did not). Until stop 33 this test pinned that numbering ([1, 3]);
// it now holds the promised one: the prompt after a steered message is turn 2, and every place agrees.
test("a steered message belongs to its turn: the ledger, rewindPoint, showTurn and the panel number turns by prompts", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new ThreadStore(home);
    const { ledger, begun } = noting(home);
    const spec = { id: "fake-stdio", displayName: "Fake stdio", command: process.execPath, args: [AGENT_JS] };
    const env = { FAKE_AGENT_STEERING: "1" };
    const s = await ThreadSession.start({
      store,
      agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
      cwd: dir,
      live: { flushMs: 0 },
      ledger,
      createRuntime: () => createAgentRuntime({ agent: { ...spec, env }, cwd: dir }),
    });
    try {
      const sleeping = new Promise<void>((resolve) => {
        const sub = s.onEvent((e) => {
          if (e.type === "text" && e.text.includes("sleeping")) {
            sub.dispose();
            resolve();
          }
        });
      });
      const turn = s.prompt("sleep 60000");
      await sleeping;
      assert.equal(await s.steer("also check the tests"), "injected");
      await turn;
      await s.prompt("hello");
    } finally {
      await s.close();
    }
    assert.deepEqual(begun, [1, 2], "two prompts are ledger turns 1 and 2");
    const thread = store.read(s.threadId);
    const { records } = thread;
    // Rewind to the second prompt restores from ledger turn 2
    const hello = numberedMessages(records).find((m) => m.role === "user" && m.text === "hello")!;
    assert.equal(rewindPoint(s.threadId, thread, hello.n).turn, 2);
    // the same thread recorded before the fix (its steered message not in the counters) has it as ledger turn 3
    const old = { records, metadata: { counters: { ...thread.metadata.counters, steered: undefined } } };
    assert.equal(rewindPoint(s.threadId, old, hello.n).turn, 3, "an old thread's prompt finds its recorded turn");
    // showTurn(2) focuses the second prompt, not the steered message
    const events = recordsToEvents(records);
    let focused: number | undefined;
    const hub = {
      live: { get: () => undefined },
      past: { load: async () => ({ events }) },
      panels: { open: (_id: string, o?: { focusEvent?: number }) => void (focused = o?.focusEvent) },
    } as unknown as HubParts;
    await showTurn(hub, s.threadId, 2);
    const shown = focused === undefined ? undefined : events[focused];
    assert.equal(shown?.type === "user_text" && !shown.steered ? shown.text : undefined, "hello");
    // the panel's turn 1 ends just before that prompt's entry; it has a turn 2 for the ledger's turn 2
    const model = new ThreadModel();
    events.forEach((e) => model.apply(e));
    const ends = turnEnds(model.entries);
    assert.deepEqual([...ends.keys()], [1, 2]);
    const helloEntry = model.entries.findIndex((e) => e.kind === "user" && e.text === "hello");
    assert.equal(ends.get(1), helloEntry - 1);
    // a fork of the whole thread knows its steered message: its next prompt is turn 3
    const fork = writeFork(store, s.threadId, numberedMessages(records).length, { allowEmpty: true });
    const counters = store.read(fork.threadId).metadata.counters;
    assert.deepEqual([counters.userMessages, counters.steered], [3, 1]);
  }));

// A ledger recorded before turns were numbered by prompts may hold a turn number a later prompt now has (a thread
// with a steered message: its prompts were turns 1 and 3). A new turn never reuses an operation id: it goes on after
// the ledger's last turn.
test("a new turn never takes a turn number the ledger already has (a ledger numbered before the fix)", () =>
  withTmp(async (dir) => {
    const { ws, ledger, begun, opts, threadId } = await twoPrompts(dir);
    // the old numbering's turn 3 (what the second prompt was after a steered message)
    const now = new Date().toISOString();
    await ledger.append(threadId, [
      { kind: "op", op: "turn-3", type: "turn", turn: 3, cwd: ws, startedAt: now, status: "end_turn", files: 0 },
    ]);
    const r = await ThreadSession.resume(opts, threadId);
    await r.prompt("write three");
    await r.close();
    assert.deepEqual(begun, [1, 2, 4], "prompt 3 would be turn 3, which the ledger has: it is turn 4");
    const ops = ledger.read(threadId).ops.map((o) => o.op);
    assert.equal(new Set(ops).size, ops.length, "no two operations share an id");
  }));
