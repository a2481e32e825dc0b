// The edit ledger with real agents: codex-acp, claude-agent-acp and pi-acp write to disk themselves, gemini writes
// through our fs/write_text_file, codex exec is an exec run. Each turn's ledger entry names the right files
// with the right before/after content, and restoring to before a turn brings the workspace back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openExecRegistry } from "../../src/core/exec";
import { EditLedger } from "../../src/core/ledger/edit-ledger";
import { LedgerExecRecorder } from "../../src/core/ledger/exec-recorder";
import { findTurn, type LedgerView } from "../../src/core/ledger/ledger-view";
import { applyRestore, planRestore } from "../../src/core/ledger/restore";
import { ThreadSession } from "../../src/core/session";
import { ThreadStore } from "../../src/core/store/thread-store";
import type { AgentId } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, runtimeFor, setUp, skipUnlessInstalled, type Interop } from "./harness";

// Claude Code writes an existing file only after reading it; agents without a read tool skip that step.
const WRITE = "read notes.txt back, then create notes.txt containing new notes, then create hello.txt containing hi";
const DELETE = "run `rm hello.txt`";

function seed(t: Interop, git: boolean): void {
  writeFileSync(join(t.workspace, "notes.txt"), "old notes\n");
  writeFileSync(join(t.workspace, ".gitignore"), "*.log\n");
  if (!git) return;
  const g = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: t.workspace, stdio: "pipe" });
  g("init", "-q");
  g("add", "-A");
  g("commit", "-qm", "seed");
}

/** `{relative path: [before text | null, after text | null]}` of one turn. */
function turnFiles(ledger: EditLedger, view: LedgerView, ws: string, turn: number) {
  const op = findTurn(view, turn);
  assert.ok(op, `turn ${turn} is in the ledger: ${JSON.stringify(view.ops.map((o) => o.op))}`);
  const text = (s: { id: string | null; stored: boolean } | null) => (s ? ledger.blobs.getText(s.id!) : null);
  return Object.fromEntries(op.files.map((f) => [f.path.slice(ws.length + 1), [text(f.before), text(f.after)]]));
}

const read = (t: Interop, f: string) => readFileSync(join(t.workspace, f), "utf8");

async function restoreBothWays(ledger: EditLedger, threadId: string, t: Interop, helloText: string): Promise<void> {
  // before turn 2: the deleted file comes back
  await applyRestore(ledger, await planRestore(ledger, threadId, { turn: 2 }), { cwd: t.workspace });
  assert.equal(read(t, "hello.txt"), helloText);
  // before turn 1: both files as they were before the agent
  const plan = await planRestore(ledger, threadId, { turn: 1 });
  assert.ok(
    plan.items.every((i) => !i.conflict && !i.unavailable),
    JSON.stringify(plan.items),
  );
  await applyRestore(ledger, plan, { cwd: t.workspace });
  assert.equal(read(t, "notes.txt"), "old notes\n");
  assert.equal(existsSync(join(t.workspace, "hello.txt")), false);
}

const ACP_CASES: { id: AgentId; git: boolean; via: string }[] = [
  { id: "codex-acp", git: true, via: "disk" },
  { id: "claude-agent-acp", git: false, via: "disk" },
  { id: "gemini", git: true, via: "fs_write" },
  { id: "pi-acp", git: false, via: "disk" },
];

for (const c of ACP_CASES) {
  test(
    `${c.id}: two turns in the ledger (${c.via}, ${c.git ? "git repository" : "plain folder"}) and restored`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(c.id);
      // codex-acp 2.6's read-only mode (set to make it ask) runs `rm` in a read-only sandbox, where it fails; the
      // ledger wants the file gone: its "Workspace access" mode writes in the workspace without asking
      if (c.id === "codex-acp") t.agent.vars.INITIAL_AGENT_MODE = t.agent.env.INITIAL_AGENT_MODE = "workspace-write";
      seed(t, c.git);
      const ledger = new EditLedger({ home: t.dataHome });
      const session = await ThreadSession.start({
        store: new ThreadStore(t.dataHome),
        agent: { id: c.id, name: c.id, command: t.agent.command },
        cwd: t.workspace,
        ledger,
        createRuntime: () => runtimeFor(t, "approve-all"),
      });
      try {
        const r1 = await session.prompt(WRITE);
        assert.equal(r1.error, undefined);
        const hello = read(t, "hello.txt");
        const notes = read(t, "notes.txt");
        assert.match(hello, /^hi\n?$/);
        assert.match(notes, /^new notes\n?$/);
        const r2 = await session.prompt(DELETE);
        assert.equal(r2.error, undefined);
        assert.equal(existsSync(join(t.workspace, "hello.txt")), false);
        const view = ledger.read(session.threadId);
        assert.deepEqual(turnFiles(ledger, view, t.workspace, 1), {
          "notes.txt": ["old notes\n", notes],
          "hello.txt": [null, hello],
        });
        assert.deepEqual(turnFiles(ledger, view, t.workspace, 2), { "hello.txt": [hello, null] });
        const t1 = findTurn(view, 1)!;
        assert.ok(
          t1.files.every((f) => f.via.includes(c.via as never)),
          JSON.stringify(t1.files),
        );
        await restoreBothWays(ledger, session.threadId, t, hello);
      } finally {
        await session.close();
        ledger.dispose();
        await t.cleanup();
      }
    },
  );
}

test(
  "codex exec: an exec run's changes are turn 1 of its thread, and restored",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-exec");
    seed(t, false);
    const ledger = new EditLedger({ home: t.dataHome });
    const registry = openExecRegistry(t.dataHome, {
      sweepIntervalMs: 0,
      wrapRecorder: (threads) => new LedgerExecRecorder(ledger, threads),
    });
    try {
      await registry.prepare(t.workspace);
      const run = registry.start({
        command: t.agent.command,
        args: [...t.agent.args, WRITE],
        cwd: t.workspace,
        env: t.agent.env,
        closeStdin: true,
        timeoutMs: AGENT_TIMEOUT_MS - 10_000,
      });
      const info = await run.exited;
      assert.equal(info.exitCode, 0, run.read(0).text.slice(-2000));
      await ledger.flush();
      const hello = read(t, "hello.txt");
      assert.deepEqual(turnFiles(ledger, ledger.read(info.threadId!), t.workspace, 1), {
        "notes.txt": ["old notes\n", read(t, "notes.txt")],
        "hello.txt": [null, hello],
      });
      await applyRestore(ledger, await planRestore(ledger, info.threadId!, { turn: 1 }), { cwd: t.workspace });
      assert.equal(read(t, "notes.txt"), "old notes\n");
      assert.equal(existsSync(join(t.workspace, "hello.txt")), false);
    } finally {
      await registry.shutdown(true);
      registry.dispose();
      ledger.dispose();
      await t.cleanup();
    }
  },
);
