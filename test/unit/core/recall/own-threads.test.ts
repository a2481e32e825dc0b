import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openRecall } from "../../../../src/core/recall/recall";
import { serializeRecord, stampRecord, type RecordInput } from "../../../../src/core/model/records";
import { homeLayout } from "../../../../src/core/store/paths";
import { findFile, makeWorld } from "./helpers";

const line = (r: RecordInput) => `${serializeRecord(stampRecord(r))}\n`;

test("our own threads are indexed incrementally, with the transcript an exec run left behind", () => {
  const w = makeWorld();
  const threads = homeLayout(w.home).threadsDir;
  mkdirSync(threads, { recursive: true });
  const file = join(threads, "thr-recall-1.jsonl");
  const codexFile = findFile(w.codexRoot, "000000000001");
  const r = openRecall(w.home);
  writeFileSync(
    file,
    [
      line({
        kind: "thread_start",
        threadId: "thr-recall-1",
        agent: { id: "codex", name: "Codex", command: "codex-acp" },
        mode: "acp",
        cwd: w.repoA,
        repoRoot: w.repoA,
        gitHead: null,
      }),
      line({ kind: "user_message", messageId: "u1", text: "please tune the pelican cache" }),
      line({ kind: "agent_message", messageId: "a1", text: "Tuned the pelican cache eviction. 缓存已调整" }),
      line({
        kind: "tool_call",
        toolCall: {
          toolCallId: "t1",
          title: "Run npm test",
          kind: "execute",
          status: "completed",
          content: [],
          locations: [],
          rawInput: { command: "npm test -- pelican" },
        },
      }),
      line({ kind: "meta_patch", patch: { title: "Pelican cache", transcriptPath: codexFile } }),
    ].join(""),
  );
  try {
    const first = r.syncOwnThreads();
    assert.equal(first.imported, 1);
    const res = r.search("pelican", { repo: w.repoA });
    assert.equal(res.sessions[0].source, "acp_threads");
    assert.equal(res.sessions[0].title, "Pelican cache");
    assert.equal(res.sessions[0].intent, "please tune the pelican cache");
    assert.equal(
      r.search("rollback", { repo: w.repoA }).sessions[0]?.source,
      "codex_rollout",
      "the linked Codex transcript is indexed too",
    );
    assert.equal(r.syncOwnThreads().unchanged, 1, "nothing new: stat only");
    appendFileSync(file, line({ kind: "agent_message", messageId: "a2", text: "one more walrus note" }));
    const tail = r.syncOwnThreads();
    assert.equal(tail.messages, 1);
    assert.equal(r.search("walrus", { repo: w.repoA }).sessions.length, 1);
  } finally {
    r.close();
    w.cleanup();
  }
});
