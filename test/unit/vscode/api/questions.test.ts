// #35: the window's own sessions' permission requests as thread events, in the thread host's shapes: each new
// request announced once (needs_input), each decision `answered` with the announced request id and who answered.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PermissionDecision } from "../../../../src/core/model/events";
import { Questions } from "../../../../src/vscode/api/questions";
import type { PermissionView } from "../../../../src/webview/thread/protocol";

const WINDOW = "VS Code window (repo), pid 42";
const view = (requestId: string, toolCallId: string): PermissionView => ({
  requestId,
  toolCallId,
  title: `run ${toolCallId}`,
  kind: "execute",
  options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
});
const decision = (toolCallId: string, decidedBy: PermissionDecision["decidedBy"], optionId: string | null) =>
  ({
    toolCallId,
    title: `run ${toolCallId}`,
    kind: "execute",
    optionId,
    optionKind: optionId ? "allow_once" : null,
    decidedBy,
    options: [],
  }) satisfies PermissionDecision;

test("a request is announced once, with the tool call it is about; its answer by this window carries its id", () => {
  const q = new Questions(WINDOW);
  const asked = q.pending("T", [view("r1", "tc1")], "t1");
  assert.deepEqual(asked, [
    {
      kind: "needs_input",
      threadId: "T",
      at: "t1",
      question: {
        threadId: "T",
        requestId: "r1",
        toolCallId: "tc1",
        title: "run tc1",
        options: view("r1", "tc1").options,
      },
    },
  ]);
  // the broker changes again (another request, then the first answered): nothing is announced twice
  assert.deepEqual(
    q
      .pending("T", [view("r1", "tc1"), view("r2", "tc2")], "t2")
      .map((e) => e.kind === "needs_input" && e.question.requestId),
    ["r2"],
  );
  assert.deepEqual(q.pending("T", [view("r2", "tc2")], "t3"), []);
  assert.deepEqual(q.decided("T", decision("tc1", "user", "allow"), "t4"), {
    kind: "answered",
    threadId: "T",
    at: "t4",
    requestId: "r1",
    optionId: "allow",
    by: WINDOW,
  });
  // the option's name as the decision keeps it (redacted where it was made)
  const named = { ...decision("tc3", "user", "always"), optionName: "Always allow `npm test`" };
  q.pending("T", [view("r2", "tc2"), view("r3", "tc3")], "t4");
  const said = q.decided("T", named, "t4");
  assert.equal(said.kind === "answered" && said.optionName, "Always allow `npm test`");
  // a cancelled turn closes the other: the host's words, its request id
  assert.deepEqual(q.decided("T", decision("tc2", "cancelled", null), "t5"), {
    kind: "answered",
    threadId: "T",
    at: "t5",
    requestId: "r2",
    optionId: null,
    by: "the agent (cancelled)",
  });
});

test("a decision nobody was asked about: by the policy or a remembered rule, the tool call's id as request id", () => {
  const q = new Questions(WINDOW);
  const policy = q.decided("T", decision("tc9", "policy", "allow"), "t1");
  assert.deepEqual(policy, {
    kind: "answered",
    threadId: "T",
    at: "t1",
    requestId: "tc9",
    optionId: "allow",
    by: "policy",
  });
  const rule = q.decided("T", decision("tc8", "remembered", "allow"), "t2");
  assert.equal(rule.kind === "answered" && rule.by, "remembered rule");
});

test("a thread forgotten (its session gone) announces a request again if it comes back pending", () => {
  const q = new Questions(WINDOW);
  assert.equal(q.pending("T", [view("r1", "tc1")], "t1").length, 1);
  q.forget("T");
  assert.equal(q.pending("T", [view("r1", "tc1")], "t2").length, 1);
  assert.equal(q.decided("T", decision("tc1", "user", "allow"), "t3").kind, "answered");
});

test("a person's answer names whom the decision names (the broker's asker: this window or the client that did)", () => {
  const q = new Questions(WINDOW);
  const other = { ...decision("tc1", "user", "allow"), answeredBy: "acp-threads answer (pid 7)" };
  const said = q.decided("T", other, "t1");
  assert.equal(said.kind === "answered" && said.by, "acp-threads answer (pid 7)");
  const policy = q.decided("T", { ...decision("tc2", "policy", "allow"), answeredBy: "ignored" }, "t2");
  assert.equal(policy.kind === "answered" && policy.by, "policy", "a policy decision keeps its decidedBy");
});

test("hostile: a request's title and option names reach other extensions without env values or keys", () => {
  const q = new Questions(WINDOW);
  const key = "sk-proj-Zq8vR2mN4xT6yW1bC3dF5gH7";
  const asked = {
    ...view("r9", "tc9"),
    title: `OPENAI_API_KEY=${key} npm test`,
    options: [{ optionId: "always", name: `Always allow \`TOKEN=${key} npm test\``, kind: "allow_always" as const }],
  };
  const [e] = q.pending("T", [asked], "t1");
  assert.ok(e?.kind === "needs_input");
  assert.equal(e.question.title, "OPENAI_API_KEY=… npm test");
  assert.deepEqual(
    e.question.options.map((o) => o.name),
    ["Always allow `TOKEN=… npm test`"],
  );
  assert.doesNotMatch(JSON.stringify(e), /Zq8vR2mN4x/);
});
