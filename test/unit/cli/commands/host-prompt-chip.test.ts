// A past-thread chip without its text (`content`), sent to the host (#35). The host reads no thread's conversation
// for a prompt (the window sends each chip's text), so the turn would fail as `not_found` before the agent saw the
// prompt. Hostile: any client of the host can send such a chip. Before, a kept-open run's `prompt` with it was
// accepted and then failed silently (no reply, record or event told any client), and a run whose first prompt
// carried it started and then ended in error. Now each is refused at admission, to the client that sent it, with
// what to change; the open run goes on with the same agent. Real processes: a host in this process with the CLI's
// run path, the stdio fake agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { WireContextItem, WirePromptPart } from "../../../../src/core/host/wire-context";
import { fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { withKeptOpenRun } from "../../../fixtures/host/kept-open";

const CHIP: WireContextItem = {
  kind: "thread",
  label: "old talk",
  uri: "acp-threads://thread/t-old",
  threadId: "t-old",
};
const PARTS: WirePromptPart[] = [
  { type: "text", text: "as in " },
  { type: "context", item: CHIP },
];
const REFUSED = /the thread "old talk" came without its text/;

test("HOSTILE: a thread chip without its text is refused by an open run; the run goes on with the same agent", () =>
  withKeptOpenRun("acp-host-chip-", async ({ conn, run }) => {
    await assert.rejects(
      conn.request({ t: "prompt", threadId: run.threadId, text: "as in @old talk", parts: PARTS }),
      REFUSED,
    );
    await run.goesOn();
  }));

test("HOSTILE: a run whose first prompt or context has a thread chip without its text is refused, nothing starts", () =>
  withCliHost("acp-host-chip-", async ({ dir, home }) => {
    const { conn, events } = await listening(home);
    try {
      await assert.rejects(conn.request({ t: "run", run: fakeRun(dir, { parts: PARTS }) }), REFUSED);
      await assert.rejects(conn.request({ t: "run", run: fakeRun(dir, { context: [CHIP] }) }), REFUSED);
      assert.deepEqual(events, [], "no run started");
    } finally {
      conn.close();
    }
  }));
