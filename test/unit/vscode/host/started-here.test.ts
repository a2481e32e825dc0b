// #35: the threads a window started in the thread host are remembered in the workspace's state, so the window a
// reload reopens still tells their finished turns (hosted-turn-notify.ts asks `has`). Bounded, most recent kept;
// what the state holds that is not a thread id is ignored. The state here is a Map behind the Memento's two calls.
import assert from "node:assert/strict";
import { test } from "node:test";
import { newThreadId } from "../../../../src/core/store/thread-id";
import { STARTED_HERE_KEY, STARTED_KEEP, StartedHere } from "../../../../src/vscode/host/started-here";

function memento(initial: Record<string, unknown> = {}) {
  const m = new Map(Object.entries(initial));
  return {
    get: <T>(key: string) => m.get(key) as T | undefined,
    update: (key: string, value: unknown) => (m.set(key, value), Promise.resolve()),
    raw: m,
  };
}

test("a thread started here is still this window's after a reload (a new instance on the same workspace state)", () => {
  const state = memento();
  const id = newThreadId();
  new StartedHere(state).add(id);
  const reloaded = new StartedHere(state);
  assert.equal(reloaded.has(id), true);
  assert.equal(reloaded.has(newThreadId()), false, "another client's thread is not");
  assert.deepEqual([...reloaded], [id]);
});

test("bounded: the most recent STARTED_KEEP are kept, a thread continued again is the most recent", () => {
  const state = memento();
  const here = new StartedHere(state);
  const ids = Array.from({ length: STARTED_KEEP + 5 }, () => newThreadId());
  for (const id of ids) here.add(id);
  here.add(ids[10]!); // continued again: kept over the older ones
  const kept = state.raw.get(STARTED_HERE_KEY) as string[];
  assert.equal(kept.length, STARTED_KEEP);
  assert.equal(kept.at(-1), ids[10]);
  const reloaded = new StartedHere(state);
  assert.equal(reloaded.has(ids[0]!), false, "the oldest forgotten");
  assert.equal(reloaded.has(ids[10]!), true);
  assert.equal(reloaded.has(ids.at(-1)!), true);
});

test("what the state holds that is not a list of thread ids is ignored", () => {
  const id = newThreadId();
  for (const junk of [null, "x", { 0: id }, 42])
    assert.deepEqual([...new StartedHere(memento({ [STARTED_HERE_KEY]: junk }))], [], JSON.stringify(junk));
  const mixed = new StartedHere(memento({ [STARTED_HERE_KEY]: [id, 7, "../../etc", { id }, null] }));
  assert.deepEqual([...mixed], [id]);
});
