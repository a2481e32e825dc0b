// Bug bundles through the engine (#13, #35 item 7): `bundle.name` (the save dialog's default) and `bundle.save` (the
// window's "Save bug bundle" and `acp-threads bundle`) build the bundle from the data home with fs/promises, no
// synchronous file call (the window's engine runs on its extension host's thread), and write it atomically, 0600,
// the workspace path replaced; the rotated traffic comes first and is noted. Bad requests write nothing. `bundle.replay`
// (`acp-threads replay`) plays a bundle back with the report the direct call gives; a wrong file is refused.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readBugBundle } from "../../../../src/core/bundle/bundle";
import { replayBundle, type ReplayReport } from "../../../../src/core/bundle/replay";
import { localEngine } from "../../../../src/core/engine/local";
import type { EngineRequest } from "../../../../src/core/engine/requests";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { countFsCalls } from "../fs-calls";
import { withTmp } from "../store/helpers";
import { outcome, threadWith } from "./helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";

const line = (t: number, d: "send" | "recv", m: Record<string, unknown>) => JSON.stringify({ t, d, m }) + "\n";

test("bundle.save builds a thread's bug bundle off the caller's thread and writes it 0600 under bundle.name's name", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ store });
    const id = threadWith(store, dir, 2);
    mkdirSync(store.layout.trafficDir, { recursive: true });
    const traffic = join(store.layout.trafficDir, `${id}.ndjson`);
    writeFileSync(traffic.replace(/\.ndjson$/, ".1.ndjson"), line(1, "send", { id: 1, method: "initialize" }));
    writeFileSync(
      traffic,
      line(2, "send", { id: 2, method: "session/new", params: { cwd: dir } }) + line(3, "recv", { id: 2, result: {} }),
    );
    const { name } = await engine.call({ op: "bundle.name", threadId: id });
    assert.match(name, new RegExp(`^acp-threads-bug-[\\w.-]+-${id.slice(0, 18)}-\\d{8}T\\d{6}Z\\.json$`));
    const out = join(dir, "out");
    const { value: saved, sync } = await countFsCalls(
      () => engine.call({ op: "bundle.save", threadId: id, dir: out }),
      [],
    );
    assert.deepEqual(sync, [], "no synchronous file call");
    assert.deepStrictEqual(JSON.parse(JSON.stringify(saved)), saved, "plain JSON data");
    assert.equal(saved.messages, 3, "the rotated part and the current file");
    assert.match(saved.notes.join("\n"), /rotated out/);
    assert.equal(saved.path.startsWith(join(out, "acp-threads-bug-")), true);
    assert.equal(statSync(saved.path).mode & 0o777, 0o600);
    const text = readFileSync(saved.path, "utf8");
    assert.ok(!text.includes(dir) && text.includes("${WORKSPACE}"), "the workspace path replaced");
    const bundle = JSON.parse(text) as { traffic: { m?: { method?: string } }[]; thread: { threadId: string } };
    assert.deepEqual(
      bundle.traffic.map((e) => e.m?.method),
      ["initialize", "session/new", undefined],
      "oldest first",
    );
    assert.equal(bundle.thread.threadId, id);
    // a prefix of the id (the CLI's THREAD) and a file named by the caller
    const named = join(dir, "named.json");
    const again = await engine.call({ op: "bundle.save", threadId: id.slice(0, 8), outFile: named });
    assert.equal(again.path, named);
    assert.equal(existsSync(named), true);
  }));

test("bundle requests that name no thread, or neither or both of outFile and dir, are refused; nothing is written", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ store });
    const id = threadWith(store, dir, 1);
    const out = join(dir, "out");
    mkdirSync(out);
    const refused = async (req: Parameters<typeof engine.call>[0]) =>
      (await outcome(engine, req)) as { error?: unknown[] };
    assert.deepEqual((await refused({ op: "bundle.save", threadId: id })).error?.slice(0, 2), [true, "usage"]);
    assert.deepEqual(
      (await refused({ op: "bundle.save", threadId: id, dir: out, outFile: join(out, "x.json") })).error?.slice(0, 2),
      [true, "usage"],
    );
    assert.deepEqual(
      (await refused({ op: "bundle.save", threadId: "../../etc", dir: out })).error?.slice(0, 2),
      [true, "usage"],
      "a path is not a thread id",
    );
    assert.deepEqual(
      (await refused({ op: "bundle.save", threadId: "0196a000-0000-7000-8000-0000000000ff", dir: out })).error?.slice(
        0,
        2,
      ),
      [true, "not_found"],
    );
    assert.deepEqual(
      (await refused({ op: "bundle.save", threadId: id, outFile: "relative.json" })).error?.slice(0, 2),
      [true, "usage"],
    );
    assert.deepEqual(readdirSync(out), [], "nothing written");
  }));

test("bundle.replay plays a recorded bundle as replayBundle does, reading it with fs/promises; a wrong file is refused", () =>
  withTmp(async (dir) => {
    const engine = localEngine({ store: new ThreadStore(join(dir, "home")) });
    const file = join(repoRoot(), "test", "fixtures", "bundles", "gemini.json");
    const replayed = await countFsCalls(() => engine.call({ op: "bundle.replay", file }), ["readFile"]);
    assert.deepEqual(JSON.parse(JSON.stringify(replayed.value)), replayed.value, "plain JSON data");
    assert.ok(replayed.paths.includes(file), "the bundle read with fs/promises");
    assert.ok(!replayed.sync.includes("readFileSync"), "not read with readFileSync");
    const direct = await replayBundle(readBugBundle(file));
    const timeless = ({ durationMs: _, ...r }: ReplayReport) => r;
    assert.deepEqual(timeless(replayed.value), timeless(direct), "the same report as the direct call");
    assert.equal(replayed.value.ok, true);
    const write = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
    const cases: [unknown, unknown][] = [
      [{ op: "bundle.replay", file: "gemini.json" }, ["usage", /'file' must be an absolute path/]],
      [{ op: "bundle.replay", file, stepTimeoutMs: -1 }, ["usage", /'stepTimeoutMs' must be a number, 0 or more/]],
      [{ op: "bundle.replay", file: join(dir, "none.json") }, ["usage", /none\.json is not a bug bundle: ENOENT/]],
      [
        { op: "bundle.replay", file: write("x.json", "not json") },
        ["usage", /x\.json is not a bug bundle: Unexpected/],
      ],
      [{ op: "bundle.replay", file: write("f.json", '{"format":"x"}') }, ["usage", /is not an ACP Threads bug bundle/]],
      [
        { op: "bundle.replay", file: write("v.json", '{"format":"acp-threads-bug-bundle","version":9}') },
        ["unsupported_version", /v\.json is bundle format 9; this ACP Threads reads up to 1: upgrade/],
      ],
      [
        { op: "bundle.replay", file: write("c.json", '{"format":"acp-threads-bug-bundle","version":1}') },
        ["corrupt", /c\.json is missing its traffic or thread records/],
      ],
    ];
    for (const [req, [code, why]] of cases as [EngineRequest, [string, RegExp]][]) {
      const got = (await outcome(engine, req)) as { error?: [boolean, string, string] };
      assert.ok(got.error, `${JSON.stringify(req)} refused`);
      assert.deepEqual(got.error.slice(0, 2), [true, code], got.error[2]);
      assert.match(got.error[2], why);
    }
  }));
