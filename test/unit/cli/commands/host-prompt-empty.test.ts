// A prompt with parts that build to nothing, sent to a hosted run kept open (#35). Hostile: any client of the host
// can send `parts: []`, only empty text, or parts the host drops as unparsable. The host refuses the `prompt`
// request ("the prompt is empty"), as the turn would, and the run goes on with the same agent. Before, the host
// queued it, the turn's buildPrompt threw a usage error and `runOnThread` rethrew it: the whole run ended, its agent
// process with it. Real processes: a host in this process with the CLI's run path, the stdio fake agent.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { WirePromptPart } from "../../../../src/core/host/wire-context";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const EMPTY: { why: string; parts: WirePromptPart[] }[] = [
  { why: "no parts", parts: [] },
  { why: "only empty text", parts: [{ type: "text", text: "" }] },
  { why: "a part the host drops", parts: [{ type: "bogus" } as unknown as WirePromptPart] },
];

test("a prompt whose parts are empty is refused by an open run; the run goes on with the same agent", () =>
  withCliHost("acp-host-empty-", async ({ dir, home }) => {
    const pidFile = join(dir, "agent.pid");
    const { conn, events } = await listening(home);
    try {
      const r = await conn.request({
        t: "run",
        run: fakeRun(dir, { keepOpen: true, prompts: ["one"], env: { FAKE_AGENT_PIDFILE: pidFile } }),
      });
      const threadId = r.t === "started" ? r.threadId : "";
      assert.ok(threadId);
      await waitFor(() => events.some((e) => e.threadId === threadId && e.kind === "turn_ended"), "the first turn");
      const pid = Number(readFileSync(pidFile, "utf8"));
      for (const { why, parts } of EMPTY)
        await assert.rejects(conn.request({ t: "prompt", threadId, text: "", parts }), /the prompt is empty/, why);
      await conn.request({ t: "prompt", threadId, text: "two" });
      const answers = () =>
        new ThreadStore(home).read(threadId).records.flatMap((x) => (x.kind === "agent_message" ? [x.text] : []));
      await waitFor(
        () => answers().length === 2 || events.some((e) => e.threadId === threadId && e.kind === "ended"),
        "the second turn answered (or the run's end)",
      );
      assert.deepEqual(
        events.filter((e) => e.threadId === threadId && e.kind === "ended"),
        [],
        "the run goes on",
      );
      assert.deepEqual(answers(), ["echo: one", "echo: two"]);
      assert.equal(Number(readFileSync(pidFile, "utf8")), pid, "the same agent process");
    } finally {
      conn.close();
    }
  }));
