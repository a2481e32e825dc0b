// Issue 33 deliverable 4 in the thread panel: a decided permission's card line says why (the engine's reason and
// the rule that decided), today's words when the engine gives none; a pending request about paths outside the
// session's roots is marked "outside the workspace", naming them; all of it escaped.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PermissionDecision } from "../../../../src/core/model/events";
import { emptyContext } from "../../../../src/webview/thread/transcript/context";
import { renderDecision, renderPermission } from "../../../../src/webview/thread/transcript/permission-card";

const decision = (over: Partial<PermissionDecision>): PermissionDecision => ({
  toolCallId: "c1",
  title: "npm test",
  kind: "execute",
  optionId: "ok",
  optionKind: "allow_once",
  decidedBy: "policy",
  options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
  ...over,
});
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();

test("a decided permission shows the engine's reason and the rule; without them, today's words", () => {
  assert.equal(
    text(renderDecision(decision({ reason: "allowed by rule: npm test", rule: 'allow execute "npm test"' }))),
    "Permission: Allow (allowed by rule: npm test) rule: allow execute &quot;npm test&quot;",
  );
  assert.equal(
    text(renderDecision(decision({ reason: "allowed by rule: allow execute <b>", rule: "allow execute <b>" }))),
    "Permission: Allow (allowed by rule: allow execute &lt;b&gt;)",
    "a rule the reason already names is not repeated; escaped",
  );
  assert.equal(text(renderDecision(decision({}))), "Permission: Allow (by your permission setting)");
  assert.equal(text(renderDecision(decision({ decidedBy: "remembered" }))), "Permission: Allow (by a remembered rule)");
});

test("a decision names the option by the name the record keeps; an older record by its id", () => {
  const kept = { optionName: "Yes, and don't ask again for `npm <b>test</b>`", options: [] };
  assert.equal(
    text(renderDecision(decision({ ...kept, decidedBy: "user", reason: "asked: a command" }))),
    "Permission: Yes, and don&#39;t ask again for `npm &lt;b&gt;test&lt;/b&gt;` (asked: a command)",
  );
  const older = { optionId: "yes", options: [{ optionId: "yes", name: "yes", kind: "allow_once" as const }] };
  assert.equal(text(renderDecision(decision({ ...older, decidedBy: "user" }))), "Permission: yes (by you)");
});

test("a pending request outside the workspace is marked, naming its paths; the answered line keeps the mark", () => {
  const view = {
    requestId: "r1",
    toolCallId: "c1",
    title: "Write /etc/hosts",
    kind: "edit",
    options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
    outside: ["/etc/hosts", "/tmp/<x>"],
  };
  const ctx = { ...emptyContext(), cwd: "/ws" };
  const pending = renderPermission({ view }, "Write", ctx);
  assert.match(text(pending), /Outside the workspace: \/etc\/hosts, \/tmp\/&lt;x&gt;/);
  assert.match(pending, /aria-label="Permission requested \(outside the workspace\): Write \/etc\/hosts"/);
  assert.match(pending, /class="permission outside"/);
  const inside = renderPermission({ view: { ...view, outside: undefined } }, "Write", ctx);
  assert.doesNotMatch(inside, /outside/i);
  assert.equal(
    text(renderPermission({ view, answered: "ok" }, "Write", ctx)),
    "Permission: Allow (outside the workspace)",
  );
});

test("hostile: the name of the thread host's client that answered first is shown as text, never as HTML or markdown", () => {
  // the name comes from another process (its `hello`), up to 200 characters of anything
  const by = `<img src=x onerror="alert(1)"><script>alert(2)</script>**bold** [link](javascript:alert(3))`;
  const view = {
    requestId: "r1",
    title: "Write a.txt",
    kind: "edit",
    options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
  };
  const html = renderPermission({ view, answered: "yes", by }, "Write", { ...emptyContext(), cwd: "/ws" });
  assert.doesNotMatch(html, /<img|<script|<a\b|<strong|<b>/i, html);
  assert.equal(
    text(html),
    "Permission: Yes answered by &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;**bold** [link](javascript:alert(3))",
  );
  const none = renderPermission({ view, answered: null, by: "<b>x</b>" }, "Write", emptyContext());
  assert.equal(text(none), "Permission: No answer answered by &lt;b&gt;x&lt;/b&gt;");
});

test("hostile: a person's answer read from the records names who answered, as text; without a name, as before", () => {
  const by = `<img src=x onerror="alert(1)">**bold**`;
  const html = renderDecision(decision({ decidedBy: "user", reason: "asked: writes a file", answeredBy: by }));
  assert.doesNotMatch(html, /<img|<strong/i, html);
  assert.equal(
    text(html),
    "Permission: Allow (asked: writes a file) answered by &lt;img src=x onerror=&quot;alert(1)&quot;&gt;**bold**",
  );
  assert.equal(
    text(renderDecision(decision({ decidedBy: "user", reason: "asked: x" }))),
    "Permission: Allow (asked: x)",
  );
});
