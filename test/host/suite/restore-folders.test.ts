// The window's Restore checks the thread's folders (#35, a trust fix): its "Restore workspace" is planned, checked
// and applied by the engine (`ledger.restore`), as the CLI's is. Hostile: a thread's ledger records, as a foreign
// tool would write it (the line and the blob it names, so the plan is otherwise valid), a change to a file outside
// the window's folder; the window's Restore refuses, names the file and writes nothing (before: it wrote it back).
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { api, newPastThread, workspaceRoot } from "./helpers";

const gitBlob = (text: string) => {
  const buf = Buffer.from(text);
  return createHash("sha1").update(`blob ${buf.length}\0`).update(buf).digest("hex");
};

/** What a foreign tool writes: the blob (`<home>/ledger/blobs/ab/cdef…`) and the ledger's lines of turn 1. */
function foreignTurn(home: string, threadId: string, path: string, before: string, after: string): void {
  const blobs = join(home, "ledger", "blobs");
  for (const text of [before, after]) {
    const id = gitBlob(text);
    mkdirSync(join(blobs, id.slice(0, 2)), { recursive: true });
    writeFileSync(join(blobs, id.slice(0, 2), id.slice(2)), text);
  }
  const state = (text: string) => ({ id: gitBlob(text), size: Buffer.byteLength(text), stored: true });
  const ts = new Date().toISOString();
  const lines = [
    { v: 1, ts, kind: "change", op: "turn-1", path, before: state(before), after: state(after), via: "disk" },
    {
      v: 1,
      ts,
      kind: "op",
      op: "turn-1",
      type: "turn",
      turn: 1,
      cwd: workspaceRoot(),
      startedAt: ts,
      status: "end_turn",
      files: 1,
    },
  ];
  const ledger = join(home, "ledger", `${threadId}.jsonl`);
  mkdirSync(dirname(ledger), { recursive: true });
  appendFileSync(ledger, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

describe("the window's Restore checks the thread's folders (#35)", () => {
  let outside: string;
  before(() => {
    outside = mkdtempSync(join(tmpdir(), "acp-restore-outside-"));
  });
  after(() => rmSync(outside, { recursive: true, force: true }));

  it("a ledger line pointing outside the window's folder: the Restore refuses, names the file, writes nothing", async () => {
    const { hub } = await api();
    const h = newPastThread(hub.home, "restore outside");
    h.close();
    const victim = join(outside, "victim.txt");
    writeFileSync(victim, "the user's file\n");
    foreignTurn(hub.home, h.threadId, victim, "what the ledger says it was\n", "the user's file\n");
    assert.equal(hub.ledger.ledger.read(h.threadId).ops.length, 1, "the window reads the foreign turn");

    await assert.rejects(
      hub.ledger.restoreTurn(h.threadId, 1, { yes: true, force: true }),
      (err: Error & { code?: string }) =>
        err.code === "path_outside_workspace" && err.message.includes(victim) ? true : assert.fail(err.message),
    );
    assert.equal(readFileSync(victim, "utf8"), "the user's file\n", "nothing written outside");
    // the command the panel calls: refused the same way (shown as an error), nothing written, no restore recorded
    const op = await vscode.commands.executeCommand("acpThreads.restoreTurn", h.threadId, 1, {
      yes: true,
      force: true,
    });
    assert.equal(op, undefined);
    assert.equal(readFileSync(victim, "utf8"), "the user's file\n");
    assert.deepEqual(
      hub.ledger.ledger.read(h.threadId).ops.map((o) => o.type),
      ["turn"],
      "no restore recorded",
    );
  });
});
