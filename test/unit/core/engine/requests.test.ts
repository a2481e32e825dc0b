// #35 item 7, the engine requests: every op answered in process by `localEngine`, its reply plain JSON data (it
// round-trips through JSON.stringify / JSON.parse unchanged: no engine object, class instance, function or
// undefined hole), so it can cross the host's socket. The table is keyed by every op: a new op without its case
// does not compile. Bad input (an unknown op, a missing or mistyped field, a relative path) is refused with a
// usage error naming the field, and nothing is written.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine, EngineOp, EngineProgress } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { turn } from "../ledger/helpers";
import { startInput, withTmp } from "../store/helpers";
import { threadWith, worktreeThread } from "./helpers";
import { fakeNpm } from "../../../fixtures/fake-agents/fake-npm";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { registryFixture } from "./registry-fixture";
import { homeLayout } from "../../../../src/core/store/paths";
import { newBestOfRecord } from "../../../../src/core/worktree/best-of-record";
import { BestOfRecords } from "../../../../src/core/worktree/best-of-records";
import { historySession } from "../../../fixtures/fake-agents/history-script";

const plain = (label: string, x: unknown) =>
  assert.deepStrictEqual(JSON.parse(JSON.stringify(x)), x, `${label}: the reply is plain JSON data`);

