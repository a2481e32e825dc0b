// #35 item 7 (hosted parity): a hosted run's row in the host's status says whether its agent runs in the OS sandbox
// (the run asked for one, and it opened, so it was made), as the editor's header says it of a window session; a
// run without one says nothing. Before, the row had no such field: a window following a thread the host runs could
// not say "sandboxed".
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostedThread } from "../../../../src/core/host/hosted-thread";
import { sessionRow } from "../../../../src/core/host/session-rows";

/** What `sessionRow` reads of a held thread. */
const held = (opts: Partial<HostedThread["opts"]>) =>
  ({
    threadId: "t1",
    state: "idle",
    clients: new Map(),
    pending: undefined,
    watchdog: undefined,
    authStatus: undefined,
    opts: { threadId: "t1", ...opts },
  }) as unknown as HostedThread;

test("a sandboxed run's row says so; an unsandboxed one's has no such field", () => {
  assert.equal(sessionRow(held({ sandboxed: true })).sandboxed, true);
  assert.equal("sandboxed" in sessionRow(held({})), false);
});
