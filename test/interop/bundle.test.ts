// Record/replay end to end with a real agent: claude-code-acp (the one that calls terminal/* and
// fs/write_text_file) works through a thread, its bug bundle is saved and `acp-threads replay` plays the agent
// side back against a fresh client without divergence. The committed bundles of codex-acp, claude-agent-acp and
// gemini replay in the unit suite (test/unit/core/bundle/real-bundles.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBugBundle } from "../../src/core/bundle/bundle";
import { repoRoot } from "../fixtures/agent-env/index";
import { recordBundle } from "../fixtures/bundles/record";
import { AGENT_TIMEOUT_MS, skipUnlessInstalled } from "./harness";

test(
  "a claude-code-acp thread's bug bundle replays through acp-threads replay without divergence",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const bundle = await recordBundle("claude-code-acp");
    const methods = bundle.traffic.flatMap((e) =>
      e.d === "recv" && typeof e.m?.method === "string" ? [e.m.method] : [],
    );
    for (const m of ["terminal/create", "terminal/output", "fs/write_text_file"]) assert.ok(methods.includes(m), m);
    const dir = mkdtempSync(join(tmpdir(), "acp-bundle-"));
    try {
      const file = join(dir, "bug.json");
      await writeBugBundle(bundle, file);
      const r = spawnSync(process.execPath, [join(repoRoot(), "dist", "cli.js"), "replay", file], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /ok: no divergence/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
