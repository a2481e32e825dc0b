import { test } from "node:test";
import assert from "node:assert/strict";
import { authKindsOfMethods, authLabel } from "../../../../src/core/registry";

test("auth kinds of initialize's authMethods: agent (no type), terminal (type or legacy _meta), env var", () => {
  // codex-acp 2.6: api-key + chat-gpt, both agent auth
  assert.deepEqual(
    authKindsOfMethods([
      { id: "api-key", name: "API key" },
      { id: "chat-gpt", name: "ChatGPT" },
    ]),
    ["agent"],
  );
  assert.deepEqual(
    authKindsOfMethods([
      { id: "e", name: "E", type: "env_var", vars: [{ name: "X_API_KEY" }] },
      { id: "t", name: "T", _meta: { "terminal-auth": { command: "x" } } },
      { id: "l", name: "L", type: "terminal", args: ["--login"] },
    ] as never),
    ["terminal", "env_var"],
  );
  assert.deepEqual(authKindsOfMethods([]), []);
});

test("auth labels for the picker and agents list", () => {
  assert.equal(authLabel(["agent", "terminal", "env_var"], true), "auth: agent / terminal / env var");
  assert.equal(authLabel([], true), "auth: none");
  assert.equal(authLabel(undefined, true), "auth: unknown");
  assert.equal(authLabel(undefined, false), "auth: known once installed");
});
