// `_auth/status_update` (codex-acp 2.6): the agent's login state is recorded per runtime; malformed ones are
// ignored.
import assert from "node:assert/strict";
import { test } from "node:test";
import { authStatusText, parseAuthStatus } from "../../../../src/core/acp/auth-status";
import { collect, startFake } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("the shape codex-acp sends is read, anything else is ignored", () => {
  assert.deepEqual(parseAuthStatus({ authStatus: { kind: "none", label: "Not logged in" } }), {
    kind: "none",
    label: "Not logged in",
  });
  assert.equal(parseAuthStatus({ authStatus: { label: "x" } }), undefined);
  assert.equal(parseAuthStatus(null), undefined);
  assert.equal(parseAuthStatus({ authStatus: "yes" }), undefined);
  assert.equal(authStatusText({ kind: "none" }), "Not logged in");
  assert.equal(authStatusText({ kind: "chat-gpt" }), "Logged in (chat-gpt)");
});

test("the runtime keeps the last login state the agent reported", () =>
  withTmpDir("acp-auth-status-", async (cwd) => {
    const rt = startFake(
      {
        prompt: async ({ client }) => {
          await client.notify("_auth/status_update", { authStatus: { kind: "none", label: "Not logged in" } });
          await client.notify("_auth/status_update", { authStatus: { nope: true } });
          await client.notify("_auth/status_update", { authStatus: { kind: "chat-gpt", label: "Signed in as a@b.c" } });
          await client.notify("_auth/status_update", { authStatus: 7 });
          return "end_turn";
        },
      },
      { cwd },
    );
    const seen: string[] = [];
    rt.onAuthStatus((s) => seen.push(s.kind)); // the editor's header and tree follow this
    const { sessionId } = await rt.ensureSession();
    assert.equal(rt.authStatus(), undefined);
    await collect(rt.runTurn(sessionId, "go"));
    assert.deepEqual(rt.authStatus(), { kind: "chat-gpt", label: "Signed in as a@b.c" });
    assert.deepEqual(seen, ["none", "chat-gpt"]);
    await rt.close();
  }));
