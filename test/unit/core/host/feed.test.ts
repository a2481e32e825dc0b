// The thread host's feed (#35): clients attached at different cursors each get every record once, in order; a
// client that stops reading is never waited for and holds at most about CLIENT_BUFFER_CAP in the host; it catches
// up from the thread file once it reads again; the others never notice.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { collect, slowBesideFast } from "../../../fixtures/host/feed-checks";
import { stubHost } from "../../../fixtures/host/stub-host";
import { waitFor } from "../../../fixtures/spawner/wait";

test("clients attached at different cursors each get every record once, in order", () =>
  withTmpDir("acp-feed-", async (home) => {
    const stub = await stubHost(home);
    try {
      stub.append(["a", "b", "c"]);
      const early = await stub.client("early");
      const seenEarly = collect(early, 0);
      await early.request({ t: "attach", threadId: stub.threadId, from: 0 });
      stub.append(["d"]);
      const late = await stub.client("late");
      const seenLate = collect(late, 2);
      await late.request({ t: "attach", threadId: stub.threadId, from: 2 });
      for (let i = 0; i < 50; i++) stub.append([`x${i}`]);
      stub.end();
      await waitFor(() => seenEarly.at.ended && seenLate.at.ended, "both clients saw the end");
      const all = ["a", "b", "c", "d", ...Array.from({ length: 50 }, (_, i) => `x${i}`)];
      assert.deepEqual(seenEarly.texts, all);
      assert.deepEqual(seenLate.texts, all.slice(2));
      early.close();
      late.close();
    } finally {
      await stub.host.stop();
    }
  }));

test("hostile: a client that stops reading is not waited for and costs the host a bounded buffer; it catches up", () =>
  withTmpDir("acp-feed-", async (home) => {
    const stub = await stubHost(home);
    try {
      const { slow, fast, seenSlow, appended } = await slowBesideFast(stub, (name) => stub.client(name));
      stub.end();
      slow.sock.resume();
      await waitFor(() => seenSlow.at.ended, "the slow client caught up and saw the end");
      assert.equal(seenSlow.texts.length, appended);
      fast.close();
      slow.close();
    } finally {
      await stub.host.stop();
    }
  }));

test("without handed records (a runner that only says an update came) the file read feeds the same", () =>
  withTmpDir("acp-feed-", async (home) => {
    const stub = await stubHost(home, { live: false });
    try {
      stub.append(["a", "b"]);
      const c = await stub.client("reader");
      const seen = collect(c, 0);
      await c.request({ t: "attach", threadId: stub.threadId, from: 0 });
      for (let i = 0; i < 30; i++) stub.append([`x${i}`]);
      stub.end();
      await waitFor(() => seen.at.ended, "the client saw the end");
      assert.deepEqual(seen.texts, ["a", "b", ...Array.from({ length: 30 }, (_, i) => `x${i}`)]);
      c.close();
    } finally {
      await stub.host.stop();
    }
  }));

test("the seam: clients attaching while records are handed live (during their catch-up read) get each record once", () =>
  withTmpDir("acp-feed-", async (home) => {
    const stub = await stubHost(home);
    try {
      let n = 0;
      const texts = () => Array.from({ length: 3 }, () => `r${n++}`);
      const writer = setInterval(() => stub.append(texts()), 1);
      const seen: ReturnType<typeof collect>[] = [];
      const conns: HostConnection[] = [];
      for (let i = 0; i < 12; i++) {
        await new Promise((r) => setTimeout(r, 7));
        const c = await stub.client(`c${i}`);
        const from = i % 3 === 0 ? 0 : Math.max(0, n - 5);
        seen.push(collect(c, from));
        conns.push(c);
        // the attach's file read overlaps the records the interval hands the host meanwhile
        await c.request({ t: "attach", threadId: stub.threadId, from });
        for (let k = 0; k < 4; k++) stub.append(texts());
      }
      clearInterval(writer);
      stub.end();
      await waitFor(() => seen.every((s) => s.at.ended), "every client saw the end");
      const all = Array.from({ length: n }, (_, i) => `r${i}`);
      for (const s of seen) assert.deepEqual(s.texts, all.slice(all.length - s.texts.length));
      for (const s of seen) assert.equal(s.texts.at(-1), `r${n - 1}`);
      for (const c of conns) c.close();
    } finally {
      await stub.host.stop();
    }
  }));
