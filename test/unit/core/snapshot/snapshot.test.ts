import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { validateSnapshot, type SessionSnapshot } from "../../../../src/core/snapshot/format";
import { checkRootDir, listSnapshots, readSnapshot, restoreSnapshot } from "../../../../src/core/snapshot/load";
import { SNAPSHOT_DIR } from "../../../../src/core/model/snapshot";
import { saveSnapshot, snapshotFileName, snapshotFromThread } from "../../../../src/core/snapshot/save";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { startInput, withTmp } from "../store/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";

const FIXTURES = join(repoRoot(), "test", "fixtures", "snapshots");
const SECRET = "sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2";

function threadWith(store: ThreadStore, dir: string, pairs: number, extra = {}) {
  const h = store.create(startInput(dir, { repoRoot: dir, ...extra }));
  for (let i = 0; i < pairs; i++) {
    h.append({ kind: "user_message", messageId: `u${i}`, text: `question ${i}` });
    h.append({ kind: "agent_message", messageId: `a${i}`, text: `answer ${i}` });
  }
  h.close();
  return h.threadId;
}

function snap(
  dir: string,
  state: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    version: "1.0",
    saved_at: "2026-01-01T00:00:00.000Z",
    file_prefix: "p",
    state: {
      agent_type: "acp",
      root_dir: dir,
      agent: "codex",
      mode: "default",
      model: null,
      permission_policy: "ask",
      start_commit: null,
      messages: [],
      non_interactive: false,
      ...state,
    },
    ...top,
  };
}

test("a thread saves to a 0600 snapshot under .acp-threads and restores as a new thread with the same messages", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const id = threadWith(store, dir, 3, { title: "Demo" });
    const s = snapshotFromThread(store.read(id), { now: new Date("2026-02-03T04:05:06.789Z") });
    const path = saveSnapshot(s);
    assert.equal(
      path,
      join(dir, SNAPSHOT_DIR, "saved_session_" + s.file_prefix + "_fake_default_20260203T040506Z.json"),
    );
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(s.state.start_commit, null);
    const loaded = readSnapshot(path);
    assert.equal(loaded.state.messages.length, 6);
    assert.deepEqual(loaded.state.messages[0], {
      role: "user",
      content: "question 0",
      timestamp: loaded.state.messages[0]!.timestamp,
    });
    const restored = restoreSnapshot(store, loaded, path);
    assert.notEqual(restored, id);
    const read = store.read(restored);
    assert.deepEqual(
      conversation(read.records).map((e) => `${e.role}:${e.text}`),
      conversation(store.read(id).records).map((e) => `${e.role}:${e.text}`),
    );
    assert.equal(read.metadata.title, "Demo");
    assert.deepEqual([read.metadata.origin?.kind, read.metadata.origin?.source], ["snapshot", path]);
    assert.equal(read.metadata.counters.userMessages, 3);
  }));

test("snapshots never contain API keys or env values", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { title: `try ${SECRET}` }));
    h.append({ kind: "user_message", messageId: "u", text: `my key is ${SECRET} and OPENAI_API_KEY=abcdef123456` });
    h.append({ kind: "agent_message", messageId: "a", text: "Authorization: Bearer abcdefghijklmnop1234" });
    h.close();
    const text = readFileSync(saveSnapshot(snapshotFromThread(store.read(h.threadId))), "utf8");
    assert.ok(!text.includes(SECRET));
    assert.ok(!text.includes("abcdef123456"));
    assert.ok(!text.includes("abcdefghijklmnop1234"));
    assert.ok(!/"env"/.test(text));
    assert.match(text, /\[REDACTED\]/);
  }));

test("an empty session saves and restores", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const id = threadWith(store, dir, 0);
    const path = saveSnapshot(snapshotFromThread(store.read(id)));
    const restored = restoreSnapshot(store, readSnapshot(path), path);
    assert.deepEqual(
      store.read(restored).records.map((r) => r.kind),
      ["thread_start", "meta_patch"],
    );
  }));

test("listing shows every snapshot newest first with its time, size and message count", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const id = threadWith(store, dir, 1);
    const older = saveSnapshot(snapshotFromThread(store.read(id), { now: new Date("2026-01-01T00:00:00Z") }));
    const newer = saveSnapshot(snapshotFromThread(store.read(id), { now: new Date("2026-01-02T00:00:00Z") }));
    writeFileSync(join(dir, SNAPSHOT_DIR, "broken.json"), "{");
    const list = listSnapshots(join(dir, SNAPSHOT_DIR));
    const good = list.filter((l) => !l.error);
    assert.deepEqual(
      good.map((l) => l.path),
      [newer, older],
    );
    assert.equal(good[0]!.messageCount, 2);
    assert.ok(good[0]!.size > 100);
    assert.match(list.find((l) => l.error)!.error!, /not valid JSON/);
    assert.deepEqual(listSnapshots(join(dir, "missing")), []);
  }));

