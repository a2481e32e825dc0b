// Who started a hosted thread (#35, #36's origin filter): a thread the editor starts in the thread host is recorded as
// started from the editor (before, every hosted run was "automation": the host has no terminal, and the Sessions
// view's "Started by: editor" filter hid the editor's own threads); a run that says nothing (`run --detach`) stays
// automation, and a label the host does not know is not recorded. Real processes: a host with the CLI's run path, the fake agent.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import type { DetachedRun } from "../../../../src/core/host/protocol";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a hosted thread records who started it: the editor's label, else automation", () =>
  withCliHost("acp-host-from-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const conn = await connectHost({ home, client: "test" });
    assert.ok(conn);
    try {
      const startedFrom = async (more: Partial<DetachedRun>) => {
        const r = await conn.request({ t: "run", run: fakeRun(ws, more) });
        const threadId = r.t === "started" ? r.threadId : "";
        const read = () => new ThreadStore(home).read(threadId);
        await waitFor(() => read().records.some((x) => x.kind === "turn_end"), "the turn ended");
        return read().metadata.startedFrom;
      };
      assert.equal(await startedFrom({ startedFrom: "editor" }), "editor");
      assert.equal(await startedFrom({}), "automation");
      assert.equal(await startedFrom({ startedFrom: "exec" as never }), "automation", "an unknown label");
    } finally {
      conn.close();
    }
  }));
