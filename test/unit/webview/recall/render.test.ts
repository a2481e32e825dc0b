import { test } from "node:test";
import assert from "node:assert/strict";
import { readableEvidence } from "../../../../src/webview/recall/evidence";
import { highlight, modeWords, renderRecent, renderResults } from "../../../../src/webview/recall/render";
import type { SearchResult } from "../../../../src/core/recall/search";

test("tool JSON in evidence reads as what the tool did", () => {
  const codex =
    'echo hi {"call_id":"call_67","process_id":"52086","turn_id":"01a2","started_at_ms":1795431450883,"command":["/bin/bash","-lc","echo hi"],"cwd":"/tmp/ws","parsed_cmd":[{"type":"unknown","cmd":"echo hi"}],"source":"unified_exec_startup"}';
  assert.equal(readableEvidence(codex), "echo hi $ echo hi");
  assert.equal(readableEvidence('Read {"file_path":"/ws/a.ts","limit":20}'), "Read /ws/a.ts");
  assert.equal(readableEvidence('Grep {"pattern":"TODO","path":"src"}'), "Grep src · “TODO”");
  assert.equal(readableEvidence("plain words {not json}"), "plain words {not json}");
});

test("JSON cut off by the index budget still yields its readable fields", () => {
  const cut = 'echo hi {"call_id":"c","command":["/bin/bash","-lc","echo hi"],"cwd":"/tmp/acp-e2e-ws-';
  assert.equal(readableEvidence(cut), "echo hi $ echo hi …");
  assert.equal(readableEvidence('x {"weird":'), 'x {"weird":');
});

test("match modes read as words, not as a scope", () => {
  assert.equal(modeWords({ mode: "all", fallback: false }), "matching all words");
  assert.equal(modeWords({ mode: "alternatives", fallback: false }), "matching any of the alternatives");
  assert.match(modeWords({ mode: "any", fallback: true }), /no session has every word/);
});

test("marks are light and safe: text is escaped around them", () => {
  assert.equal(highlight("<b>Echo</b> echo", ["echo"]), "&lt;b&gt;<mark>Echo</mark>&lt;/b&gt; <mark>echo</mark>");
});

const result = (over: Partial<SearchResult>): SearchResult => ({
  schema_version: 1,
  status: "ok",
  query: "echo",
  mode: "all",
  fallback: false,
  scope: { kind: "global", repo: null },
  sessions: [],
  matched_sessions: 0,
  truncated: false,
  elapsed_ms: 5,
  ...over,
});

test("counts use the right plural and say how the query matched", () => {
  const session = {
    id: "s",
    source: "codex_rollout",
    path: "/h/r.jsonl",
    cwd: "/ws",
    repo: null,
    title: "run echo",
    intent: null,
    started_at: null,
    last_at: null,
    why: { terms_matched: ["echo"] } as never,
    windows: [
      {
        messages: [
          { role: "tool", tool: "exec_command", text: '{"command":["bash","-lc","echo hi"]}', hit: true, line: 4 },
        ],
      } as never,
    ],
  };
  const html = renderResults(result({ sessions: [session], matched_sessions: 1 }));
  assert.match(html, /1 session matching all words/);
  assert.match(html, /\$ <mark>echo<\/mark> hi/);
  assert.doesNotMatch(html, /call_id|&quot;command/);
  assert.match(renderResults(result({ sessions: [session, session], matched_sessions: 5 })), /5 sessions \(top 2\)/);
  assert.doesNotMatch(html, /off the main branch/);
  const rewound = {
    ...session,
    windows: [{ messages: [{ role: "user", tool: null, text: "echo it", hit: true, line: 9, off_chain: true }] }],
  } as never;
  assert.match(
    renderResults(result({ sessions: [rewound], matched_sessions: 1 })),
    /class="tag off-chain"[^>]*>off the main branch</,
    "evidence from an abandoned branch says so",
  );
  const recent = renderRecent({
    scope: { kind: "repo", repo: "/ws" },
    sessions: [{ messages: 1, source: "acp_threads", path: "/p", id: "i", title: "t", preview: "t" } as never],
  } as never);
  assert.match(recent, /1 message</);
  assert.match(recent, /Recent sessions in this repository/);
});