test("every engine request's reply is plain JSON data, in process", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine: Engine = localEngine({ home: store.home });
    const id = threadWith(store, dir, 3);
    const out = join(dir, "out");
    mkdirSync(out);
    const saved = join(out, "s.json");
    const progress: EngineProgress[] = [];
    // the agents area: npm is a stand-in (fixtures/fake-agents/fake-npm.ts), found on the engine's own env
    const agents = localEngine({ home: store.home, env: fakeNpm(dir, { versions: ["99.1.0"] }).env });
    const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
    const env = { FAKE_AGENT_LOGOUT: "1", FAKE_AGENT_DELETE: "1", FAKE_AGENT_PIDFILE: join(dir, "agent.pid") };
    const spec = { id: "fake", displayName: "Fake", command: process.execPath, args: [fake], env };
    const wt = await worktreeThread(store, dir);
    writeFileSync(join(wt.ref.path, "new.txt"), "one\ntwo\n");
    const registry = await registryFixture(store.home);
    const history = join(dir, "history.json");
    writeFileSync(history, JSON.stringify({ sessions: [historySession("s1", realpathSync(dir), 1, "2026-11-01")] }));
    const lister = { ...spec, env: { FAKE_AGENT_HISTORY: history } };
    let gone = ""; // the thread threads.delete moves to the trash and threads.restore brings back
    let [kept, keptOp] = ["", ""]; // the thread and operation review.keep records a change of
    const cases: Record<EngineOp, () => Promise<unknown>> = {
      "export.folder": () => engine.call({ op: "export.folder", home: dir }),
      "export.names": () => engine.call({ op: "export.names", threadId: id }),
      "snapshot.export": () => engine.call({ op: "snapshot.export", threadId: id, outFile: saved }),
      "snapshot.list": () => engine.call({ op: "snapshot.list", dirs: [{ dir: out }, { dir: join(dir, "none") }] }),
      "snapshot.inspect": () => engine.call({ op: "snapshot.inspect", path: saved }),
      "snapshot.restore": () =>
        engine.call({ op: "snapshot.restore", path: saved }, { onProgress: (p) => progress.push(p) }),
      "markdown.export": () => engine.call({ op: "markdown.export", threadId: id, outFile: join(out, "t.md") }),
      "fork.write": () => engine.call({ op: "fork.write", sourceId: id, at: 2 }),
      "handoff.link": () => engine.call({ op: "handoff.link", from: id, to: threadWith(store, dir, 1) }),
      "retention.measure": () => engine.call({ op: "retention.measure" }),
      "retention.gc": () => engine.call({ op: "retention.gc", dryRun: true }),
      "retention.clear": () => engine.call({ op: "retention.clear", categories: ["traffic"] }),
      "usage.report": () => engine.call({ op: "usage.report", by: "thread", since: 0 }),
      "permissions.add": () =>
        engine.call({
          op: "permissions.add",
          effect: "allow",
          kind: "execute",
          pattern: " npm test",
          agentId: "*",
          scope: dir,
        }),
      "permissions.list": () => engine.call({ op: "permissions.list" }),
      "permissions.check": () =>
        engine.call({
          op: "permissions.check",
          kind: "execute",
          target: "npm test",
          agentId: "codex",
          policy: "ask",
          cwd: dir,
        }),
      "permissions.revoke": () =>
        engine.call({ op: "permissions.revoke", ids: [(replies["permissions.add"] as { id: string }).id] }),
      "permissions.clear": () => engine.call({ op: "permissions.clear" }),
      "recall.search": () => engine.call({ op: "recall.search", query: '"question 1" | answer', cwd: dir }),
      "recall.searchText": () =>
        engine.call({ op: "recall.searchText", query: "question", global: true, limit: 1, format: "json" }),
      "recall.recent": () => engine.call({ op: "recall.recent", cwd: dir }),
      "recall.recentText": () => engine.call({ op: "recall.recentText", global: true, format: "markdown" }),
      "recall.status": () => engine.call({ op: "recall.status" }),
      "runtime.install": () => agents.call({ op: "runtime.install", spec: "99" }),
      "runtime.list": () => agents.call({ op: "runtime.list" }),
      "runtime.remove": () => agents.call({ op: "runtime.remove", version: "99.1.0" }),
      "agents.logout": () => agents.call({ op: "agents.logout", spec, cwd: dir }),
      "agents.deleteSession": () => agents.call({ op: "agents.deleteSession", spec, sessionId: "s-1", cwd: dir }),
      "agents.doctor": () =>
        agents.call({ op: "agents.doctor", cwd: dir, probe: false, custom: {}, managedNodes: true }),
      "worktree.list": () => engine.call({ op: "worktree.list" }),
      "worktree.state": () => engine.call({ op: "worktree.state", threadId: wt.threadId }),
      "worktree.branch-name": () => engine.call({ op: "worktree.branch-name", threadId: wt.threadId, name: " a/b " }),
      "worktree.commit": () =>
        engine.call({ op: "worktree.commit", threadId: wt.threadId, branch: "agent/x", message: "the change" }),
      "worktree.apply": () => engine.call({ op: "worktree.apply", threadId: wt.threadId, dryRun: true }),
      "worktree.discard": () => engine.call({ op: "worktree.discard", threadId: wt.threadId }),
      "ledger.changes": () => engine.call({ op: "ledger.changes", threadId: id, patch: true }),
      "handoff.brief": () => engine.call({ op: "handoff.brief", threadId: id }),
      "ledger.restore": () => engine.call({ op: "ledger.restore", threadId: id, fromTurn: 1 }),
      // the sandbox's reports (sandbox-requests.test.ts has the rest): no tool on the engine's PATH here
      "sandbox.availability": () =>
        localEngine({ home: store.home, env: { PATH: join(dir, "nothing") } }).call({ op: "sandbox.availability" }),
      "sandbox.hosts": () => engine.call({ op: "sandbox.hosts", hosts: ["API.example.com", "*.example.com:8443"] }),
      "threads.list": () => engine.call({ op: "threads.list", workspace: dir, limit: 50 }),
      "threads.read": () => engine.call({ op: "threads.read", threadId: id.slice(0, 13), from: 1 }),
      "threads.meta": () => engine.call({ op: "threads.meta", threadId: id }),
      "threads.rename": () => engine.call({ op: "threads.rename", threadId: id, title: "  Renamed " }),
      "threads.archive": () => engine.call({ op: "threads.archive", archived: true, ids: [id.slice(0, 13)] }),
      "registry.list": () => registry.engine.call({ op: "registry.list" }),
      "registry.install": () => registry.engine.call({ op: "registry.install", agentId: "fake" }),
      "agents.installed": () => registry.engine.call({ op: "agents.installed" }),
      "registry.update": () => (registry.toV2(), registry.engine.call({ op: "registry.update" })),
      "registry.remove": () => registry.engine.call({ op: "registry.remove", agentId: "fake" }),
      "agents.import": () =>
        agents.call({ op: "agents.import", spec: lister, cwd: realpathSync(dir), listFrom: dir, dryRun: true }),
      "recall.import": () => engine.call({ op: "recall.import", own: true, codex: { root: join(dir, "none") } }),
      "recall.compact": () => engine.call({ op: "recall.compact", added: 1 }),
      // the worktree commands' thread (requests-worktree-thread.ts): a second worktree (the first is discarded above)
      "worktree.thread": async () => {
        mkdirSync(join(dir, "wt2"));
        const other = await worktreeThread(store, join(dir, "wt2"));
        return { other, reply: await engine.call({ op: "worktree.thread", thread: other.threadId.slice(0, -4) }) };
      },
      // the Best of N records (requests-bestof.ts): one recorded, read back
      "bestof.list": async () => {
        const record = newBestOfRecord({ cwd: dir, repo: dir, base: "0".repeat(40), prompt: "p", candidates: [] });
        await new BestOfRecords(homeLayout(store.home).bestOfFile).add(record);
        return engine.call({ op: "bestof.list" });
      },
      "bestof.read": () => engine.call({ op: "bestof.read" }),
      "threads.named": () => {
        store.patchMetadata(threadWith(store, dir, 1, "Named"), { tags: ["session:fixes"] });
        return engine.call({ op: "threads.named", name: "fixes", workspace: dir });
      },
      "threads.away": () =>
        engine.call({ op: "threads.away", since: "2000-01-01T00:00:00.000Z", workspace: dir, archived: "include" }),
      "threads.scan": () => engine.call({ op: "threads.scan", roots: [dir], archived: "only" }),
      "threads.writer": async () => {
        const held = store.create(startInput(dir)); // its writer holds it until closed
        try {
          return await engine.call({ op: "threads.writer", threadId: held.threadId });
        } finally {
          held.close();
        }
      },
      "threads.resolve": () => engine.call({ op: "threads.resolve", threadId: id.slice(0, 13) }),
      "threads.workspace": () => engine.call({ op: "threads.workspace", cwd: dir }),
      "threads.delete": () => engine.call({ op: "threads.delete", threadId: (gone = threadWith(store, dir, 1)) }),
      "threads.restore": () => engine.call({ op: "threads.restore", threadId: gone.slice(0, 13) }),
      // resolving an agent (requests-agent-resolve.ts): a command line, and where a spec's program is
      "agents.resolve": () => engine.call({ op: "agents.resolve", agent: `${process.execPath} --acp`, cwd: dir }),
      "agents.which": () => engine.call({ op: "agents.which", spec: { ...spec, command: "node-none" }, cwd: dir }),
      // nobody writes it: the reply comes at once, its progress (none) and reply plain data
      "threads.follow": () => engine.call({ op: "threads.follow", threadId: id, fromOffset: 0 }),
      // no edit ledger in this home: nothing to place, nobody changed the file (review-requests.test.ts has them)
      "review.placed": () => engine.call({ op: "review.placed", threads: [id], path: join(dir, "a.txt"), text: "a\n" }),
      "review.author": () => engine.call({ op: "review.author", threads: [id], path: join(dir, "a.txt") }),
      "review.forget": () => engine.call({ op: "review.forget", threadId: id }),
      "review.pending": () => engine.call({ op: "review.pending", threadId: id }),
      "bundle.name": () => engine.call({ op: "bundle.name", threadId: id }),
      "bundle.save": () => engine.call({ op: "bundle.save", threadId: id, dir: out }),
      // Keep / Undo / Keep all of a thread whose turn 1 wrote k.txt (review-keep-requests.test.ts has the rest)
      "review.keep": async () => {
        kept = threadWith(store, dir, 0, "Kept");
        const ledger = new EditLedger({ home: store.home });
        keptOp = (
          await turn(ledger, dir, 1, () => writeFileSync(join(dir, "k.txt"), "k\n"), kept).finally(() =>
            ledger.dispose(),
          )
        ).op;
        return engine.call({ op: "review.keep", threadId: kept, target: keptOp, path: join(dir, "k.txt") });
      },
      "review.keepAll": () => engine.call({ op: "review.keepAll", threadId: kept, target: keptOp }),
      "review.turnChanges": () => engine.call({ op: "review.turnChanges", threadId: kept, cwd: dir }),
      "bundle.replay": () =>
        engine.call({ op: "bundle.replay", file: join(repoRoot(), "test", "fixtures", "bundles", "gemini.json") }),
      "review.undo": () => engine.call({ op: "review.undo", threadId: kept, target: keptOp, path: join(dir, "k.txt") }),
    };
    const replies: Partial<Record<EngineOp, unknown>> = {};
    try {
      for (const [op, run] of Object.entries(cases) as [EngineOp, () => Promise<unknown>][]) {
        replies[op] = await run();
        plain(op, replies[op]);
      }
    } finally {
      await registry.close();
    }
    assert.deepEqual(replies["export.folder"], { dir });
    assert.match((replies["export.names"] as { snapshot: string }).snapshot, /^saved_session_.*\.json$/);
    assert.deepEqual(replies["snapshot.export"], { path: saved, messages: 6 });
    assert.equal((replies["snapshot.list"] as unknown[]).length, 1);
    assert.equal((replies["snapshot.inspect"] as { rootDir: string }).rootDir, dir);
    const restored = replies["snapshot.restore"] as { threadId: string; messages: number };
    assert.equal(restored.messages, 6);
    assert.equal(store.read(restored.threadId).metadata.title, "Demo");
    assert.deepEqual(progress, [], "no progress for a small thread");
    const fork = replies["fork.write"] as { threadId: string; atEnd: boolean };
    assert.equal(fork.atEnd, false);
    assert.deepEqual(store.readMetadata(id).forks, [fork.threadId]);
    assert.deepEqual(replies["handoff.link"], {});
    assert.equal(store.readMetadata(id).handedOffTo?.length, 1);
    const sizes = replies["retention.measure"] as { category: string; files: number }[];
    assert.ok(sizes.find((c) => c.category === "threads")!.files >= 4, "the threads are measured");
    assert.deepEqual(replies["retention.gc"], { items: [], planned: 0, bytes: 0, failed: [] });
    assert.deepEqual(replies["retention.clear"], { bytes: 0, keptLive: [], failed: [] });
    assert.deepEqual((replies["usage.report"] as { rows: unknown[] }).rows, [], "no usage reported");
    const rule = replies["permissions.add"] as { id: string; key: string; scope: string };
    assert.deepEqual(
      [rule.key, rule.scope],
      ["npm test", dir],
      "the rule as the user wrote it (trimmed), in its folder",
    );
    assert.deepEqual(replies["permissions.list"], { rules: [rule], file: join(store.home, "permissions.json") });
    assert.deepEqual(replies["permissions.check"], {
      decision: "allow",
      rule: 'allow execute "npm test"',
      reason: "allowed by rule: npm test",
      outside: [],
    });
    assert.deepEqual(replies["permissions.revoke"], [rule]);
    assert.deepEqual(replies["permissions.clear"], []);
    const found = replies["recall.search"] as { status: string; sessions: unknown[] };
    assert.equal(found.status, "ok", "the thread is found by its words (FTS syntax passed as typed)");
    const asText = JSON.parse((replies["recall.searchText"] as { text: string }).text) as { sessions: unknown[] };
    assert.equal(asText.sessions.length, 1, "--limit 1");
    assert.ok((replies["recall.recent"] as { sessions: unknown[] }).sessions.length >= 1, "the threads are recent");
    assert.match((replies["recall.recentText"] as { text: string }).text, /question 0/);
    assert.ok((replies["recall.status"] as { totals: { sessions: number } }).totals.sessions >= 1);
    const runtimes = join(store.home, "runtimes");
    assert.equal((replies["runtime.install"] as { version: string }).version, "99.1.0");
    assert.deepEqual(replies["runtime.list"], { dir: runtimes, nodes: [replies["runtime.install"]] });
    assert.deepEqual(replies["runtime.remove"], { dir: runtimes, removed: true });
    assert.ok(
      (replies["agents.doctor"] as { id: string }[]).some((e) => e.id === "codex"),
      "the presets checked",
    );
    assert.deepEqual(replies["agents.logout"], { authStatus: { kind: "none", label: "Not logged in" } });
    assert.equal(readFileSync(join(dir, "agent.pid.logout"), "utf8"), "logged out");
    assert.deepEqual(replies["agents.deleteSession"], {});
    assert.equal(readFileSync(join(dir, "agent.pid.delete"), "utf8"), "s-1");
    const listed = replies["worktree.list"] as { threadId: string; state: { files: unknown[] } }[];
    assert.deepEqual(
      listed.map((e) => [e.threadId, e.state.files.length]),
      [[wt.threadId, 1]],
    );
    const state = replies["worktree.state"] as { exists: boolean; files: unknown[]; added: number };
    assert.deepEqual(
      [state.exists, state.files, state.added],
      [true, [{ path: "new.txt", change: "added", added: 2, removed: 0 }], 2],
    );
    assert.deepEqual(replies["worktree.branch-name"], { branch: "a/b" });
    const commit = replies["worktree.commit"] as { branch: string; files: number };
    assert.deepEqual([commit.branch, commit.files], ["agent/x", 1]);
    const apply = replies["worktree.apply"] as {
      plan: { items: { rel: string }[] };
      files: unknown[];
      result?: unknown;
    };
    assert.deepEqual(
      [apply.plan.items.map((i) => i.rel), apply.files, apply.result],
      [["new.txt"], [{ outcome: "apply", merge: null }], undefined],
      "a dry run: the plan, nothing applied",
    );
    assert.equal(existsSync(join(dir, "repo", "new.txt")), false);
    assert.deepEqual(replies["worktree.discard"], { wasMissing: false, warnings: [], path: wt.ref.path });
    assert.equal(existsSync(wt.ref.path), false, "the worktree is removed");
    assert.equal(store.readMetadata(wt.threadId).worktree, null, "and the thread forgets it");
    assert.deepEqual(replies["ledger.changes"], { threadId: id, cwd: dir, warnings: [], ops: [], patch: "" });
    assert.equal((replies["handoff.brief"] as { fromThreadId: string }).fromThreadId, id);
    assert.deepEqual(replies["ledger.restore"], { plan: null }, "nothing changed: nothing to restore");
    assert.equal((replies["sandbox.availability"] as { available: boolean }).available, false, "no tool on PATH");
    assert.deepEqual(replies["sandbox.hosts"], {
      rules: [
        { host: "api.example.com", suffix: false },
        { host: "example.com", suffix: true, port: 8443 },
      ],
    });
    const listedThreads = replies["threads.list"] as { id: string; title: string | null }[];
    assert.ok(
      listedThreads.some((t) => t.id === id && t.title === "Demo"),
      "the thread is listed, as it was then",
    );
    const read = replies["threads.read"] as { threadId: string; records: { kind: string }[]; next: number };
    assert.equal(read.threadId, id, "a prefix is resolved to the whole id");
    assert.equal(read.records.length, read.next - 1, "records from the cursor on");
    assert.equal((replies["threads.meta"] as { threadId: string }).threadId, id);
    assert.deepEqual(replies["threads.rename"], { threadId: id, title: "Renamed" });
    const archived = replies["threads.archive"] as { todo: { id: string }[]; done: string[]; failed: unknown[] };
    assert.deepEqual([archived.todo.map((t) => t.id), archived.done, archived.failed], [[id], [id], []]);
    assert.equal(store.readMetadata(id).archived, true, "archived in its own file");
    const listing = replies["registry.list"] as { source: string; index: { agents: { id: string }[] } };
    assert.deepEqual([listing.source, listing.index.agents.map((a) => a.id)], ["network", ["fake"]]);
    const installed = replies["registry.install"] as { agent: { id: string; version: string }; already: boolean };
    assert.deepEqual([installed.agent.id, installed.agent.version, installed.already], ["fake", "1.0.0", false]);
    assert.deepEqual(replies["agents.installed"], [installed.agent]);
    assert.deepEqual(replies["registry.update"], { updates: [{ id: "fake", version: "1.0.0", to: "2.0.0" }] });
    assert.deepEqual(replies["registry.remove"], { removed: true });
    const imported = replies["agents.import"] as { dryRun: boolean; imported: number; sessions: { action: string }[] };
    assert.deepEqual(
      [imported.dryRun, imported.imported, imported.sessions.map((x) => x.action)],
      [true, 1, ["imported"]],
    );
    const named = replies["worktree.thread"] as { other: { threadId: string; ref: unknown }; reply: unknown };
    assert.deepEqual(
      named.reply,
      { threadId: named.other.threadId, worktree: named.other.ref, heldBy: null },
      "a prefix names the thread, with its worktree",
    );
    const [record] = replies["bestof.list"] as { id: string }[];
    assert.deepEqual(replies["bestof.read"], { record }, "the newest record, not finished: no summaries");
    assert.equal((replies["threads.named"] as { title: string }).title, "Named", "the session's thread");
    const away = replies["threads.away"] as { threads: { id: string }[]; files: Record<string, string[]> };
    assert.ok(away.threads.some((t) => t.id === id) && away.threads.every((t) => Array.isArray(away.files[t.id])));
    const scanned = replies["threads.scan"] as { threadId: string }[];
    assert.deepEqual(
      scanned.map((m) => m.threadId),
      [id],
      "read from the files: only the archived thread",
    );
    const writer = replies["threads.writer"] as { pid: number };
    assert.deepEqual(Object.keys(writer).sort(), ["host", "label", "pid", "since"], "who writes it, not its token");
    assert.equal(writer.pid, process.pid);
    const resolved = replies["agents.resolve"] as { spec: { command: string; args: string[] }; found: boolean };
    assert.deepEqual([resolved.spec.command, resolved.spec.args, resolved.found], [process.execPath, ["--acp"], true]);
    assert.deepEqual(replies["agents.which"], { program: null });
    assert.equal(await engine.call({ op: "threads.writer", threadId: id }), null, "nobody writes it now");
    assert.equal((replies["threads.follow"] as { free: boolean }).free, true, "nobody writes it: free at once");
    assert.deepEqual(
      [replies["review.placed"], replies["review.author"], replies["review.pending"]],
      [[], {}, { pending: false }],
    );
    assert.deepEqual([replies["review.keep"], replies["review.keepAll"]], [{}, { kept: 0 }], "kept already");
    assert.deepEqual(replies["review.turnChanges"], [
      { turn: 1, op: keptOp, files: 1, added: 1, removed: 0, pending: 0, names: ["k.txt"] },
    ]);
    assert.ok(!existsSync(join(dir, "k.txt")), "the undo took the created file back");
    assert.equal((replies["bundle.replay"] as { ok: boolean }).ok, true, "the recorded bundle replays");
    // write: false only says the patch (the window writes it through its own writer)
    const next = threadWith(store, dir, 1);
    const said = await engine.call({ op: "handoff.link", from: id, to: next, write: false });
    plain("handoff.link write: false", said);
    assert.deepEqual(said.patch?.handedOffTo.at(-1), next);
    assert.equal(store.readMetadata(id).handedOffTo?.length, 1, "nothing written");
  }));

