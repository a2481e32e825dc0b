// A run's context in the thread host (#35): the editor's prompt as composed (`parts`: text and chips in order) reaches
// the agent as the same blocks a window session sends, and the host takes a client's chip as input like any other:
// one naming a file outside the run's folders (directly, through a symlink, or only by its URI) is refused, the run
// does not start, and the file is never read (hostile: before the check, the host embedded the file for the agent).
// Real processes: the built CLI's host, the stdio fake agent.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import type { DetachedRun } from "../../../../src/core/host/protocol";
import type { ContextItem } from "../../../../src/core/model/context";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { CLI, FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { hostEnv, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

const SECRET = "TOP SECRET LINE";

const fileChip = (path: string, label = "chip"): ContextItem => ({
  kind: "file",
  label,
  uri: pathToFileURL(path).href,
  path,
});

async function world(
  dir: string,
  fn: (w: { conn: HostConnection; home: string; ws: string; secret: string }) => Promise<void>,
) {
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  const other = join(dir, "other");
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(other);
  writeFileSync(join(ws, "src", "a.ts"), "inside line\n");
  writeFileSync(join(other, "b.ts"), "other folder line\n");
  const secret = join(dir, "secret.txt");
  writeFileSync(secret, `${SECRET}\n`);
  symlinkSync(dir, join(ws, "up")); // a link in the folder that leads out of it
  const conn = await connectHost({
    home,
    client: "test",
    // the editor's folders, as its hello says them: a run's roots must be inside them (run-roots.ts)
    serves: { fs: false, roots: [ws, other] },
    start: { script: CLI, env: { ...process.env, ...hostEnv(), ACP_THREADS_HOME: home } },
  });
  assert.ok(conn);
  try {
    await fn({ conn, home, ws, secret });
  } finally {
    conn.close();
    await stopHost(home);
  }
}

const run = (ws: string, more: Partial<DetachedRun>): DetachedRun => ({
  cwd: ws,
  prompts: ["context"],
  agent: FAKE_AGENT,
  permission: "approve-all",
  env: { FAKE_AGENT_PROMPT_CAPS: "embeddedContext" },
  stallMs: 0,
  retry: "off",
  ...more,
});

/** The agent's answer to the run's first turn. */
async function said(home: string, threadId: string): Promise<string> {
  const records = () => new ThreadStore(home).read(threadId).records;
  await waitFor(() => records().some((r) => r.kind === "turn_end"), "the turn ended");
  return records()
    .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
    .join("");
}

test("a forged context chip outside the run's folders is refused, and the file is never sent", () =>
  withTmpDir("acp-host-ctx-", (dir) =>
    world(dir, async ({ conn, ws, secret }) => {
      const refused = /outside the run's folders/;
      const forged: [string, Partial<DetachedRun>][] = [
        ["context, by its path", { context: [fileChip(secret)] }],
        ["context, through a symlink in the folder", { context: [fileChip(join(ws, "up", "secret.txt"))] }],
        [
          "parts, by its path",
          {
            parts: [
              { type: "text", text: "context " },
              { type: "context", item: fileChip(secret) },
            ],
          },
        ],
        [
          "parts, a selection outside",
          {
            parts: [
              { type: "text", text: "context " },
              { type: "context", item: { ...fileChip(secret), kind: "selection", range: { start: 1, end: 1 } } },
            ],
          },
        ],
        [
          "parts, a path inside with a URI outside",
          {
            parts: [
              { type: "context", item: { ...fileChip(join(ws, "src", "a.ts")), uri: pathToFileURL(secret).href } },
            ],
          },
        ],
      ];
      for (const [what, more] of forged)
        await assert.rejects(conn.request({ t: "run", run: run(ws, more) }), refused, what);
      const st = await conn.request({ t: "status" });
      assert.equal(st.t === "status" && st.status.sessions.length, 0, "no run started");
    }),
  ));

test("the editor's composed prompt reaches the agent as its blocks, context from its folders included", () =>
  withTmpDir("acp-host-ctx-", (dir) =>
    world(dir, async ({ conn, home, ws }) => {
      const other = join(dir, "other");
      const r = await conn.request({
        t: "run",
        run: run(ws, {
          prompts: ["ignored: parts win"],
          roots: [other],
          parts: [
            { type: "text", text: "context see " },
            { type: "context", item: fileChip(join(ws, "src", "a.ts"), "a.ts") },
            { type: "text", text: " and " },
            { type: "context", item: fileChip(join(other, "b.ts"), "b.ts") },
            { type: "text", text: " then " },
            {
              type: "context",
              item: {
                kind: "thread",
                label: "Past",
                uri: "acp-threads://thread/t1",
                threadId: "t1",
                content: "past talk",
              },
            },
          ],
        }),
      });
      assert.equal(r.t, "started");
      const text = await said(home, r.t === "started" ? r.threadId : "");
      assert.equal(
        text.trim(),
        [
          'text "context see "',
          `resource ${pathToFileURL(join(ws, "src", "a.ts")).href} "inside line"`,
          'text " and "',
          `resource ${pathToFileURL(join(other, "b.ts")).href} "other folder line"`,
          'text " then "',
          'resource acp-threads://thread/t1 "past talk"',
        ].join("\n"),
      );
      const user = new ThreadStore(home)
        .read(r.t === "started" ? r.threadId : "")
        .records.find((x) => x.kind === "user_message");
      assert.equal(user?.kind === "user_message" && user.text, "context see @a.ts and @b.ts then @Past");
    }),
  ));

test("a thread continued in the host with a composed prompt gets its context", () =>
  withTmpDir("acp-host-ctx-", (dir) =>
    world(dir, async ({ conn, home, ws }) => {
      const first = await conn.request({ t: "run", run: run(ws, { prompts: ["hello"] }) });
      const threadId = first.t === "started" ? first.threadId : "";
      await said(home, threadId);
      for (let ended = false; !ended; await new Promise((r) => setTimeout(r, 50))) {
        const st = await conn.request({ t: "status" });
        ended = st.t === "status" && !st.status.sessions.some((s) => s.threadId === threadId && s.state !== "ended");
      }
      const next = await conn.request({
        t: "run",
        run: run(ws, {
          thread: threadId,
          parts: [
            { type: "text", text: "context again " },
            { type: "context", item: fileChip(join(ws, "src", "a.ts"), "a.ts") },
          ],
        }),
      });
      assert.equal(next.t, "started");
      const records = () => new ThreadStore(home).read(threadId).records;
      await waitFor(() => records().filter((r) => r.kind === "turn_end").length >= 2, "the second turn ended");
      const answer = records()
        .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
        .join("");
      assert.match(answer, /resource file:\/\/.*a\.ts "inside line"/, answer);
    }),
  ));
