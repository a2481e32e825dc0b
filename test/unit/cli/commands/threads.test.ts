import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
// the threads command itself: src/cli/main.ts runs the CLI when it is the main module, as a test bundle is
import { main as threadsMain } from "../../../../src/cli/commands/threads";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../../core/store/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { runCommand } from "../in-process";

/** The user's home folder is `<home>/user` (exports go to its Downloads, never the real one). */
function cli(home: string, cwd: string, ...argv: string[]) {
  if (argv[0] !== "threads") throw new Error("only the threads command is tested here");
  return runCommand(threadsMain, argv.slice(1), { home, cwd, env: { HOME: join(home, "user") } });
}

function seedThread(store: ThreadStore, cwd: string, title: string, agent = "codex") {
  const h = store.create(startInput(cwd, { title, agent: { id: agent, name: agent, command: `/bin/${agent}` } }));
  h.append({ kind: "user_message", messageId: "u", text: `hello from ${title}` });
  h.append({ kind: "agent_message", messageId: "a", text: "hi!\nsecond line" });
  h.patch({ counters: { turns: 1, userMessages: 1, agentMessages: 1 } });
  h.close();
  return h.threadId;
}

test("threads list shows this workspace's threads by day, filters by agent and lists everything with --all", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const [ws, other] = [join(dir, "ws"), join(dir, "other")];
    mkdirSync(ws);
    mkdirSync(other);
    const store = new ThreadStore(home);
    seedThread(store, ws, "mine");
    seedThread(store, ws, "claude one", "claude");
    seedThread(store, other, "theirs");
    const here = await cli(home, ws, "threads", "list");
    assert.equal(here.code, 0, here.err);
    assert.match(here.out, /^\d{4}-\d{2}-\d{2}\n/);
    assert.match(here.out, /mine/);
    assert.doesNotMatch(here.out, /theirs/);
    const byAgent = await cli(home, ws, "threads", "list", "--agent", "claude", "--format", "json");
    assert.deepEqual(
      JSON.parse(byAgent.out).map((t: { title: string }) => t.title),
      ["claude one"],
    );
    const all = await cli(home, ws, "threads", "list", "--all", "--format", "json");
    assert.equal(JSON.parse(all.out).length, 3);
    const elsewhere = await cli(home, join(dir), "threads", "list", "--cwd", other);
    assert.match(elsewhere.out, /theirs/);
  }));

test("threads show prints the conversation of a thread given a prefix of its id", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const id = seedThread(new ThreadStore(home), dir, "Show me");
    const res = await cli(home, dir, "threads", "show", id.slice(0, 13));
    assert.equal(res.code, 0, res.err);
    assert.match(res.out, /^Show me\nid /);
    assert.match(res.out, /you:\n {4}hello from Show me/);
    assert.match(res.out, /agent:\n {4}hi!\n {4}second line/);
    const json = JSON.parse((await cli(home, dir, "threads", "show", id, "--format", "json")).out);
    assert.equal(json.metadata.threadId, id);
    const missing = await cli(home, dir, "threads", "show", "ffffffff");
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no thread 'ffffffff'/);
  }));

test("threads rename, delete and restore round-trip through the trash", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new ThreadStore(home);
    const id = seedThread(store, dir, "old");
    assert.equal((await cli(home, dir, "threads", "rename", id, "new", "name")).code, 0);
    assert.equal(store.readMetadata(id).title, "new name");
    const del = await cli(home, dir, "threads", "delete", id);
    assert.match(del.out, /moved .* to the trash \(undo: acp-threads threads restore/);
    assert.equal(store.exists(id), false);
    assert.equal((await cli(home, dir, "threads", "restore", id.slice(0, 8))).code, 0);
    assert.equal(store.readMetadata(id).title, "new name");
  }));

test("threads export writes a snapshot that threads import lists and restores with --latest", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new ThreadStore(home);
    const id = seedThread(store, dir, "Snap");
    const downloads = join(home, "user", "Downloads");
    mkdirSync(downloads, { recursive: true });
    const exp = await cli(home, dir, "threads", "export", id);
    assert.equal(exp.code, 0, exp.err);
    const path = /to (\S+\.json)$/m.exec(exp.out)![1]!;
    // the user's Downloads folder, as the editor's exports (#37); nothing lands in the repository
    assert.ok(path.startsWith(join(downloads, "saved_session_")), path);
    assert.ok(!existsSync(join(dir, ".acp-threads")), "no untracked .acp-threads/ in the workspace");
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const listing = await cli(home, dir, "threads", "import");
    assert.match(listing.out, /SAVED\s+SIZE\s+MESSAGES\s+AGENT\s+FILE/);
    assert.match(listing.out, /\s2\s+codex\s+saved_session_/);
    const imp = await cli(home, dir, "threads", "import", "--latest");
    assert.equal(imp.code, 0, imp.err);
    assert.match(imp.err, /restoring .*\n {2}saved .*, 2 messages, agent codex/);
    const newId = /restored as thread (\S+)/.exec(imp.out)![1]!;
    assert.equal(store.readMetadata(newId).title, "Snap");
    const jsonl = join(dir, "copy.jsonl");
    assert.equal((await cli(home, dir, "threads", "export", id, "--jsonl", "--out", jsonl)).code, 0);
    assert.ok(existsSync(jsonl));
    const dup = await cli(home, dir, "threads", "import", jsonl);
    assert.match(dup.err, /already exists; not overwriting it/);
    store.delete(id);
    const back = await cli(home, dir, "threads", "import", jsonl);
    assert.equal(back.out, `imported thread ${id}\n`);
    assert.equal(store.readMetadata(id).title, "Snap");
  }));

