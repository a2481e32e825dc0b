// `acp-threads run` in the foreground runs its session in a thread host inside its own process (run-in-process.ts,
// #35 item 7 step 4): no host is started or listened for (no socket, lock or key under the data home), and the thread
// file is the one `run` always wrote: not tagged as a host's thread (no host holds it after the run).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { hostPlace } from "../../../../src/core/host/door";
import { HOST_TAG } from "../../../../src/core/host/thread-tag";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("a foreground run's in-process host leaves no socket, lock or key, and the thread is not tagged as a host's", () =>
  withTmpDir("acp-run-inproc-", async (home) => {
    const res = await runCli(["run", "--agent", FAKE_AGENT, "--format", "json", "hello", "again"], { home });
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout.trim().split("\n").at(-1)!) as { threadId: string; turns: number };
    assert.equal(summary.turns, 2);
    const place = hostPlace(home);
    for (const f of [place.socket, place.hostLock, place.key, place.startLock])
      assert.equal(existsSync(f), false, `${f} was made`);
    const { metadata, records } = new ThreadStore(home).read(summary.threadId);
    assert.equal(metadata.tags.includes(HOST_TAG), false);
    const tagged = records.filter((r) => r.kind === "meta_patch" && r.patch.tags !== undefined);
    assert.deepEqual(tagged, [], "no tags written: the run's own records only");
  }));
