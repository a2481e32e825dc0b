// A host I/O failure while a hosted run kept open prepares a prompt (#35): the image of a prompt is kept beside the
// thread (`<threadId>.assets/`) before the agent is sent it, and that write can fail for a reason of the host's own
// (a full disk, an unwritable assets folder). No client's input causes it, so no refusal at admission catches it.
// Before, the turn failed before the agent, the run went on, and no window or `attach` was told: nothing in the
// thread. Now it is a failed turn in the thread (the prompt's text, an `error` record with the reason, its end),
// which the sender and every follower get as records, and the run goes on with the same agent. Hostile: the assets
// folder cannot be written (a file stands in its place: the tests run as root here, which a chmod would not stop).
// Real processes: a host in this process with the CLI's run path, the stdio fake agent (taking images).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as attach } from "../../../../src/cli/commands/attach";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { assetsDir } from "../../../../src/core/store/paths";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { imagePrompt, withKeptOpenRun } from "../../../fixtures/host/kept-open";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../in-process";

const UNSENT = /^the prompt was not sent to the agent: .+/;

/** The records `conn` is pushed of thread `threadId` once attached (from its start). */
async function following(conn: HostConnection, threadId: string): Promise<ThreadRecord[]> {
  const records: ThreadRecord[] = [];
  conn.onPush((m) => m.t === "records" && m.threadId === threadId && records.push(...m.records));
  await conn.request({ t: "attach", threadId, from: 0 });
  return records;
}

test("HOSTILE: an image the host cannot keep is a failed turn every client sees; the run goes on", () =>
  withKeptOpenRun(
    "acp-host-unsent-",
    async ({ conn, run, home }) => {
      const store = new ThreadStore(home);
      writeFileSync(assetsDir(store.threadsDir, run.threadId), "not a folder"); // the assets cannot be written
      const follower = await connectHost({ home, client: "acp-threads attach", watching: true });
      assert.ok(follower);
      try {
        const sent = await following(conn, run.threadId);
        const followed = await following(follower, run.threadId);
        await conn.request(imagePrompt(run.threadId, "look at "));
        const failed = (records: ThreadRecord[]) => records.find((r) => r.kind === "error" && UNSENT.test(r.message));
        const clients: [string, ThreadRecord[]][] = [
          ["the sender", sent],
          ["a follower", followed],
        ];
        for (const [who, records] of clients) {
          await waitFor(() => !!failed(records), `${who} is told the prompt failed`);
          const told = records.filter((r) => r.kind !== "meta_patch"); // its status, not its history
          const i = told.findIndex((r) => r.kind === "error" && UNSENT.test(r.message));
          const around = told.slice(i - 1, i + 2).map((r) => r.kind);
          assert.deepEqual(around, ["user_message", "error", "turn_end"], `${who}: a failed turn of its own`);
          const user = told[i - 1];
          assert.equal(user.kind === "user_message" && user.text, "look at ");
        }
        await run.goesOn();
        // the thread's JSONL stays whole: every line a record, the last one ended
        const text = readFileSync(join(store.threadsDir, `${run.threadId}.jsonl`), "utf8");
        assert.ok(text.endsWith("\n"));
        for (const line of text.trimEnd().split("\n")) assert.doesNotThrow(() => JSON.parse(line), line);
        const ends = store.read(run.threadId).records.filter((r) => r.kind === "turn_end");
        assert.deepEqual(
          ends.map((r) => r.kind === "turn_end" && r.stopReason),
          ["end_turn", "error", "end_turn"],
        );
        // `acp-threads attach` from the failed turn says the host failed, not the agent
        const from = store.read(run.threadId).records.findIndex((r) => r.kind === "error");
        const shown = await runCommand(attach, [run.threadId, "--from", String(from - 1)], { home });
        assert.equal(shown.code, 0, shown.err);
        assert.match(
          shown.err,
          /^acp-threads attach: the thread host could not prepare the prompt: the prompt was not sent to the agent: .+$/m,
        );
        assert.doesNotMatch(shown.err, /agent error/);
      } finally {
        follower.close();
      }
    },
    { FAKE_AGENT_PROMPT_CAPS: "image" },
  ));