test("threads export without Downloads writes to the home folder; import lists it and the workspace's older .acp-threads/, not other .json files", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const user = join(home, "user");
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, "package.json"), "{}");
    const id = seedThread(new ThreadStore(home), dir, "Homed");
    const exp = await cli(home, dir, "threads", "export", id);
    assert.equal(exp.code, 0, exp.err);
    assert.ok(/to (\S+\.json)$/m.exec(exp.out)![1]!.startsWith(join(user, "saved_session_")));
    // a snapshot an earlier version saved into the workspace
    assert.equal((await cli(home, dir, "threads", "export", id, "--dir", ".acp-threads")).code, 0);
    const listing = await cli(home, dir, "threads", "import", "--format", "json");
    const files = (JSON.parse(listing.out) as { path: string; error?: string }[]).map((l) => l.path);
    assert.equal(files.length, 2, files.join(", "));
    assert.ok(files.some((f) => f.startsWith(join(dir, ".acp-threads"))));
    assert.ok(!files.some((f) => f.endsWith("package.json")), "a home folder's other .json files are not offered");
  }));

test("threads import restores a file written by the save/restore specification's implementation", () =>
  withTmp(async (dir) => {
    const spec = join(repoRoot(), "test/fixtures/snapshots/spec");
    const file = join(
      spec,
      readdirSync(spec).find((n) => n.endsWith(".json"))!,
    );
    const imp = await cli(join(dir, "home"), dir, "threads", "import", file, "--root", dir);
    assert.equal(imp.code, 0, imp.err);
    assert.match(imp.err, /1000 messages, agent code_agent \(gpt-4o\)/);
    assert.match(imp.out, /restored as thread /);
  }));

test("threads import explains a missing file, an empty folder and bad usage", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const missing = await cli(home, dir, "threads", "import", "nope.json");
    assert.equal(missing.code, 1);
    assert.match(missing.err, /snapshot file not found/);
    const latest = await cli(home, dir, "threads", "import", "--latest");
    assert.match(latest.err, /no readable snapshots in/);
    assert.match((await cli(home, dir, "threads", "import")).out, /no snapshots in/);
    assert.equal((await cli(home, dir, "threads", "frobnicate")).code, 2);
    assert.equal((await cli(home, dir, "threads", "show")).code, 2);
    assert.equal((await cli(home, dir, "threads", "list", "--format", "yaml")).code, 2);
  }));

test("threads export --format md prints the thread as Markdown, or writes it with --out; snapshots stay the default", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const id = seedThread(new ThreadStore(home), dir, "Markdown me");
    const printed = await cli(home, dir, "threads", "export", id.slice(0, 13), "--format", "md");
    assert.equal(printed.code, 0, printed.err);
    assert.match(printed.out, /^# Markdown me\n\n\| \| \|\n\|---\|---\|\n\| Agent \| codex \(`codex`\) \|/);
    assert.match(
      printed.out,
      /### You · \d{2}:\d{2} UTC\n\nhello from Markdown me\n\n### codex · \d{2}:\d{2} UTC\n\nhi!\nsecond line\n$/,
    );
    const written = await cli(home, dir, "threads", "export", id, "--format", "md", "--out", "notes/thread.md");
    assert.equal(written.code, 0, written.err);
    assert.equal(written.out, `exported ${id.slice(0, 18)} as Markdown to ${join(dir, "notes", "thread.md")}\n`);
    assert.equal(readFileSync(join(dir, "notes", "thread.md"), "utf8"), printed.out);
    const bad = await cli(home, dir, "threads", "export", id, "--format", "md", "--jsonl", "--out", "x.jsonl");
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--format md writes one Markdown file/);
    const unknown = await cli(home, dir, "threads", "export", id, "--format", "html");
    assert.equal(unknown.code, 2);
    const snap = await cli(home, dir, "threads", "export", id, "--dir", "snaps");
    assert.equal(snap.code, 0, snap.err);
    assert.match(snap.out, /^saved .* \(2 messages\) to .*snaps\/saved_session_.*\.json\n$/);
  }));
