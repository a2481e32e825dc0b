// Hostile: with no disk tracking (a folder over the file limit), a turn's capture reads the files the agent's
// edit diffs name. A diff naming a file outside the workspace, or a workspace link to a secret, must not bring
// that file's content into the ledger's blob store.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import type { LedgerInput } from "../../../../src/core/ledger/records";
import { TurnCapture, type CaptureHost } from "../../../../src/core/ledger/turn-capture";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import { withTmp } from "../store/helpers";

test("hostile: an agent's diff naming a file outside the workspace or a link out is not read into the ledger", () =>
  withTmp(async (dir) => {
    const root = realpathSync(dir);
    const ws = join(root, "ws");
    mkdirSync(ws);
    writeFileSync(join(root, "secret"), "SECRET-TOKEN\n");
    symlinkSync(join(root, "secret"), join(ws, "leak.txt"));
    writeFileSync(join(ws, "ok.txt"), "edited\n");
    const blobs = new BlobStore(join(root, "blobs"));
    const appended: LedgerInput[] = [];
    const host: CaptureHost = {
      blobs,
      append: async (_t, inputs) => void appended.push(...inputs),
      finish: async () => {},
      track: () => {},
      finished: async () => ({}) as OpView,
      warn: () => {},
      staleWrite: () => {},
    };
    const info = { threadId: "t", turn: 1, cwd: ws, agent: { id: "a", name: "a" } };
    const capture = new TurnCapture(host, info, ws, undefined);
    const diff = (path: string) => ({ type: "diff" as const, path, oldText: "old\n", newText: "new\n" });
    capture.noteToolCall({
      toolCallId: "t1",
      title: "edit",
      kind: "edit",
      status: "completed",
      content: [diff(join(root, "secret")), diff(join(ws, "leak.txt")), diff(join(ws, "ok.txt"))],
    } as never);
    await capture.end("end_turn");
    const stored = readdirSync(blobs.dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
    assert.ok(stored.includes("edited\n"), "a workspace file is recorded");
    assert.ok(!stored.some((s) => s.includes("SECRET-TOKEN")), "nothing read through a link or outside");
    const paths = appended.flatMap((r) => (r.kind === "change" ? [r.path] : []));
    assert.deepEqual(paths, [join(ws, "ok.txt")]);
  }));
