// Bug bundles through the engine (#13, #35 item 7): `bundle.name` (the save dialog's default) and `bundle.save` (the
// window's "Save bug bundle" and `acp-threads bundle`) build the bundle from the data home with fs/promises, no
// synchronous file call (the window's engine runs on its extension host's thread), and write it atomically, 0600,
// the workspace path replaced; the rotated traffic comes first and is noted. Bad requests write nothing.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { countFsCalls } from "../fs-calls";
import { withTmp } from "../store/helpers";
import { outcome, threadWith } from "./helpers";

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
