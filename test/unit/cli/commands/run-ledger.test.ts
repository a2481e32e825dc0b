// Item 5 of #25: CLI runs record what they change in the thread's edit ledger, so `changes` / `restore` work on
// them (ACP `run` here; `exec` in the foreground is in ledger.test.ts, `exec --background` below).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";

interface ChangesJson {
  ops: { turn: number; files: { rel: string; change: string }[] }[];
}

test("run records the files its turns write; changes lists them and restore undoes a turn", () =>
  withTmpDir("acp-run-ledger-", async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    mkdirSync(ws);
    writeFileSync(join(ws, "keep.txt"), "old\n");
    const res = await runCli(
      [
        "run",
        "--agent",
        FAKE_AGENT,
        "--permission",
        "approve-all",
        "--format",
        "json",
        `write ${join(ws, "hello.txt")} hello`,
        `write ${join(ws, "keep.txt")} new`,
      ],
      { home, cwd: ws },
    );
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout.trim().split("\n").at(-1)!);
    const id = summary.threadId as string;
    const listed = await runCli(["changes", id, "--format", "json"], { home, cwd: ws });
    assert.equal(listed.code, 0, listed.stderr);
    const ops = (JSON.parse(listed.stdout) as ChangesJson).ops.map((o) => [
      o.turn,
      o.files.map((f) => [f.rel, f.change]),
    ]);
    assert.deepEqual(ops, [
      [1, [["hello.txt", "added"]]],
      [2, [["keep.txt", "modified"]]],
    ]);
    const restored = await runCli(["restore", id, "--turn", "1"], { home, cwd: ws });
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(existsSync(join(ws, "hello.txt")), false);
    assert.equal(readFileSync(join(ws, "keep.txt"), "utf8"), "old\n");
  }));

test("exec --background records its run's changes (the supervisor owns the ledger)", () =>
  withTmpDir("acp-exec-ledger-", async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const started = await runCli(["exec", "--background", "--cwd", ws, "--", "sh", "-c", "echo bg > bg.txt"], {
      home,
      cwd: ws,
    });
    assert.equal(started.code, 0, started.stderr);
    const runId = started.stdout.trim();
    let info: { status: string; threadId?: string } | undefined;
    for (let i = 0; i < 300; i++) {
      const ps = JSON.parse((await runCli(["ps", "--format", "json"], { home, cwd: ws })).stdout) as {
        id: string;
        status: string;
        threadId?: string;
      }[];
      info = ps.find((r) => r.id === runId);
      if (info && info.status !== "running" && info.threadId) {
        const listed = await runCli(["changes", info.threadId, "--format", "json"], { home, cwd: ws });
        if (listed.code === 0) {
          const [op] = (JSON.parse(listed.stdout) as ChangesJson).ops;
          assert.deepEqual(
            op!.files.map((f) => [f.rel, f.change]),
            [["bg.txt", "added"]],
          );
          return;
        }
      }
      await sleep(100);
    }
    assert.fail(`the background run's changes were never recorded (${JSON.stringify(info)})`);
  }));
