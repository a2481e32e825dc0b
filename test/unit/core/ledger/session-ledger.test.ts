// A thread session with the edit ledger: a fake agent that writes through fs/write_text_file, writes to disk
// itself (with an edit tool call carrying a diff) and deletes a file; then the ledger's view, a restore with
// its refusal to overwrite later edits, and undoing the restore.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { findTurn } from "../../../../src/core/ledger/ledger-view";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { ThreadSession } from "../../../../src/core/session";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startFake, type FakeAgentScript } from "../../../fixtures/fake-agents/in-process";
import { withTmp } from "../store/helpers";

const agentRef = { id: "fake", name: "Fake", command: "/bin/false" };

/** A thread session on the fake agent `script`, recording into `ledger`. */
function startSession(home: string, ws: string, ledger: EditLedger, script: FakeAgentScript): Promise<ThreadSession> {
  return ThreadSession.start({
    store: new ThreadStore(home),
    agent: agentRef,
    cwd: ws,
    live: { flushMs: 0 },
    ledger,
    createRuntime: () => startFake(script, { cwd: ws, permissionPolicy: "approve-all" }),
  });
}

/** Turn 1: fs write of a.txt, own disk write of b.txt (tool call with a diff), deletion of c.txt. Turn 2: b.txt again. */
function script(ws: string): FakeAgentScript {
  let turn = 0;
  return {
    async prompt(t) {
      turn++;
      const b = join(ws, "b.txt");
      if (turn === 1) {
        await t.client.request(methods.client.fs.writeTextFile, {
          sessionId: t.sessionId,
          path: join(ws, "a.txt"),
          content: "a from the agent\n",
        });
        await t.update({
          sessionUpdate: "tool_call",
          toolCallId: "edit-b",
          title: "Edit b.txt",
          kind: "edit",
          status: "in_progress",
          content: [{ type: "diff", path: b, oldText: "b0\n", newText: "b1\n" }],
          locations: [{ path: b }],
        });
        await writeFile(b, "b1\n");
        rmSync(join(ws, "c.txt"));
        await t.update({ sessionUpdate: "tool_call_update", toolCallId: "edit-b", status: "completed" });
      } else await writeFile(b, "b2\n");
      await t.say("done");
      return "end_turn";
    },
  };
}

