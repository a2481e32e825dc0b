/** `threads list` filters and `--since`, `threads archive` / `unarchive` (#36), in this process on real files. */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as threadsMain } from "../../../../src/cli/commands/threads";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { CreateThreadInput } from "../../../../src/core/store/thread-store";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../../core/store/helpers";
import { runCommand } from "../in-process";

const DAY = 86_400_000;
const NEW_FILE = { id: null, size: 3, stored: false };

function seed(store: ThreadStore, cwd: string, title: string, daysAgo: number, extra: Partial<CreateThreadInput> = {}) {
  const h = store.create(startInput(cwd, { title, ...extra }), new Date(Date.now() - daysAgo * DAY));
  h.close();
  return h.threadId;
}

const titles = (out: string) => (JSON.parse(out) as { title: string }[]).map((t) => t.title).sort();

function setup(dir: string) {
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const store = new ThreadStore(home);
  const ids = {
    old: seed(store, ws, "old automation", 40, { startedFrom: "automation" }),
    recent: seed(store, ws, "recent cli", 1, { startedFrom: "cli" }),
    exec: seed(store, ws, "an exec run", 50, { mode: "exec" }),
    editor: seed(store, ws, "editor, no field", 45),
  };
  const cli = (...argv: string[]) => runCommand(threadsMain, argv, { home, cwd: ws });
  return { home, ws, store, ids, cli };
}

test("threads list filters by who started a thread (recorded, or guessed for older threads) and by status", () =>
  withTmp(async (dir) => {
    const { store, ids, cli } = setup(dir);
    store.patchMetadata(ids.recent, { status: "failed" });
    assert.deepEqual(titles((await cli("list", "--origin", "automation", "--format", "json")).out), ["old automation"]);
    assert.deepEqual(titles((await cli("list", "--origin", "exec", "--format", "json")).out), ["an exec run"]);
    assert.deepEqual(titles((await cli("list", "--origin", "editor", "--format", "json")).out), ["editor, no field"]);
    assert.deepEqual(titles((await cli("list", "--status", "failed", "--format", "json")).out), ["recent cli"]);
    const bad = await cli("list", "--origin", "robots");
    assert.equal(bad.code, 2, "an unknown origin is a usage error");
  }));

test("threads archive --older-than picks by last activity and filters; archived threads leave the list, --archived shows them, unarchive brings them back", () =>
  withTmp(async (dir) => {
    const { store, ids, cli } = setup(dir);
    const dry = await cli("archive", "--older-than", "30d", "--origin", "automation", "--dry-run", "--format", "json");
    assert.deepEqual(titles(JSON.stringify(JSON.parse(dry.out).archive)), ["old automation"]);
    assert.equal(store.readMetadata(ids.old).archived, false, "a dry run changes nothing");
    const res = await cli("archive", "--older-than", "30d");
    assert.equal(res.code, 0, res.err);
    assert.match(res.out, /archived 3 threads/);
    assert.deepEqual(titles((await cli("list", "--format", "json")).out), ["recent cli"]);
    assert.deepEqual(titles((await cli("list", "--archived", "--format", "json")).out), [
      "an exec run",
      "editor, no field",
      "old automation",
    ]);
    // the flag lives in the thread's own file: a rebuilt index still knows it
    assert.equal(store.readMetadata(ids.exec).archived, true);
    assert.equal(store.readMetadata(ids.exec).lastActivity, store.readMetadata(ids.exec).createdAt, "no activity");
    const back = await cli("unarchive", ids.exec);
    assert.equal(back.code, 0, back.err);
    assert.deepEqual(titles((await cli("list", "--format", "json")).out), ["an exec run", "recent cli"]);
    const none = await cli("archive");
    assert.equal(none.code, 2, "archive without IDs or a filter archives nothing");
  }));

test("threads list --since: what waits for input, failed or ended since then, with the files each changed", () =>
  withTmp(async (dir) => {
    const { home, ws, store, ids, cli } = setup(dir);
    const fresh = seed(store, ws, "just now", 0);
    store.patchMetadata(fresh, { status: "done" });
    const ledger = new EditLedger({ home });
    await ledger.append(ids.recent, [
      { kind: "change", op: "turn-1", path: join(ws, "src", "a.ts"), before: null, after: NEW_FILE, via: "fs_write" },
    ]);
    ledger.dispose();
    const res = await cli("list", "--since", "2d", "--format", "json");
    assert.equal(res.code, 0, res.err);
    const s = JSON.parse(res.out) as {
      counts: Record<string, number>;
      threads: { title: string; kind: string; files: string[] }[];
    };
    assert.deepEqual(s.counts, { ended: 1, failed: 0, waiting: 1, running: 0 });
    assert.deepEqual(s.threads.map((t) => [t.title, t.kind, t.files]).sort(), [
      ["just now", "ended", []],
      ["recent cli", "waiting", ["src/a.ts"]],
    ]);
    const text = await cli("list", "--since", "2d");
    assert.match(text.out, /^since .*: 1 waits for your input, 1 ended\n/);
    assert.match(text.out, /wait for your input\n.*recent cli\n {6}src\/a\.ts\n/);
    assert.equal((await cli("list", "--since", "yesterday-ish")).code, 2);
  }));
