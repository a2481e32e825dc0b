// A prompt the agent of a hosted run kept open cannot take (#35): an image for an agent that does not advertise
// promptCapabilities.image. Hostile: any client of the host can send it (the editor's box, `acp-threads run --thread
// ID --image`). The host refuses the `prompt` request, as it refuses context outside the run's folders (the box
// shows the error and keeps the prompt), and the run goes on with the same agent. Before, the host queued it, the
// turn threw the agent's refusal (a usage error) and the whole run ended, its agent process with it.
// Real processes: a host in this process with the CLI's run path, the stdio fake agent.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, listening, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

test("an image for an open run whose agent takes no images is refused; the run goes on with the same agent", () =>
  withCliHost("acp-host-caps-", async ({ dir, home }) => {
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
      await assert.rejects(
        conn.request({
          t: "prompt",
          threadId,
          text: "context see ",
          parts: [
            { type: "text", text: "context see " },
            { type: "context", item: { kind: "image", label: "shot.png", base64: PNG.toString("base64") } },
          ],
        }),
        /does not accept images/,
      );
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
