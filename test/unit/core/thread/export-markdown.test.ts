// Markdown export of real thread files: a ThreadSession with the in-process fake agent records a turn with an
// image prompt, a thought, a plan, an edit (diff), a command with output and an image a tool returned; the
// export is read back as text and its copied images as bytes.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { textWithContext } from "../../../../src/core/prompt/blocks";
import { imageItem } from "../../../../src/core/prompt/images";
import { ThreadSession } from "../../../../src/core/session";
import { assetsFolderFor, exportMarkdown, markdownFileName } from "../../../../src/core/snapshot/markdown-file";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fence, unifiedFileDiff } from "../../../../src/core/thread/markdown-blocks";
import { startFake, type FakeAgentScript } from "../../../fixtures/fake-agents/in-process";
import { withTmp } from "../store/helpers";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const TOOL_PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9]);

function script(ws: string): FakeAgentScript {
  return {
    promptCapabilities: { image: true },
    async prompt(t) {
      await t.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me look." } });
      await t.update({
        sessionUpdate: "plan",
        entries: [
          { content: "Fix the greeting", priority: "high", status: "completed" },
          { content: "Run the tests", priority: "medium", status: "pending" },
        ],
      });
      const file = join(ws, "src", "greet.js");
      await t.update({
        sessionUpdate: "tool_call",
        toolCallId: "edit-1",
        title: "Edit src/greet.js",
        kind: "edit",
        status: "completed",
        content: [{ type: "diff", path: file, oldText: "hello\nworld\n", newText: "hello\nthere\n" }],
        locations: [{ path: file }],
      });
      await t.update({
        sessionUpdate: "tool_call",
        toolCallId: "run-1",
        title: "Run tests",
        kind: "execute",
        status: "completed",
        rawInput: { command: ["/bin/bash", "-lc", "npm test"] },
        rawOutput: { formatted_output: "ok 1 <greet> ```fenced```\n", exit_code: 0 },
        content: [],
        locations: [],
      });
      await t.update({
        sessionUpdate: "tool_call",
        toolCallId: "shot-1",
        title: "Screenshot",
        kind: "other",
        status: "completed",
        content: [
          {
            type: "content",
            content: { type: "image", data: Buffer.from(TOOL_PNG).toString("base64"), mimeType: "image/png" },
          },
        ],
        locations: [],
      });
      await t.say("Fixed the **greeting**. The key was sk-proj-abcdefghijklmnopqrstuvwx.");
      return "end_turn";
    },
  };
}

async function recordThread(dir: string): Promise<{ store: ThreadStore; id: string; ws: string }> {
  const ws = join(dir, "my ws");
  mkdirSync(join(ws, "src"), { recursive: true });
  const store = new ThreadStore(join(dir, "home"));
  const session = await ThreadSession.start({
    store,
    agent: { id: "fake", name: "Fake", command: "/bin/false" },
    cwd: ws,
    live: { flushMs: 0 },
    createRuntime: () => startFake(script(ws), { cwd: ws }),
  });
  const built = await session.preparePrompt(
    textWithContext("Why does it say world?", [imageItem(PNG, "screen (1).png")]),
    { readText: async () => undefined },
  );
  await session.promptBuilt(built);
  await session.close();
  return { store, id: session.threadId, ws };
}

