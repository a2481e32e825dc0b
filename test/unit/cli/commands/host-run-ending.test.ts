// A prompt that reaches a hosted run as it ends (#35, host parity row 4): the host refuses it with a typed reason
// (protocol.ts HostErrorCode), not only the CLI's wording, so the editor's panel can continue the thread instead of
// showing "run it again with --thread". Real processes: a host with the CLI's run path, the fake stdio agent run
// `stubborn` (it outlives its stdin for the engine's grace period: the run is ending, the host still holds it).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { refusalCode } from "../../../../src/core/host/protocol";
import { fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const refused = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (err: unknown) => refusalCode(err) ?? `untyped: ${String(err)}`,
  );

test("a prompt to a run that is ending is refused as run_ending, one after its end as not_held", () =>
  withCliHost("acp-host-ending-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const { conn, events } = await listening(home);
    try {
      const r = await conn.request({
        t: "run",
        run: fakeRun(ws, { keepOpen: true, prompts: ["sleep 60000"], env: { FAKE_AGENT_SCENARIO: "stubborn" } }),
      });
      const id = r.t === "started" ? r.threadId : "";
      await waitFor(() => events.some((e) => e.threadId === id && e.kind === "turn_started"), "the turn started");
      await conn.request({ t: "stop_thread", threadId: id });
      const ending = await refused(conn.request({ t: "prompt", threadId: id, text: "one more" }));
      assert.equal(events.filter((e) => e.threadId === id && e.kind === "ended").length, 0, "asked while held");
      assert.equal(ending, "run_ending");
      await waitFor(() => events.some((e) => e.threadId === id && e.kind === "ended"), "the run ended", 20_000);
      assert.equal(await refused(conn.request({ t: "prompt", threadId: id, text: "later" })), "not_held");
    } finally {
      conn.close();
    }
  }));
