// The seam between a client's attach and a question the agent asks meanwhile (#35: "nothing lost or doubled"): a
// client whose attach is still catching up from the thread file when the question opens gets it once. Before, the
// attach sent the waiting question and then the question's own send (queued behind the attach) sent it again: the
// CLI's answer race test saw a client whose second question was its first one again.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { HostedThread } from "../../../../src/core/host/hosted-thread";
import type { HostPush } from "../../../../src/core/host/protocol";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("a question asked while a client's attach catches up from the file reaches that client once", () =>
  withTmpDir("acp-ask-seam-", async (dir) => {
    const path = join(dir, "thread.jsonl");
    const ts = new Date().toISOString();
    const records = Array.from({ length: 200 }, (_, i) => ({
      v: 1,
      ts,
      kind: "agent_message",
      messageId: `m${i}`,
      text: `text ${i}`,
    })) as unknown as ThreadRecord[];
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join("");
    writeFileSync(path, text);
    const pushes: HostPush[] = [];
    const sock = { destroyed: false } as unknown as Socket;
    const thread = new HostedThread({
      threadId: "seam",
      path,
      control: { prompt: () => {}, cancel: async () => {}, steer: async () => "steered" },
      push: (_sock, msg) => (pushes.push(msg), 0),
      cap: 1 << 30,
      announce: () => {},
    });
    thread.appended(records, 0, Buffer.byteLength(text)); // the run's records so far: the attach reads them back
    const abort = new AbortController();
    try {
      const attached = thread.attach(sock, 0); // catches up from the file (an async read) …
      const answer = thread.asker().ask({
        sessionId: "s",
        agentId: "fake",
        request: {
          sessionId: "s",
          toolCall: { toolCallId: "t1", title: "Write a.txt" },
          options: [{ optionId: "yes", name: "Allow", kind: "allow_once" }],
        },
        signal: abort.signal,
      }); // … while the agent asks
      await attached;
      await new Promise((r) => setTimeout(r, 50)); // the question's own send, queued behind the attach
      const questions = pushes.filter((m) => m.t === "question");
      assert.equal(questions.length, 1, "the question reached the attaching client once");
      const fed = pushes.flatMap((m) => (m.t === "records" ? m.records : []));
      assert.equal(fed.length, 200, "and every record, once");
      abort.abort();
      assert.equal(await answer, null);
    } finally {
      abort.abort();
      await thread.end(0);
    }
  }));