test("a recorded thread exports as Markdown with its header, turns, tool details, diffs and images", () =>
  withTmp(async (dir) => {
    const { store, id, ws } = await recordThread(dir);
    const thread = store.read(id);
    const out = join(dir, "export", "notes.md");
    const res = exportMarkdown(thread, store.threadsDir, out);
    assert.equal(res.path, out);
    assert.deepEqual(res.warnings, []);
    const md = readFileSync(out, "utf8");
    assert.equal(md, res.markdown);
    assert.equal(statSync(out).mode & 0o777, 0o600);

    // header: title, agent (as launched and as it introduced itself), workspace, dates
    assert.match(md, /^# Why does it say world\?/);
    assert.match(md, /\| Agent \| Fake \(`fake`\) · in-process-fake 0\.0\.1 \|/);
    assert.ok(md.includes(`| Workspace | \`${ws}\` |`), md);
    assert.match(md, /\| Started \| \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \|/);
    assert.match(md, /\| Thread \| `[0-9a-f-]+` \(agent session `s1`\) \|/);

    // the prompt, its image copied beside the file and linked relatively (URL-encoded)
    assert.match(md, /### You · \d{2}:\d{2} UTC\n\nWhy does it say world\?/);
    const prompted = /!\[screen \(1\)\.png\]\(notes\.assets\/([0-9a-f]+\.png)\)/.exec(md);
    assert.ok(prompted, md);
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, "export", "notes.assets", prompted[1]))), PNG);

    // the answer under the agent's heading; thinking collapsed; the plan as a task list
    assert.match(md, /### Fake · \d{2}:\d{2} UTC\n/);
    assert.match(md, /<details>\n<summary>Thinking<\/summary>\n\nLet me look\.\n\n<\/details>/);
    assert.match(md, /- \[x\] Fix the greeting\n- \[ \] Run the tests/);
    assert.match(md, /Fixed the \*\*greeting\*\*\./);

    // the edit: collapsed, its diff fenced with paths relative to the workspace
    assert.ok(md.includes("<summary>Tool: <b>Edit src/greet.js</b> · edit · completed</summary>"), md);
    assert.ok(
      md.includes("```diff\n--- a/src/greet.js\n+++ b/src/greet.js\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n```"),
      md,
    );

    // the command: its command line and output; the output's backticks cannot close the fence; HTML escaped
    assert.ok(md.includes("<summary>Tool: <b>Run tests</b> · execute · completed</summary>"), md);
    assert.ok(md.includes("```sh\nnpm test\n```"), md);
    assert.ok(md.includes("Output (exit 0):\n\n````\nok 1 <greet> ```fenced```\n````"), md);

    // an image a tool returned inline is written as a file and linked
    const inline = /!\[image\]\(notes\.assets\/([0-9a-f]{16}\.png)\)/.exec(md);
    assert.ok(inline, md);
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, "export", "notes.assets", inline[1]))), TOOL_PNG);
    assert.equal(res.assets.length, 2);

    // secrets are redacted like in snapshots; no turn-end noise for a normal turn
    assert.doesNotMatch(md, /sk-proj-abcdefghijklmnopqrstuvwx/);
    assert.match(md, /\[REDACTED\]/);
    assert.doesNotMatch(md, /Turn ended/);
  }));

test("without a file the Markdown links the stored images and leaves inline ones out; nothing is written", () =>
  withTmp(async (dir) => {
    const { store, id } = await recordThread(dir);
    const res = exportMarkdown(store.read(id), store.threadsDir);
    assert.equal(res.path, undefined);
    assert.deepEqual(res.assets, []);
    assert.ok(res.markdown.includes(`](${store.threadsDir.replace(/ /g, "%20")}/${id}.assets/`), res.markdown);
    assert.match(res.markdown, /\*\(image: an image, exported only with --out\)\*/);
  }));

test("a missing stored image is reported and skipped; the rest is written", () =>
  withTmp(async (dir) => {
    const { store, id } = await recordThread(dir);
    rmSync(join(store.threadsDir, `${id}.assets`), { recursive: true, force: true });
    const out = join(dir, "out.md");
    const res = exportMarkdown(store.read(id), store.threadsDir, out);
    assert.equal(res.warnings.length, 1);
    assert.match(res.warnings[0], /is not in .* any more/);
    assert.equal(res.assets.length, 1, "the tool's inline image is still written");
    assert.ok(existsSync(out));
  }));

test("an exec thread exports its output and exit; a cancelled turn says so", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create({
      agent: { id: "codex", name: "Codex", command: "codex" },
      mode: "exec",
      cwd: dir,
      repoRoot: null,
      gitHead: "0123456789abcdef",
      title: "exec | run",
    });
    h.append({ kind: "user_message", messageId: "u", text: "run it" });
    h.append({ kind: "exec_output", stream: "stdout", text: "line 1\nline 2\n", bytes: 14 });
    h.append({ kind: "exec_exit", exitCode: 2, signal: null });
    h.append({ kind: "turn_end", stopReason: "cancelled" });
    h.close();
    const md = exportMarkdown(store.read(h.threadId), store.threadsDir).markdown;
    assert.match(md, /^# exec \\\| run\n/);
    assert.match(md, /at `0123456789`/);
    assert.match(md, /stdout:\n\n```\nline 1\nline 2\n```/);
    assert.match(md, /\*Exited with code 2\*/);
    assert.match(md, /\*Turn ended: cancelled\*/);
    assert.equal(markdownFileName(store.read(h.threadId)), `exec-run-${h.threadId.slice(0, 8)}.md`);
  }));

test("blocks: fences outgrow the content's backticks; diffs of new files; asset folder names", () => {
  assert.equal(fence("a ``` b", "sh"), "````sh\na ``` b\n````");
  assert.equal(fence("plain\n"), "```\nplain\n```");
  assert.equal(unifiedFileDiff("a.txt", null, "x\n"), "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+x");
  assert.equal(unifiedFileDiff("a.txt", "same", "same"), "");
  assert.equal(assetsFolderFor("/tmp/notes.md"), "notes.assets");
  assert.equal(assetsFolderFor("/tmp/notes"), "notes.assets");
});
