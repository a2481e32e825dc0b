// `acp-threads bundle THREAD [--out FILE]` through the engine's `bundle.save` (#35 item 7): a prefix of the thread's
// id names it, the bundle goes to the folder the command runs in under its default name (or to `--out`, relative
// to that folder), 0600; the notes go to stderr; an unknown thread is an error and writes nothing.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { main } from "../../../../src/cli/commands/bundle";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withTmp } from "../../core/store/helpers";
import { threadWith } from "../../core/engine/helpers";
import { runCommand } from "../in-process";

test("acp-threads bundle saves the thread's bug bundle where it runs, or to --out", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const id = threadWith(new ThreadStore(home), dir, 1);
    const cwd = join(dir, "here");
    mkdirSync(cwd);
    const r = await runCommand(main, [id.slice(0, 8)], { home, cwd });
    assert.equal(r.code, 0, r.err);
    const path = r.out.trim();
    assert.equal(join(cwd, basename(path)), path);
    assert.match(basename(path), new RegExp(`^acp-threads-bug-.+-${id.slice(0, 18)}-\\d{8}T\\d{6}Z\\.json$`));
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(r.err, /acp-threads bundle: note: no protocol traffic was recorded/);
    const named = await runCommand(main, [id, "--out", "bug.json"], { home, cwd });
    assert.equal(named.out.trim(), join(cwd, "bug.json"));
    assert.equal(existsSync(join(cwd, "bug.json")), true);
    const missing = await runCommand(main, ["0196a000-0000-7000-8000-0000000000ff"], { home, cwd });
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /no thread/);
    assert.equal(readdirSync(cwd).length, 2, "nothing more written");
  }));
