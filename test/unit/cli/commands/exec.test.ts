import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pidAlive, tempDir, waitUntil } from "../../core/exec/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";

const CLI = join(repoRoot(), "dist/cli.js");

function cli(home: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}, cwd = home) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, ACP_THREADS_HOME: home, ...extraEnv },
    encoding: "utf8",
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runs(
  home: string,
): Array<{ id: string; status: string; exitCode: number | null; threadId?: string; pty?: boolean }> {
  return JSON.parse(cli(home, ["ps", "--format", "json"]).stdout);
}

test("exec in the foreground streams both streams and exits with the command's code", () => {
  const { dir, cleanup } = tempDir();
  try {
    const r = cli(dir, ["exec", "--", "sh", "-c", "echo to-out; echo to-err >&2; exit 4"]);
    assert.equal(r.code, 4);
    assert.equal(r.stdout, "to-out\n");
    assert.equal(r.stderr, "to-err\n");
    const run = runs(dir)[0]!;
    assert.equal(run.exitCode, 4);
    // The run is also a thread in the same home.
    const file = readFileSync(join(dir, "threads", `${run.threadId}.jsonl`), "utf8");
    const kinds = file
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind: string; mode?: string; exitCode?: number });
    assert.equal(kinds[0]!.mode, "exec");
    assert.deepEqual(
      kinds.filter((k) => k.kind === "exec_exit").map((k) => k.exitCode),
      [4],
    );
  } finally {
    cleanup();
  }
});

test("exec exits 3 when the command outlives --timeout and 2 on a usage error", () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.equal(cli(dir, ["exec", "--timeout", "0.3", "--", "sleep", "30"]).code, 3);
    assert.equal(runs(dir)[0]!.status, "timeout");
    const bad = cli(dir, ["exec", "--bogus", "--", "true"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown option '--bogus'/);
    const missing = cli(dir, ["exec", "--", "no-such-program-xyz"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /command not found: no-such-program-xyz/);
  } finally {
    cleanup();
  }
});

test("SIGINT to a foreground exec kills the process group and exits 130", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const child = spawn(process.execPath, [CLI, "exec", "--", "sh", "-c", "sleep 100 & echo kid $!; wait"], {
      cwd: dir,
      env: { ...process.env, ACP_THREADS_HOME: dir },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    await waitUntil(() => /kid \d+\n/.test(out), "the grandchild is started");
    const kid = Number(/kid (\d+)/.exec(out)![1]);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    assert.equal(await exited, 130);
    await waitUntil(() => !pidAlive(kid), "the grandchild is gone");
  } finally {
    cleanup();
  }
});

test("a background run is listed, logged and killed from other processes", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const started = cli(dir, ["exec", "--background", "--", "sh", "-c", "echo started; sleep 100 & echo kid $!; wait"]);
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.match(id, /^[0-9a-f]{10}$/);
    assert.equal(runs(dir)[0]!.status, "running");
    let logs = "";
    await waitUntil(() => /kid \d+/.test((logs = cli(dir, ["logs", id]).stdout)), "the run's output is on disk");
    assert.match(logs, /^started\n/);
    const kid = Number(/kid (\d+)/.exec(logs)![1]);
    const killed = cli(dir, ["kill", id.slice(0, 6)]);
    assert.equal(killed.code, 0, killed.stderr);
    assert.match(killed.stdout, new RegExp(`^${id} killed`));
    await waitUntil(() => !pidAlive(kid), "the grandchild is gone");
    await waitUntil(() => runs(dir)[0]!.status === "killed", "the supervisor recorded the kill");
    const again = cli(dir, ["kill", id]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /is not running/);
  } finally {
    cleanup();
  }
});

