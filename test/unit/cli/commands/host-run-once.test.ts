// "Run once" in the thread host (#35, DetachedRun.once): the editor's prompt box starts a run that takes its one
// prompt and ends after it, as a window's "Run once" session does, even when it also asks to be kept open. The
// host's status says `once` (every window's box takes no input meanwhile), and a `prompt` to it is refused: its
// agent never gets a second turn. Real processes: a host in this process with the CLI's run path, the fake agent.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { HostSessionInfo } from "../../../../src/core/host/protocol";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a run-once run says so, refuses a second prompt and ends after its turn", () =>
  withCliHost("acp-host-once-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const { conn, events } = await listening(home);
    try {
      const r = await conn.request({
        t: "run",
        run: fakeRun(ws, { once: true, keepOpen: true, prompts: ["sleep 1500"] }),
      });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id);
      const st = await conn.request({ t: "status" });
      const row = st.t === "status" ? st.status.sessions.find((s) => s.threadId === id) : undefined;
      assert.deepEqual(
        { once: row?.once, state: row?.state } as Partial<HostSessionInfo>,
        { once: true, state: "working" },
        "its row says once",
      );
      await assert.rejects(conn.request({ t: "prompt", threadId: id, text: "two" }), /Run once/);
      await waitFor(() => events.some((e) => e.threadId === id && e.kind === "ended"), "the run ended by itself");
      const ended = events.find((e) => e.threadId === id && e.kind === "ended") as { exitCode: number };
      assert.equal(ended.exitCode, 0);
      const prompts = new ThreadStore(home)
        .read(id)
        .records.flatMap((x) => (x.kind === "user_message" ? [x.text] : []));
      assert.deepEqual(prompts, ["sleep 1500"], "the refused prompt never reached the agent");
    } finally {
      conn.close();
    }
  }));
