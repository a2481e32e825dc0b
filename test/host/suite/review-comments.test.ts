// Review that talks back (#25 item 4) inside the real extension host: a file the agent wrote is commentable
// through the Comments API; a comment on its changed line is kept beside the thread; "Send review to agent"
// sends it as the thread's next prompt — the fake agent (embeddedContext) receives the quoted line as an
// embedded resource — then the comment is resolved and not sent twice; while a turn runs the review is queued.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { ReviewNotes } from "../../../src/core/store/review-notes";
import { api, repoRoot, waitFor, workspaceRoot } from "./helpers";
import { sessionOf, type TestSession } from "./session-of";

const agentText = (events: RuntimeEvent[]) =>
  events.map((e) => (e.type === "text" && e.stream === "output" ? e.text : "")).join("");

async function reviewAgent(): Promise<void> {
  const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
  const cfg = vscode.workspace.getConfiguration("acpThreads");
  const agents = { ...(cfg.get<Record<string, unknown>>("agents") ?? {}) };
  agents["review-embed"] = {
    command: process.execPath,
    args: [fake],
    env: { ELECTRON_RUN_AS_NODE: "1", FAKE_AGENT_PROMPT_CAPS: "embeddedContext" },
    displayName: "Review agent",
  };
  await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
  await cfg.update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
  await cfg.update("review.comments", true, vscode.ConfigurationTarget.Global); // opt-in (review-comments.ts)
}

const turnDone = (s: TestSession) => new Promise<void>((r) => void s.onTurnDone(() => r()));

describe("review comments sent to the agent", () => {
  let s: TestSession;
  const file = () => join(workspaceRoot(), "src", "review-me.txt");
  // a file no agent changed: made here while no turn runs in this window (README.md was used, but earlier tests of
  // the suite edit it, and any file written during some session's turn is that turn's change)
  const untouched = () => join(workspaceRoot(), "src", "review-untouched.txt");

  before(async () => {
    await reviewAgent();
    const { hub } = await api();
    await waitFor("no turn running in this window", () => hub.live.all().every((l) => !l.busy));
    writeFileSync(untouched(), "nobody's change\n");
    writeFileSync(file(), "old line\n");
    const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
      agentId: "review-embed",
      task: `write ${file()} const answer = 41;`,
      mode: "session",
      cwd: workspaceRoot(),
    });
    s = await sessionOf(hub, id);
    await waitFor("the writing turn to end", () => s.status === "idle" || s.status === "failed");
    assert.equal(s.status, "idle", s.statusDetail);
    await waitFor("the ledger's turn 1", () =>
      hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === "turn-1" && o.summary),
    );
  });

  after(async () => {
    await s?.close();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
    await cfg.update("review.comments", undefined, vscode.ConfigurationTarget.Global);
  });

  it("comments on the agent's line, sends them as an embedded resource, then marks them sent", async () => {
    const { hub } = await api();
    const comments = hub.ledger.comments;
    assert.equal(readFileSync(file(), "utf8"), "const answer = 41;");
    const doc = await vscode.workspace.openTextDocument(file());
    await vscode.window.showTextDocument(doc);
    const ranges = await comments.controller.commentingRangeProvider!.provideCommentingRanges(
      doc,
      new vscode.CancellationTokenSource().token,
    );
    assert.ok(Array.isArray(ranges) && ranges.length === 1, "the changed file can be commented on");
    const other = await vscode.workspace.openTextDocument(untouched());
    const none = await comments.controller.commentingRangeProvider!.provideCommentingRanges(
      other,
      new vscode.CancellationTokenSource().token,
    );
    assert.deepEqual(none, [], `a file no agent changed cannot (claimed by ${await comments.threadOf(other.uri)})`);

    // what the comment widget does: a thread on the line (made by the controller), then its "Comment" action
    const thread = comments.controller.createCommentThread(doc.uri, new vscode.Range(0, 0, 0, 0), []);
    await vscode.commands.executeCommand("acpThreads.addReviewComment", { thread, text: "make it 42" });
    assert.equal(thread.comments.length, 1);
    const stored = await new ReviewNotes(hub.threads.threadsDir).listAsync(s.threadId);
    assert.deepEqual(
      stored.map((n) => [n.path, n.start, n.end, n.body, n.quote, n.sentAt]),
      [[file(), 1, 1, "make it 42", "const answer = 41;", undefined]],
    );

    const before = s.events.length;
    const done = turnDone(s);
    const how = await vscode.commands.executeCommand("acpThreads.sendReview", thread, { intro: "context" });
    assert.equal(how, "sent");
    await done;
    assert.equal(
      agentText(s.events.slice(before)),
      [
        `text "context\\n\\n1. src/review-me.txt:1: make it 42\\n"`,
        `resource file://${file()}#L1:1 "const answer = 41;"`,
      ].join("\n"),
    );
    const user = s.events.slice(before).find((e) => e.type === "user_text");
    assert.ok(user?.type === "user_text" && user.context?.[0]?.sent === "embedded", "the quote is recorded as a chip");

    assert.equal(thread.state, vscode.CommentThreadState.Resolved);
    assert.equal(thread.comments[0]?.contextValue, "sent");
    assert.ok((await new ReviewNotes(hub.threads.threadsDir).listAsync(s.threadId))[0]?.sentAt, "marked sent on disk");
    const again = await vscode.commands.executeCommand("acpThreads.sendReview", thread);
    assert.equal(again, undefined, "nothing is sent twice");
  });

  it("a review sent while a turn runs is queued and goes after it", async () => {
    const { hub } = await api();
    const doc = await vscode.workspace.openTextDocument(file());
    const thread = hub.ledger.comments.controller.createCommentThread(doc.uri, new vscode.Range(0, 0, 0, 0), []);
    await vscode.commands.executeCommand("acpThreads.addReviewComment", { thread, text: "and document it" });
    const before = s.events.length;
    // a turn that runs until it is cancelled (the fake agent's "tool" scenario): no race with its end
    void s.prompt("tool");
    await waitFor("the turn to run", () => s.busy);
    const how = await vscode.commands.executeCommand("acpThreads.sendReview", s.threadId, { intro: "context" });
    assert.equal(how, "queued");
    assert.equal(hub.composer.queues.list(s.threadId).length, 1);
    await s.cancel();
    await waitFor("the queued review to be answered", () =>
      /resource file:\/\/.*#L1:1/.test(agentText(s.events.slice(before))) && !s.busy ? true : undefined,
    );
    const texts = s.events.slice(before).flatMap((e) => (e.type === "user_text" ? [e.text] : []));
    assert.equal(texts[0], "tool");
    assert.match(texts[1] ?? "", /^context\n\n1\. src\/review-me\.txt:1: and document it\n@review-me\.txt:1$/);
  });
});
