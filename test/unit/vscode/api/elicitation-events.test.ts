// The window's sessions' elicitations as thread events (#35 item 4, api/elicitation-events.ts): told as the thread
// host tells its runs' (host-elicitation.ts): needs_input when asked, answered with the action and who answered it:
// this window, or the agent when it withdrew the request (its signal aborted) or the steps failed.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostEvent } from "../../../../src/core/host/protocol";
import type { ElicitationAnswer, ElicitationPrompt } from "../../../../src/core/model/elicitation";
import { announcedElicitor } from "../../../../src/vscode/api/elicitation-events";
import { CANCELLED_BY } from "../../../../src/vscode/api/questions";

const url = (signal: AbortSignal): ElicitationPrompt => ({
  agentId: "a",
  message: "Log in",
  signal,
  mode: "url",
  elicitationId: "e1",
  url: "https://login.example.com/?code=secret",
  host: "login.example.com",
});

const strip = (events: HostEvent[]) => events.map((e) => ({ ...e, at: "" }));

test("an answered elicitation: needs_input (no URL, no options), then answered by this window with its action", async () => {
  const events: HostEvent[] = [];
  const asker = announcedElicitor("t1", { ask: async () => ({ action: "accept" }) }, "window", (e) => events.push(e));
  assert.deepEqual(await asker.ask(url(new AbortController().signal)), { action: "accept" });
  const requestId = events[0]?.kind === "needs_input" ? events[0].question.requestId : "";
  assert.ok(requestId);
  assert.deepEqual(strip(events), [
    {
      kind: "needs_input",
      threadId: "t1",
      at: "",
      question: { threadId: "t1", requestId, title: "Log in", options: [] },
      elicitation: { mode: "url", host: "login.example.com" },
    },
    { kind: "answered", threadId: "t1", at: "", requestId, optionId: null, by: "window", action: "accept" },
  ]);
  assert.doesNotMatch(JSON.stringify(events), /secret/, "the URL (it may carry a code) is not told");
});

test("a withdrawn elicitation is answered cancel by the agent; steps that fail still tell its end", async () => {
  const events: HostEvent[] = [];
  const abort = new AbortController();
  const withdrawn = announcedElicitor(
    "t1",
    {
      ask: async (): Promise<ElicitationAnswer> => {
        abort.abort();
        return { action: "cancel" };
      },
    },
    "window",
    (e) => events.push(e),
  );
  await withdrawn.ask(url(abort.signal));
  const failing = announcedElicitor("t1", { ask: () => Promise.reject(new Error("no")) }, "window", (e) =>
    events.push(e),
  );
  await assert.rejects(failing.ask(url(new AbortController().signal)), /no/);
  assert.deepEqual(
    events.flatMap((e) => (e.kind === "answered" ? [[e.action, e.by]] : [])),
    [
      ["cancel", CANCELLED_BY],
      ["cancel", "window"],
    ],
  );
});
