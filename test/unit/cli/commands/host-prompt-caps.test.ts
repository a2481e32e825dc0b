// A prompt the agent of a hosted run kept open cannot take (#35): an image for an agent that does not advertise
// promptCapabilities.image. Hostile: any client of the host can send it (the editor's box, `acp-threads run --thread
// ID --image`). The host refuses the `prompt` request, as it refuses context outside the run's folders (the box
// shows the error and keeps the prompt), and the run goes on with the same agent. Before, the host queued it, the
// turn threw the agent's refusal (a usage error) and the whole run ended, its agent process with it.
// Real processes: a host in this process with the CLI's run path, the stdio fake agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { imagePrompt, withKeptOpenRun } from "../../../fixtures/host/kept-open";

test("an image for an open run whose agent takes no images is refused; the run goes on with the same agent", () =>
  withKeptOpenRun("acp-host-caps-", async ({ conn, run }) => {
    await assert.rejects(conn.request(imagePrompt(run.threadId, "context see ")), /does not accept images/);
    await run.goesOn();
  }));
