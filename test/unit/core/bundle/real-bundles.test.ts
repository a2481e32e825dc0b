// The bug bundles recorded from real agents (test/fixtures/bundles, refreshed by record.main.ts) replay against
// today's client without divergence: how the client answers codex-acp's patch permission, claude-agent-acp's
// Write permission and gemini's fs reads and writes is pinned down.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { readBugBundle } from "../../../../src/core/bundle/bundle";
import { replayBundle } from "../../../../src/core/bundle/replay";
import { repoRoot } from "../../../fixtures/agent-env/index";

const EXPECTED: Record<string, string[]> = {
  "codex-acp": ["session/request_permission"],
  "codex-acp-0.16": ["session/request_permission"],
  "codex-acp-0.16-exec-end": ["session/request_permission"], // recorded before the client advertised elicitation
  "claude-agent-acp": ["session/request_permission"],
  gemini: ["fs/read_text_file", "session/request_permission", "fs/write_text_file"],
};

for (const [id, requests] of Object.entries(EXPECTED)) {
  test(`the ${id} bundle replays without divergence`, async () => {
    const bundle = readBugBundle(join(repoRoot(), "test", "fixtures", "bundles", `${id}.json`));
    const agentRequests = bundle.traffic.flatMap((e) =>
      e.d === "recv" && e.m?.id !== undefined && typeof e.m.method === "string" ? [e.m.method] : [],
    );
    for (const r of requests) assert.ok(agentRequests.includes(r), `${id} sent ${r} when recorded`);
    const report = await replayBundle(bundle);
    assert.deepEqual(report.divergences, []);
    assert.deepEqual(report.thread, []);
    assert.equal(report.ok, true);
    assert.equal(report.bundle.agent, bundle.agent.id);
    assert.ok(id.startsWith(bundle.agent.id), `${id} holds ${bundle.agent.id}`);
    assert.ok(report.matched >= 4, `${report.matched} client messages matched`);
    // a recording that advertised elicitation is replayed advertising it; capabilities added since are a note
    const init = bundle.traffic.find((e) => e.d === "send" && e.m?.method === "initialize")!;
    const recordedCaps = Object.keys((init.m!.params as { clientCapabilities: object }).clientCapabilities);
    const added = /capabilities this client added since the recording/;
    if (recordedCaps.includes("elicitation"))
      assert.ok(!report.notes.some((n) => added.test(n)), report.notes.join("; "));
    else
      assert.ok(
        report.notes.some((n) => added.test(n)),
        report.notes.join("; "),
      );
  });
}
