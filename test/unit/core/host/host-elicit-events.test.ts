// #35 item 4: an agent's elicitation in a hosted run is announced to the host's event listeners (`acp-threads
// events`, the extension's `onThreadEvent`) as `needs_input`, additively: the `question` permission questions carry
// (the message as its title, no options: readers of `question` keep working) and an `elicitation` saying what is
// asked (a form's field names, a web page's host: never its URL); its `answered` says who settled it and how
// (`action`). An elicitation nobody is asked (no eliciting client: the run declines it) is not announced.
// Real host, its real run path (the CLI's), the real stdio fake agent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { main as eventsMain } from "../../../../src/cli/commands/events";
import type { HostConnection } from "../../../../src/core/host/client";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { pushClient } from "../../../fixtures/host/push-client";
import { waitFor } from "../../../fixtures/spawner/wait";
import { capturedIO } from "../../cli/in-process";

const client = pushClient;

test("an elicitation asked of the thread's clients is announced needs_input, and answered with its action", () =>
  withCliHost("acp-host-elicit-events-", async ({ dir, home }) => {
    const conns: HostConnection[] = [];
    try {
      const tool = await client(home, "a tool", conns);
      await tool.c.request({ t: "events" });
      // and `acp-threads events --follow` in text
      const shell = capturedIO({ ACP_THREADS_HOME: home }, dir);
      const interrupt = new AbortController();
      const following = eventsMain({ ...shell.io, argv: ["--follow"], signal: interrupt.signal });
      const window = await client(home, "a window", conns);

      // nobody asks a person: the run declines it, and nothing is announced
      const started = await window.c.request({ t: "run", run: fakeRun(dir, { prompts: ["elicit"] }) });
      const alone = started.t === "started" ? started.threadId : "";
      await waitFor(() => tool.events(alone, "ended").length === 1, "the unasked run ended");
      assert.equal(tool.events(alone, "needs_input").length, 0, "not announced: nobody was asked");

      const held = await window.c.request({
        t: "run",
        run: fakeRun(dir, { keepOpen: true, prompts: ["sleep 1000"] }),
      });
      const threadId = held.t === "started" ? held.threadId : "";
      await window.c.request({ t: "attach", threadId, from: 0, elicits: true });
      await window.c.request({ t: "prompt", threadId, text: "elicit" });
      await waitFor(() => tool.events(threadId, "needs_input").length === 1, "announced");
      await waitFor(() => window.pushes.some((m) => m.t === "elicitation"), "the window asked");
      const asked = tool.events(threadId, "needs_input")[0]!;
      assert.equal(asked.kind, "needs_input");
      const pushed = window.pushes.find((m) => m.t === "elicitation");
      const requestId = pushed?.t === "elicitation" ? pushed.elicitation.requestId : "";
      assert.deepEqual(asked.kind === "needs_input" && { ...asked, at: "" }, {
        kind: "needs_input",
        threadId,
        at: "",
        question: { threadId, requestId, title: "Who is asking?", options: [] },
        elicitation: { mode: "form", fields: ["name", "count"] },
      });
      await window.c.request({
        t: "elicited",
        threadId,
        requestId,
        answer: { action: "accept", content: { name: "Ada", count: 3 } },
      });
      await waitFor(() => tool.events(threadId, "answered").length === 1, "its answer announced");
      const answered = tool.events(threadId, "answered")[0]!;
      assert.deepEqual(answered.kind === "answered" && { ...answered, at: "" }, {
        kind: "answered",
        threadId,
        at: "",
        requestId,
        optionId: null,
        by: "a window",
        action: "accept",
      });

      // a web page step: its host, never its URL; withdrawn by a cancel: answered `cancel` by the agent
      await waitFor(() => tool.events(threadId, "turn_ended").length >= 2, "the elicit turn ended");
      await window.c.request({ t: "prompt", threadId, text: "elicit url" });
      await waitFor(() => tool.events(threadId, "needs_input").length === 2, "the web step announced");
      const url = tool.events(threadId, "needs_input")[1]!;
      assert.deepEqual(url.kind === "needs_input" && url.elicitation, { mode: "url", host: "login.example.com" });
      assert.doesNotMatch(JSON.stringify(url), /https?:/, "the URL stays with the thread's clients");
      await window.c.request({ t: "cancel", threadId });
      await waitFor(() => tool.events(threadId, "answered").length === 2, "the withdrawn step announced");
      const withdrawn = tool.events(threadId, "answered")[1]!;
      assert.equal(withdrawn.kind === "answered" && withdrawn.action, "cancel");
      assert.equal(withdrawn.kind === "answered" && withdrawn.by, "the agent (cancelled)");
      await window.c.request({ t: "stop_thread", threadId });
      await waitFor(() => shell.out().includes(`ended ${threadId}`), "the shell heard it all");
      interrupt.abort();
      await following;
      const lines = shell.out();
      assert.match(lines, new RegExp(`needs_input ${threadId} Who is asking\\? \\(form: name, count\\)`));
      assert.match(lines, new RegExp(`answered ${threadId} accept by a window`));
      assert.match(lines, new RegExp(`needs_input ${threadId} .* \\(web page on login\\.example\\.com\\)`));
      assert.match(lines, new RegExp(`answered ${threadId} cancel by the agent \\(cancelled\\)`));
    } finally {
      for (const c of conns) c.close();
    }
  }));
