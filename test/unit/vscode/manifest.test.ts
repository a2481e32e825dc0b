import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMAND_IDS } from "../../../src/vscode/command-ids";
import { parseWebviewMessage } from "../../../src/webview/thread/protocol";

const manifest = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8"));

test("every command in package.json has a handler id and every handler id is contributed", () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, [...COMMAND_IDS].sort());
});

test("menus only reference contributed commands", () => {
  const ids = new Set<string>(COMMAND_IDS);
  for (const entries of Object.values(manifest.contributes.menus) as { command: string }[][]) {
    for (const e of entries) assert.ok(ids.has(e.command), `${e.command} is not contributed`);
  }
});

test("the extension declares limited support for untrusted workspaces", () => {
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, "limited");
});

test("webview messages of unknown or malformed shape are rejected", () => {
  assert.equal(parseWebviewMessage({ type: "eval", code: "x" }), undefined);
  assert.equal(parseWebviewMessage({ type: "prompt", text: 5 }), undefined);
  assert.equal(parseWebviewMessage({ type: "openLink", href: "javascript:alert(1)" }), undefined);
  assert.equal(parseWebviewMessage({ type: "openLocation", path: "/a", line: -1 }), undefined);
  assert.equal(parseWebviewMessage(null), undefined);
  assert.deepEqual(parseWebviewMessage({ type: "permission", requestId: "r", optionId: "allow", extra: 1 }), {
    type: "permission",
    requestId: "r",
    optionId: "allow",
  });
});

test("a message's Copy says what it copied (#37): copyText keeps `what: message`, nothing else", () => {
  assert.deepEqual(parseWebviewMessage({ type: "copyText", text: "hi", what: "message" }), {
    type: "copyText",
    text: "hi",
    what: "message",
  });
  assert.deepEqual(parseWebviewMessage({ type: "copyText", text: "x = 1" }), { type: "copyText", text: "x = 1" });
  assert.equal(parseWebviewMessage({ type: "copyText", text: "hi", what: "<b>" }), undefined);
});

test("recall view messages are validated: relative paths and unknown types are rejected", async () => {
  const { parseRecallMessage } = await import("../../../src/webview/recall/protocol");
  assert.equal(
    parseRecallMessage({ type: "open", source: "codex_rollout", path: "relative/x.jsonl", line: 1 }),
    undefined,
  );
  assert.equal(parseRecallMessage({ type: "search", query: "x", scope: "everywhere" }), undefined);
  assert.equal(parseRecallMessage({ type: "exec" }), undefined);
  assert.deepEqual(parseRecallMessage({ type: "search", query: "a b", scope: "all", allTerms: true }), {
    type: "search",
    query: "a b",
    scope: "all",
    allTerms: true,
  });
});