test("logs --follow prints until the run ends and --head/--tail count lines", () => {
  const { dir, cleanup } = tempDir();
  try {
    const script = "for i in 1 2 3 4 5; do echo line $i; sleep 0.1; done";
    const id = cli(dir, ["exec", "--background", "--", "sh", "-c", script]).stdout.trim();
    const followed = cli(dir, ["logs", id, "--follow"]);
    assert.equal(followed.code, 0);
    assert.equal(followed.stdout, "line 1\nline 2\nline 3\nline 4\nline 5\n");
    assert.equal(cli(dir, ["logs", id, "--head", "2"]).stdout, "line 1\nline 2\n");
    assert.equal(cli(dir, ["logs", id, "--tail", "2"]).stdout, "line 4\nline 5\n");
    const unknown = cli(dir, ["logs", "ffffffffff"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no exec run 'ffffffffff'/);
  } finally {
    cleanup();
  }
});

test("a preset id expands to the CLI's exec mode and its transcript is found", () => {
  const { dir, cleanup } = tempDir();
  try {
    // A stand-in `codex` that prints its arguments and writes a rollout the way Codex does.
    const bin = join(dir, "bin");
    const codexHome = join(dir, "codex-home");
    const work = join(dir, "work");
    mkdirSync(bin);
    mkdirSync(work);
    const fake = `#!/bin/sh
echo "args: $*"
d="$CODEX_HOME/sessions/$(date +%Y/%m/%d)"
mkdir -p "$d"
printf '{"type":"session_meta","payload":{"id":"x","cwd":"%s"}}\\n' "$PWD" > "$d/rollout-2026-01-01T00-00-00-abc.jsonl"
`;
    writeFileSync(join(bin, "codex"), fake);
    chmodSync(join(bin, "codex"), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}`, CODEX_HOME: codexHome };
    const r = cli(dir, ["exec", "--format", "json", "--cwd", work, "--", "codex", "fix the bug"], env);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(lines[0].text, "args: exec --sandbox workspace-write fix the bug\n");
    const exit = lines.at(-1);
    assert.equal(exit.type, "exit");
    assert.equal(exit.run.presetId, "codex");
    assert.match(exit.run.transcriptPath, /codex-home\/sessions\/.*rollout-.*\.jsonl$/);
  } finally {
    cleanup();
  }
});

test("exec --pty in a terminal forwards keystrokes, the window size and its changes", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const nodePty = require("node-pty") as typeof import("node-pty");
    const outer = nodePty.spawn(process.execPath, [CLI, "exec", "--pty", "--", "bash", "--norc", "--noprofile", "-i"], {
      cols: 100,
      rows: 40,
      cwd: dir,
      env: { ...process.env, ACP_THREADS_HOME: dir, PS1: "$ ", TERM: "xterm" },
    });
    let out = "";
    outer.onData((d) => (out += d));
    const exited = new Promise<number>((resolve) => outer.onExit(({ exitCode }) => resolve(exitCode)));
    await waitUntil(() => out.includes("$ "), "the inner shell prompts");
    outer.write("stty size\r");
    await waitUntil(() => out.includes("40 100"), "the inner terminal has the outer size");
    outer.resize(90, 25);
    await new Promise((r) => setTimeout(r, 100));
    outer.write("stty size\r");
    await waitUntil(() => out.includes("25 90"), "a resize of the outer terminal reaches the inner one");
    outer.write("exit 5\r");
    assert.equal(await exited, 5);
  } finally {
    cleanup();
  }
});

test("logs of a long run prints the kept head and tail and marks the dropped middle on stderr", () => {
  const { dir, cleanup } = tempDir();
  try {
    const script = "echo FIRST; head -c 5000000 /dev/zero | tr '\\0' 'y'; echo; echo LAST";
    const r = cli(dir, ["exec", "--", "sh", "-c", script]);
    assert.equal(r.code, 0);
    const id = runs(dir)[0]!.id;
    const logs = cli(dir, ["logs", id]);
    assert.ok(logs.stdout.startsWith("FIRST\nyyy"));
    assert.ok(logs.stdout.endsWith("y\nLAST\n"));
    assert.ok(logs.stdout.length < 64 * 1024 + 1024 * 1024 + 1, `kept output is bounded (${logs.stdout.length} bytes)`);
    assert.match(logs.stderr, /\[acp-threads: [\d.]+M of output dropped here\]/);
  } finally {
    cleanup();
  }
});

test("exec --pty without node-pty runs on pipes and says so once on stderr", () => {
  const { dir, cleanup } = tempDir();
  try {
    const r = cli(dir, ["exec", "--pty", "--", "sh", "-c", "echo on-pipes"], { ACP_THREADS_NO_PTY: "1" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "on-pipes\n");
    assert.equal(r.stderr.match(/acp-threads: note: ACP Threads has no pseudo-terminal/g)?.length, 1, r.stderr);
    assert.equal(runs(dir)[0]!.pty, false);
  } finally {
    cleanup();
  }
});

test("the CLI keeps finished runs as long as the editor does: the home's exec TTL, not a CLI default", () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.equal(cli(dir, ["exec", "--", "true"]).code, 0);
    const [run] = runs(dir);
    // The run ended 45 minutes ago: inside the editor's default hour, past the CLI's old 30 minutes.
    const stateFile = join(dir, "exec", `${run!.id}.json`);
    const ago = new Date(Date.now() - 45 * 60_000).toISOString();
    writeFileSync(stateFile, JSON.stringify({ ...JSON.parse(readFileSync(stateFile, "utf8")), endedAt: ago }));
    assert.deepEqual(
      runs(dir).map((r) => r.id),
      [run!.id],
      "kept under the shared default",
    );
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ execTtlMinutes: 30 })); // as the editor writes it
    assert.deepEqual(runs(dir), [], "swept once the shared setting says 30 minutes");
  } finally {
    cleanup();
  }
});
