// A hosted run's permission question carries the kind of the tool call it asks about (#35 item 7, step 3): the
// editor's card says `execute` for a command, as for a window session's question (before, the host's question had
// no kind and the card said `other`). The field is optional: a tool call the agent named no kind for gives none, so
// a question of an older host (none at all) reads the same. A real host and the stdio fake agent, whose `terminal`
// command the engine asks about under approve-reads (the agent did not ask first).
import assert from "node:assert/strict";
import type { Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import { HostedThread } from "../../../../src/core/host/hosted-thread";
import type { HostPush, PendingQuestion } from "../../../../src/core/host/protocol";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { pushClient } from "../../../fixtures/host/push-client";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a command the engine asks about reaches the clients as an `execute` question, in its push and its event", () =>
  withCliHost("acp-host-question-kind-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const window = await pushClient(home, "VS Code window (ws, pid 1)", conns);
      await window.c.request({ t: "events" });
      const r = await window.c.request({
        t: "run",
        run: fakeRun(dir, { permission: "approve-reads", askClients: true, prompts: ["terminal echo kind-check"] }),
      });
      const id = r.t === "started" ? r.threadId : "";
      assert.ok(id, "the run started");
      await window.c.request({ t: "attach", threadId: id, from: 0 });
      const questions = () => window.pushes.flatMap((m) => (m.t === "question" ? [m.question] : []));
      await waitFor(() => questions().length > 0, "the command's question");
      const question = questions()[0]!;
      assert.equal(question.title, "echo kind-check");
      assert.equal(question.toolKind, "execute");
      const [asked] = window.events(id, "needs_input");
      assert.equal(asked?.kind === "needs_input" && asked.question.toolKind, "execute", "the event says it too");
      await window.c.request({ t: "answer", threadId: id, option: "reject", requestId: question.requestId });
      await waitFor(() => window.pushes.some((m) => m.t === "ended"), "the run's end");
    } finally {
      for (const c of conns) c.close();
    }
  }));

test("a tool call with no kind gives a question with none (as an older host's)", () =>
  withTmpDir("acp-question-nokind-", async (dir) => {
    const pushes: HostPush[] = [];
    const thread = new HostedThread({
      threadId: "t1",
      path: join(dir, "t1.jsonl"),
      control: { prompt: () => {}, cancel: async () => {}, steer: async () => "steered" },
      push: (_sock, msg) => (pushes.push(msg), 0),
      cap: 1 << 30,
      announce: () => {},
    });
    const abort = new AbortController();
    try {
      await thread.attach({ destroyed: false } as unknown as Socket, 0);
      const ask = (toolCallId: string, kind?: "edit") =>
        thread.asker().ask({
          sessionId: "s",
          agentId: "fake",
          request: {
            sessionId: "s",
            toolCall: { toolCallId, title: `Write ${toolCallId}.txt`, ...(kind ? { kind } : {}) },
            options: [{ optionId: "yes", name: "Allow", kind: "allow_once" }],
          },
          signal: abort.signal,
        });
      void ask("bare");
      void ask("named", "edit");
      await waitFor(() => pushes.filter((m) => m.t === "question").length === 2, "both questions");
      const [bare, named] = pushes.flatMap((m) => (m.t === "question" ? [m.question] : [])) as [
        PendingQuestion,
        PendingQuestion,
      ];
      assert.equal("toolKind" in bare, false, "no kind named: none sent");
      assert.equal(named.toolKind, "edit");
    } finally {
      abort.abort();
      await thread.end(0);
    }
  }));
