/**
 * What a thread panel sends its webview, and when (src/vscode/panel-feed.ts): the redraws' generations, the
 * messages waiting for a redraw, the live events held while a transcript loads and batched after.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { PanelFeed } from "../../../src/vscode/panel-feed";
import type { HostMessage } from "../../../src/webview/thread/protocol";

const text = (t: string): RuntimeEvent => ({ type: "text", stream: "output", text: t });
const title = (t: string): HostMessage => ({ type: "title", title: t });

function feed() {
  const delivered: HostMessage[] = [];
  const noted: HostMessage[] = [];
  const f = new PanelFeed(
    (m) => delivered.push(m),
    (m) => noted.push(m),
  );
  return { f, delivered, noted };
}

/** A promise and its resolver. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

test("a redraw overtaken by a newer one is stale; what a redraw posts waits for it to settle, in order", async () => {
  const { f, delivered, noted } = feed();
  f.post(title("before any redraw")); // the webview has not asked to be drawn yet: the redraw sends it all
  const first = gate();
  let firstStale: (() => boolean) | undefined;
  const a = f.redraw(async (stale) => {
    firstStale = stale;
    f.post(title("a1"));
    await first.wait;
    if (!stale()) f.post(title("a2"));
  });
  assert.deepEqual(delivered, [], "nothing reaches the webview while a redraw runs");
  const b = f.redraw(async (stale) => {
    assert.equal(stale(), false);
    f.post(title("b1"));
  });
  assert.equal(firstStale?.(), true, "the older redraw is stale once a newer one started");
  await b;
  first.open();
  await a;
  // each redraw dropped what was posted before it; the older one stopped drawing
  assert.deepEqual(delivered, [title("b1")]);
  assert.deepEqual(noted, [title("before any redraw"), title("a1"), title("b1")], "every post is noted");
  f.post(title("after"));
  assert.deepEqual(delivered.at(-1), title("after"), "after a redraw, posts go straight to the webview");
  f.dispose();
});

test("a redraw that fails still delivers what it posted before the failure", async () => {
  const { f, delivered } = feed();
  await assert.rejects(
    f.redraw(async () => {
      f.post(title("drawn"));
      await Promise.resolve();
      throw new Error("the session left memory");
    }),
    /left memory/,
  );
  assert.deepEqual(delivered, [title("drawn")]);
  f.dispose();
});

test("live events wait for the init message while the transcript loads, then follow it in order", async () => {
  const { f, delivered } = feed();
  await f.redraw(async () => {
    f.hold();
    f.enqueue([text("during load")]);
    f.flush(); // a status change while the transcript loads: still held
    await Promise.resolve();
    const queued = f.release();
    assert.deepEqual(queued, [text("during load")], "the init sees what arrived while it loaded");
    const header = { threadId: "t", title: "T", agent: "A", cwd: "/", acceptsInput: true };
    f.post({ type: "init", header, status: "idle", events: [], scrollToEnd: true });
    f.flush();
  });
  assert.deepEqual(
    delivered.map((m) => m.type),
    ["init", "events"],
  );
  assert.deepEqual(delivered[1], { type: "events", events: [text("during load")] });
  f.dispose();
});

test("events queued before a redraw are dropped (the redraw's transcript has them); later ones are batched", async () => {
  const { f, delivered } = feed();
  await f.redraw(async () => undefined);
  f.enqueue([text("old")]);
  await f.redraw(async () => undefined);
  f.enqueue([text("one")]);
  f.enqueue([text("two")]);
  assert.deepEqual(delivered, [], "batched, not posted one by one");
  await new Promise<void>((resolve) => {
    const poll = () => (delivered.length ? resolve() : setTimeout(poll, 10));
    poll();
  });
  assert.deepEqual(delivered, [{ type: "events", events: [text("one"), text("two")] }]);
  f.dispose();
});