for (const git of [true, false]) {
  test(`turns are recorded with before/after and restored (${git ? "git repository" : "plain folder"})`, () =>
    withTmp(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      writeFileSync(join(ws, "a.txt"), "a0\n");
      writeFileSync(join(ws, "b.txt"), "b0\n");
      writeFileSync(join(ws, "c.txt"), "c0\n");
      if (git) {
        execFileSync("git", ["init", "-q"], { cwd: ws });
        execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "-A"], { cwd: ws });
        execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "i"], { cwd: ws });
      }
      const home = join(dir, "home");
      const ledger = new EditLedger({ home });
      const recorded: string[] = [];
      ledger.onDidRecord((r) => recorded.push(`${r.threadId}:${r.op.op}:${r.op.files.length}`));
      const session = await startSession(home, ws, ledger, script(ws));
      try {
        assert.equal((await session.prompt("one")).stopReason, "end_turn");
        assert.equal((await session.prompt("two")).stopReason, "end_turn");
        const view = ledger.read(session.threadId);
        const t1 = findTurn(view, 1)!;
        const byName = Object.fromEntries(t1.files.map((f) => [f.path.slice(ws.length + 1), f]));
        assert.deepEqual(Object.keys(byName).sort(), ["a.txt", "b.txt", "c.txt"]);
        const text = (s: { id: string | null } | null) => (s?.id ? ledger.blobs.getText(s.id) : s);
        assert.equal(text(byName["a.txt"].before), "a0\n");
        assert.equal(text(byName["a.txt"].after), "a from the agent\n");
        assert.deepEqual(byName["a.txt"].via, ["fs_write"]);
        assert.equal(text(byName["b.txt"].before), "b0\n");
        assert.equal(text(byName["b.txt"].after), "b1\n");
        assert.deepEqual(byName["b.txt"].toolCallIds, ["edit-b"]);
        assert.equal(text(byName["c.txt"].before), "c0\n");
        assert.equal(byName["c.txt"].after, null);
        assert.equal(t1.summary?.status, "end_turn");
        assert.equal(t1.summary?.agent?.name, "Fake");
        const t2 = findTurn(view, 2)!;
        assert.deepEqual(
          t2.files.map((f) => [f.path.slice(ws.length + 1), text(f.before), text(f.after)]),
          [["b.txt", "b1\n", "b2\n"]],
        );
        assert.deepEqual(recorded, [`${session.threadId}:turn-1:3`, `${session.threadId}:turn-2:1`]);

        // restore to before turn 1: refused while a.txt carries an edit made after the thread's change...
        writeFileSync(join(ws, "a.txt"), "a edited by hand\n");
        const plan = await planRestore(ledger, session.threadId, { turn: 1 });
        assert.deepEqual(
          plan.items.map((i) => [i.path.slice(ws.length + 1), i.action, i.conflict]),
          [
            ["a.txt", "revert", true],
            ["b.txt", "revert", false],
            ["c.txt", "recreate", false],
          ],
        );
        await assert.rejects(applyRestore(ledger, plan, { cwd: ws }), /a\.txt.*Confirm to overwrite/);
        assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a edited by hand\n");
        // ...and done when confirmed
        const restore = await applyRestore(ledger, plan, { cwd: ws, force: true });
        assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a0\n");
        assert.equal(readFileSync(join(ws, "b.txt"), "utf8"), "b0\n");
        assert.equal(readFileSync(join(ws, "c.txt"), "utf8"), "c0\n");
        assert.equal(restore.summary?.forced, true);
        assert.equal(restore.files.length, 3);
        // the restore is undoable: back to before it, including the hand edit it overwrote
        const undo = await planRestore(ledger, session.threadId, { op: restore.op });
        assert.ok(undo.items.every((i) => !i.conflict));
        await applyRestore(ledger, undo, { cwd: ws });
        assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), "a edited by hand\n");
        assert.equal(readFileSync(join(ws, "b.txt"), "utf8"), "b2\n");
        assert.equal(existsSync(join(ws, "c.txt")), false);
      } finally {
        await session.close();
        ledger.dispose();
      }
    }));
}

test("ledger appends from two processes wait for each other's lock instead of failing", () =>
  withTmp(async (dir) => {
    const path = join(dir, "ledger", "0196a000-0000-7000-8000-00000000000c.jsonl");
    const { acquireLock } = await import("../../../../src/core/store/file-lock");
    const { appendLedger, readLedger } = await import("../../../../src/core/ledger/ledger-file");
    mkdirSync(join(dir, "ledger"), { recursive: true });
    const release = acquireLock(path, { label: "another writer" });
    const op = { kind: "review" as const, op: "turn-1", path: "/x", hunk: null, action: "keep" as const };
    const pending = appendLedger(path, [op]);
    setTimeout(release, 100);
    await pending;
    assert.equal(readLedger(path).records.length, 1);
  }));

test("a cancel while the ledger is still beginning the turn cancels it: the prompt is never sent", () =>
  withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const home = join(dir, "home");
    const ledger = new EditLedger({ home });
    // the turn's capture waits for this gate (a big folder's baseline still being built)
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const begin = ledger.beginTurn.bind(ledger);
    ledger.beginTurn = async (info) => (await gate, begin(info));
    const prompts: string[] = [];
    const session = await startSession(home, ws, ledger, {
      async prompt(t) {
        prompts.push(t.sessionId);
        await t.say("sent");
        return "end_turn";
      },
    });
    try {
      const working = new Promise<void>((r) => session.onStatus((s) => s === "working" && r()));
      const turn = session.prompt("sleep");
      await working;
      await session.cancel();
      open();
      assert.equal((await turn).stopReason, "cancelled");
      assert.deepEqual(prompts, []);
      // the next turn is sent as usual
      assert.equal((await session.prompt("again")).stopReason, "end_turn");
      assert.equal(prompts.length, 1);
    } finally {
      await session.close();
      ledger.dispose();
    }
  }));
