import { test } from "node:test";
import assert from "node:assert/strict";
import { clientInitializeParams } from "../../../../src/core/acp/initialize";
import { sessionFailureMessage, sessionFailureOf } from "../../../../src/core/acp/session-failure";

const meta = (f: unknown) => ({ quota: {}, jetbrains: { air: { version: 1, sessionFailure: f } } });

test("initialize advertises typed session failures (jetbrains.air capability sessionFailure)", () => {
  const m = clientInitializeParams().clientCapabilities?._meta as Record<string, unknown>;
  assert.deepEqual(m.jetbrains, { air: { version: 1, capabilities: ["sessionFailure"] } });
  assert.equal(m.terminal_output, true);
});

test("a prompt response's typed failure is read with its title, details and category", () => {
  // as codex-acp 2.6 sends it for a 429 after its retries
  const f = sessionFailureOf(
    meta({
      id: "t1:error",
      revision: 1,
      category: "limit",
      severity: "error",
      title: "exceeded retry limit, last status: 429 Too Many Requests",
      actions: ["retry"],
    }),
  );
  assert.deepEqual(f, {
    severity: "error",
    title: "exceeded retry limit, last status: 429 Too Many Requests",
    category: "limit",
  });
  assert.equal(sessionFailureMessage(f!), "exceeded retry limit, last status: 429 Too Many Requests");
  const d = sessionFailureOf(meta({ severity: "error", title: "The model provider reported an error.", details: "x" }));
  assert.equal(sessionFailureMessage(d!), "The model provider reported an error.: x");
  assert.equal(sessionFailureOf(meta({ severity: "warning", title: "Reconnecting…" }))?.severity, "warning");
});

test("anything else is no failure", () => {
  for (const m of [
    undefined,
    null,
    "x",
    {},
    { jetbrains: {} },
    meta(null),
    meta({ severity: "error" }),
    meta({ title: " " }),
  ])
    assert.equal(sessionFailureOf(m), undefined, JSON.stringify(m));
});