test("bad engine requests are refused with a usage error naming what is wrong; nothing is written", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ home: store.home });
    const id = threadWith(store, dir, 2);
    const before = readdirSync(store.threadsDir).sort();
    const bad: [unknown, RegExp][] = [
      [null, /not an engine request: 'op' must be one of/],
      [{ op: "rm" }, /'op' must be one of export\.folder/],
      [{ op: "toString" }, /'op' must be one of/],
      [{ op: "snapshot.inspect" }, /snapshot\.inspect: 'path' must be an absolute path/],
      [{ op: "snapshot.inspect", path: "relative.json" }, /'path' must be an absolute path/],
      [{ op: "snapshot.export", threadId: id, outFile: "x.json" }, /'outFile' must be an absolute path/],
      [{ op: "snapshot.list", dirs: [{ dir: dir, savedOnly: "yes" }] }, /'dirs' must be a list of/],
      [{ op: "fork.write", sourceId: id, at: "2" }, /fork\.write: 'at' must be a number/],
      [{ op: "fork.write", sourceId: id, at: 1, agent: { id: "x" } }, /'agent' must be an agent/],
      [{ op: "snapshot.restore", path: join(dir, "s.json"), allowedRoots: ["rel"] }, /'allowedRoots' must be a list/],
      [{ op: "handoff.link", from: id, to: 42 }, /handoff\.link: 'to' must be a string/],
      [{ op: "retention.clear", categories: ["threads", "../.."] }, /'categories' must be a list of data categories/],
      [{ op: "retention.clear" }, /'categories' must be a list/],
      [{ op: "usage.report", by: "week" }, /usage\.report: 'by' must be one of day, agent, model, thread/],
      [{ op: "retention.gc", trashDays: -1 }, /'trashDays' must be a number, 0 or more/],
      [{ op: "retention.gc", trafficMaxBytes: Infinity }, /'trafficMaxBytes' must be a number, 0 or more/],
      [{ op: "recall.search", query: "x", cwd: "." }, /recall\.search: 'cwd' must be an absolute path/],
      [{ op: "recall.search", query: "x" }, /recall\.search: 'cwd' \(whose repository is searched\) or 'global'/],
      [{ op: "recall.searchText", query: "x", global: true, format: "md" }, /'format' must be markdown or json/],
      [{ op: "recall.recent", global: true, limit: -3 }, /'limit' must be a number, 0 or more/],
      [{ op: "runtime.remove" }, /runtime\.remove: 'version' must be a string/],
      [{ op: "runtime.install", spec: 22 }, /runtime\.install: 'spec' must be a string/],
      [{ op: "agents.doctor", cwd: "." }, /agents\.doctor: 'cwd' must be an absolute path/],
      [{ op: "agents.doctor", cwd: dir, custom: { x: { command: ["sh"] } } }, /'custom' must be agents by id/],
      [{ op: "agents.doctor", cwd: dir, custom: { x: { command: "x", env: { K: 1 } } } }, /'custom' must be/],
      [{ op: "agents.logout", spec: { id: "x", displayName: "x", command: "x" }, cwd: dir }, /'spec' must be an agent/],
      [
        { op: "agents.deleteSession", spec: { id: "x", displayName: "x", command: "x", args: [] }, cwd: dir },
        /'sessionId'/,
      ],
      [{ op: "worktree.discard", path: dir }, /worktree\.discard: 'threadId' must be a string/],
      [{ op: "worktree.commit", threadId: id, branch: "b" }, /worktree\.commit: 'message' must be a string/],
      [{ op: "ledger.changes", threadId: id, turn: -1 }, /ledger\.changes: 'turn' must be a number, 0 or more/],
      [{ op: "ledger.restore", threadId: id, turn: 1, files: ["../x"] }, /'files' must be a list of absolute paths/],
      [{ op: "ledger.restore", threadId: id, fromTurn: "1" }, /ledger\.restore: 'fromTurn' must be a number, 0 or/],
      [{ op: "sandbox.hosts" }, /sandbox\.hosts: 'hosts' must be a list of strings/],
      [{ op: "sandbox.hosts", hosts: ["*"] }, /sandbox allowed host '\*' is not valid/],
      [{ op: "threads.read", threadId: id, from: -1 }, /threads\.read: 'from' must be a number, 0 or more/],
      [{ op: "threads.rename", threadId: id }, /threads\.rename: 'title' must be a string/],
      [{ op: "threads.list", archived: "all" }, /threads\.list: 'archived' must be one of exclude, only, include/],
      [{ op: "threads.list", workspace: "." }, /threads\.list: 'workspace' must be an absolute path/],
      [{ op: "threads.archive", archived: true }, /name the threads to archive \(IDs\) or filter them/],
      [{ op: "threads.archive", archived: "yes", ids: [id] }, /threads\.archive: 'archived' must be true or false/],
      [{ op: "recall.import", codex: { root: "rel" } }, /recall\.import: 'codex' must be a transcript root/],
      [{ op: "recall.import", claude: { root: dir, limitFiles: -1 } }, /'claude' must be a transcript root/],
      [{ op: "recall.compact" }, /recall\.compact: 'added' must be a number, 0 or more/],
      [{ op: "recall.search", query: "x", global: true, sync: "yes" }, /'sync' must be true or false/],
      [{ op: "worktree.thread", threadId: id }, /worktree\.thread: 'thread' must be a string/],
      [{ op: "worktree.thread", thread: "../x" }, /'\.\.\/x' is not a thread id/],
      [{ op: "bestof.read", id: 1 }, /bestof\.read: 'id' must be a string/],
      [{ op: "bestof.read", id: "../x" }, /'\.\.\/x' is not a Best of N id/],
      [{ op: "threads.named", name: "fixes", workspace: "." }, /threads\.named: 'workspace' must be an absolute path/],
      [{ op: "threads.named", workspace: dir }, /threads\.named: 'name' must be a string/],
      [{ op: "threads.away", workspace: dir }, /threads\.away: 'since' must be a string/],
      [{ op: "threads.away", since: "x", archived: "all" }, /threads\.away: 'archived' must be one of exclude/],
      [{ op: "threads.scan", roots: ["rel"] }, /threads\.scan: 'roots' must be a list of absolute paths/],
      [{ op: "threads.scan", roots: [], archived: "yes" }, /threads\.scan: 'archived' must be one of exclude/],
      [{ op: "threads.writer" }, /threads\.writer: 'threadId' must be a string/],
      [{ op: "threads.writer", threadId: `../${id}` }, /is not a thread id/],
      [{ op: "threads.resolve" }, /threads\.resolve: 'threadId' must be a string/],
      [{ op: "threads.follow", threadId: id, fromOffset: -1 }, /threads\.follow: 'fromOffset' must be a number, 0 or/],
      [{ op: "threads.follow", threadId: id, pollMs: "1" }, /threads\.follow: 'pollMs' must be a number, 0 or more/],
      [{ op: "threads.workspace", cwd: "." }, /threads\.workspace: 'cwd' must be an absolute path/],
      [{ op: "agents.resolve", agent: "codex", cwd: "." }, /agents\.resolve: 'cwd' must be an absolute path/],
      [{ op: "agents.resolve", cwd: dir }, /agents\.resolve: 'agent' must be a string/],
      [{ op: "agents.which", spec: { id: "x" }, cwd: dir }, /agents\.which: 'spec' must be an agent spec/],
      [{ op: "ledger.restore", threadId: id, turn: 1, expect: 1 }, /ledger\.restore: 'expect' must be a string/],
      [{ op: "review.placed", threads: [id], path: "a.txt", text: "" }, /review\.placed: 'path' must be an absolute/],
      [{ op: "review.author", threads: id, path: dir }, /review\.author: 'threads' must be a list of strings/],
      [{ op: "review.keep", threadId: id, target: "turn-1", path: "k.txt" }, /review\.keep: 'path' must be an absol/],
      [{ op: "review.undo", threadId: id, target: 1, path: dir }, /review\.undo: 'target' must be a string/],
      [{ op: "review.keepAll", target: "turn-1" }, /review\.keepAll: 'threadId' must be a string/],
      [{ op: "review.turnChanges", threadId: id }, /review\.turnChanges: 'cwd' must be an absolute path/],
      [{ op: "bundle.replay", file: "b.json" }, /bundle\.replay: 'file' must be an absolute path/],
    ];
    for (const [req, why] of bad) {
      await assert.rejects(
        engine.call(req as never),
        (err: unknown) => err instanceof AcpThreadsError && err.code === "usage" && why.test(err.message),
        JSON.stringify(req),
      );
    }
    // a thread id that is a path is refused by the store, as for every caller
    await assert.rejects(engine.call({ op: "fork.write", sourceId: "../../x", at: 1 }), /is not a thread id/);
    await assert.rejects(engine.call({ op: "markdown.export", threadId: "0".repeat(36) }), /is not a thread id/);
    assert.deepEqual(readdirSync(store.threadsDir).sort(), before, "no thread written");
    const aborted = AbortSignal.abort();
    await assert.rejects(engine.call({ op: "fork.write", sourceId: id, at: 1 }, { signal: aborted }), {
      code: "interrupted",
    });
    assert.deepEqual(readdirSync(store.threadsDir).sort(), before, "an aborted request does nothing");
  }));