test("each kind of bad snapshot gets its own clear error", () =>
  withTmp((dir) => {
    const write = (name: string, body: string) => {
      const p = join(dir, name);
      writeFileSync(p, body);
      return p;
    };
    assert.throws(() => readSnapshot(join(dir, "nope.json")), /snapshot file not found: .*nope\.json/);
    assert.throws(
      () => readSnapshot(write("corrupt.json", '{"version": "1.0", "sta')),
      /corrupt\.json: not valid JSON/,
    );
    assert.throws(
      () => readSnapshot(write("v2.json", JSON.stringify(snap(dir, {}, { version: "2.0" })))),
      /newer ACP Threads .*Upgrade ACP Threads/,
    );
    const noMessages = snap(dir);
    delete (noMessages.state as Record<string, unknown>).messages;
    assert.throws(
      () => readSnapshot(write("nomsg.json", JSON.stringify(noMessages))),
      /missing field 'state\.messages'/,
    );
    assert.throws(
      () => readSnapshot(write("noversion.json", JSON.stringify({ state: {} }))),
      /missing field 'version'/,
    );
    assert.throws(
      () => readSnapshot(write("badmsg.json", JSON.stringify(snap(dir, { messages: [{ content: "x" }] })))),
      /messages\[0\] has no 'role'/,
    );
    assert.throws(
      () => readSnapshot(write("badtype.json", JSON.stringify(snap(dir, { non_interactive: "yes" })))),
      /'state\.non_interactive' must be true or false/,
    );
    const store = new ThreadStore(join(dir, "home"));
    const restore = (state: Record<string, unknown>, opts = {}) =>
      restoreSnapshot(store, validateSnapshot(snap(dir, state), "x.json"), "x.json", opts);
    assert.throws(() => restore({ root_dir: join(dir, "gone") }), /no longer exists; restore with --root/);
    assert.throws(() => restore({ root_dir: `${dir}/../${dir.split("/").pop()}` }), /contains '\.\.' segments/);
    assert.throws(() => restore({ root_dir: "relative/dir" }), /not an absolute path/);
    assert.throws(() => restore({}, { allowedRoots: [join(dir, "elsewhere")] }), /outside the allowed folders/);
    assert.deepEqual(store.ids(), [], "nothing is created by a refused restore");
  }));

test("a start commit missing from git gives a warning and the restore continues", () =>
  withTmp((dir) => {
    execFileSync("git", ["init", "-q", dir]);
    const store = new ThreadStore(join(dir, "home"));
    const warnings: string[] = [];
    const s = validateSnapshot(
      snap(dir, {
        start_commit: "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef",
        messages: [{ role: "user", content: "hi" }],
      }),
      "x.json",
    );
    const id = restoreSnapshot(store, s, "x.json", { onWarning: (w) => warnings.push(w) });
    assert.match(warnings.join(), /start commit deadbeef.* is not in the repository/);
    assert.equal(store.read(id).metadata.gitHead, "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef");
  }));

test("the committed 1.0 and 1.3 fixtures read and restore (1.x is backward compatible)", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const listing = listSnapshots(FIXTURES);
    assert.deepEqual(
      listing.map((l) => [l.agent, l.messageCount, l.error]),
      [
        ["claude", 3, undefined],
        ["codex", 4, undefined],
      ],
    );
    for (const l of listing) {
      const id = restoreSnapshot(store, readSnapshot(l.path), l.path, { rootDir: dir, onWarning: () => undefined });
      const conv = conversation(store.read(id).records);
      assert.ok(conv.length >= 3);
    }
    const v13 = conversation(store.read(store.ids()[0]!).records);
    assert.equal(v13.find((e) => e.role === "user")!.text, "Plan the refactor", "content parts are joined");
  }));

test("progress is reported for sessions above 500 messages, on save and restore", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const small: number[] = [];
    snapshotFromThread(store.read(threadWith(store, dir, 250)), { onProgress: (d) => small.push(d) });
    assert.deepEqual(small, [], "500 messages: no progress");
    const calls: [number, number][] = [];
    const s = snapshotFromThread(store.read(threadWith(store, dir, 300)), { onProgress: (d, t) => calls.push([d, t]) });
    assert.deepEqual(calls.at(-1), [600, 600]);
    assert.ok(calls.length >= 2);
    const restoreCalls: number[] = [];
    restoreSnapshot(store, s, "mem", { onProgress: (d) => restoreCalls.push(d) });
    assert.equal(restoreCalls.at(-1), 600);
  }));

test("file names are built from safe parts only", () => {
  const s = validateSnapshot(
    snap("/w", { agent: "../../evil", model: "gpt 5/x" }, { file_prefix: "my repo" }),
    "x",
  ) as SessionSnapshot;
  assert.equal(snapshotFileName(s), "saved_session_my-repo_.-.-evil_gpt-5-x_20260101T000000Z.json");
  assert.ok(!snapshotFileName(s).includes("/"));
});

test("checkRootDir accepts a folder inside an allowed root", () =>
  withTmp((dir) => {
    mkdirSync(join(dir, "sub"));
    assert.equal(checkRootDir(join(dir, "sub"), [dir]), join(dir, "sub"));
  }));

test("our older files (agent_type acp / exec, none of the specification's extra fields) still read", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const old = snap(dir, { agent_type: "exec", messages: [{ role: "user", content: "hi" }], non_interactive: true });
    const id = restoreSnapshot(store, validateSnapshot(old, "old.json"), "old.json");
    assert.equal(store.read(id).metadata.mode, "exec");
    assert.equal(snapshotFromThread(store.read(id)).state.non_interactive, true);
  }));

test("the default .acp-threads folder ignores itself in git; a .gitignore the user wrote there is kept", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const id = threadWith(store, dir, 1, { title: "Ignored" });
    execFileSync("git", ["init", "-q", dir]);
    const path = saveSnapshot(snapshotFromThread(store.read(id)));
    const ignore = join(dir, SNAPSHOT_DIR, ".gitignore");
    assert.equal(readFileSync(ignore, "utf8").split("\n").at(-2), "*");
    const status = execFileSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=all"], {
      encoding: "utf8",
    });
    assert.ok(!status.includes(SNAPSHOT_DIR), `git status shows the snapshot folder: ${status}`);
    assert.ok(existsSync(path));
    writeFileSync(ignore, "mine\n");
    saveSnapshot(snapshotFromThread(store.read(id)));
    assert.equal(readFileSync(ignore, "utf8"), "mine\n");
  }));
