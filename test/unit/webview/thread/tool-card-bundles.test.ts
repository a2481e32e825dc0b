// The `echo hi` card of each codex-acp adapter, from its recorded traffic (test/fixtures/bundles): the
// session/update messages go through the engine's tool-call tracker and the card renders the merged state, as
// the panel does. codex-acp 2.6 streams `_meta.terminal_output`; 0.16 sends its exec record in rawOutput with
// `_meta.terminal_exit` (codex-acp-0.16-exec-end.json) or ends the turn before it (codex-acp-0.16.json).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { ToolCallTracker } from "../../../../src/core/acp/normalize";
import { readBugBundle } from "../../../../src/core/bundle/bundle";
import type { TrafficEntry } from "../../../../src/core/bundle/traffic";
import type { ToolCallState } from "../../../../src/core/model/events";
import { emptyContext } from "../../../../src/webview/thread/transcript/context";
import { renderBlockEntry } from "../../../../src/webview/thread/transcript/entries";
import { repoRoot } from "../../../fixtures/agent-env/index";

type Update = Record<string, unknown> & { sessionUpdate?: string };

const updates = (traffic: readonly TrafficEntry[]): Update[] =>
  traffic.flatMap((e) => {
    const m = e.m as { method?: string; params?: { update?: Update } } | undefined;
    return e.d === "recv" && m?.method === "session/update" && m.params?.update ? [m.params.update] : [];
  });

/** The execute call's state after the recorded updates, and its card. */
function card(list: Update[]): { call: ToolCallState; html: string } {
  const tools = new ToolCallTracker();
  let call: ToolCallState | undefined;
  for (const u of list) {
    if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") continue;
    const s = tools.apply(u, u.sessionUpdate === "tool_call");
    if (s?.kind === "execute") call = s;
  }
  assert.ok(call, "an execute call");
  return { call, html: renderBlockEntry({ kind: "tool", call, version: 0 }, { ...emptyContext(), cwd: "/ws" }) };
}

const bundle = (name: string) => readBugBundle(join(repoRoot(), "test", "fixtures", "bundles", `${name}.json`));

for (const name of ["codex-acp", "codex-acp-0.16", "codex-acp-0.16-exec-end"]) {
  test(`${name}: the recorded echo hi card shows hi`, () => {
    const b = bundle(name);
    const { html } = card(updates(b.traffic));
    assert.match(html, /<pre class="term">hi<\/pre>/, `${b.versions.agents[0]?.version}: ${html}`);
    assert.doesNotMatch(html, /No output/);
  });
}

test("codex-acp 0.16: an exec record whose formatted and aggregated output are empty shows its stdout", () => {
  // the run the issue saw: no terminal_output stream, the text only in rawOutput.stdout, the end in terminal_exit
  const list = updates(bundle("codex-acp-0.16-exec-end").traffic).flatMap((u) => {
    const meta = u._meta as Record<string, unknown> | undefined;
    if (meta?.terminal_output) return [];
    const raw = u.rawOutput as Record<string, unknown> | undefined;
    if (!raw || typeof raw.stdout !== "string") return [u];
    return [{ ...u, rawOutput: { ...raw, formatted_output: "", aggregated_output: "" } }];
  });
  const { call, html } = card(list);
  assert.equal(call.terminalOutput, undefined);
  assert.deepEqual(call.terminalExit, { exitCode: 0, signal: null });
  assert.match(html, /<pre class="term">hi<\/pre>/);
  assert.match(html, /class="badge ok"[^>]*>exit 0</);
  assert.doesNotMatch(html, /No output/);
});
