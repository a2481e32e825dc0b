/**
 * Terminals through the spawner (#24) with real processes: a pseudo-terminal started by the spawner (output, input
 * echo, resize, exit code, group kill, a flood against a host that does not read, the spawner dying mid-terminal,
 * a spawner that never came up) and a pipe terminal through its launcher.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  killTerminalProcess,
  startTerminalProcess,
  type TerminalExit,
} from "../../../../src/core/acp/terminal-process";
import { loadPty } from "../../../../src/core/platform/pty";
import { SpawnerLauncher } from "../../../../src/core/platform/spawner-client";
import type { PtyExit, PtyHandle } from "../../../../src/core/platform/spawner-pty";
import { SPAWNER_JS, useSpawnerForTerminals } from "../../../fixtures/spawner/terminals";
import { isAlive as alive } from "../../../../src/core/exec/proc";
import { waitFor } from "../../../fixtures/spawner/wait";

const posix = process.platform !== "win32";
const skip = !posix || !loadPty() ? "POSIX with node-pty only" : false;
const OPTS = { cols: 80, rows: 24, name: "xterm-256color", cwd: process.cwd(), env: stringEnv() };

function stringEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Linux /proc: the parent pid and state of `pid`. */
function stat(pid: number): { ppid: number; state: string } {
  const s = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return { state: rest[0]!, ppid: Number(rest[1]) };
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

function watch(term: PtyHandle) {
  const seen = { out: "", exit: undefined as PtyExit | undefined };
  term.onData((d) => (seen.out += d));
  term.onExit((e) => (seen.exit = e));
  return seen;
}

function start(spawner: SpawnerLauncher, file: string, args: string[], opts = OPTS): PtyHandle {
  const term = spawner.spawnPty(file, args, opts, loadPty()!, require.resolve("node-pty"));
  assert.ok(term, "the spawner takes the terminal");
  return term;
}

test("a pty through the spawner: output, exit code, its parent is the spawner", { skip }, async () => {
  const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
  try {
    const term = start(spawner, "/bin/sh", ["-c", "echo out-$((6*7)); sleep 0.2; exit 3"]);
    const seen = watch(term);
    const pid = await term.started;
    assert.ok(pid && pid > 0 && term.pid === pid);
    if (process.platform === "linux" && alive(pid)) assert.equal(stat(pid).ppid, spawner.spawnerPid);
    await waitFor(() => seen.exit !== undefined, "exit");
    assert.match(seen.out, /out-42/);
    assert.equal(seen.exit!.exitCode, 3);
  } finally {
    spawner.dispose();
  }
});

test("input reaches the pty (cat echoes it), resize reaches stty, kill ends it", { skip }, async () => {
  const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
  try {
    const cat = start(spawner, "cat", []);
    const seenCat = watch(cat);
    cat.write("hello-spawner\r"); // before the pid is known: queued, then sent
    await waitFor(() => (seenCat.out.match(/hello-spawner/g) ?? []).length >= 2, "the echo and cat's copy");
    cat.kill("SIGTERM");
    await waitFor(() => seenCat.exit !== undefined, "cat's exit");
    assert.equal(seenCat.exit!.signal, 15);

    const sh = start(spawner, "/bin/sh", ["-c", "stty size; read x; stty size"]);
    const seen = watch(sh);
    await waitFor(() => /24 80/.test(seen.out), "the first size");
    sh.resize(100, 40);
    sh.write("\r");
    await waitFor(() => seen.exit !== undefined, "exit");
    assert.match(seen.out, /40 100/);
  } finally {
    spawner.dispose();
  }
});

test(
  "terminal/create's process through the spawner: pty and pipes, kill reaches the whole group",
  { skip },
  async () => {
    const { spawner, restore } = useSpawnerForTerminals();
    try {
      for (const noPty of [false, true]) {
        const proc = startTerminalProcess({
          command: "/bin/sh",
          args: ["-c", "sleep 300 & echo bg=$!; wait"],
          cwd: process.cwd(),
          env: process.env,
          noPty,
        });
        assert.equal(proc.kind, noPty ? "pipe" : "pty");
        let out = "";
        let exit: TerminalExit | undefined;
        proc.onData((d) => (out += d.toString()));
        proc.onExit((e) => (exit = e));
        const pid = await proc.started;
        assert.ok(pid && pid > 0);
        if (process.platform === "linux" && alive(pid)) assert.equal(stat(pid).ppid, spawner.spawnerPid);
        await waitFor(() => /bg=\d+/.test(out), "the background pid");
        const bg = Number(/bg=(\d+)/.exec(out)![1]);
        killTerminalProcess(proc, () => !exit);
        await waitFor(() => exit !== undefined, "exit");
        assert.equal(exit!.signal, "SIGTERM");
        await waitFor(() => !alive(bg), "the background sleep is gone too");
      }
    } finally {
      restore();
    }
  },
);

test(
  "a flood against a host that does not read: the spawner pauses the pty, its memory stays bounded",
  { skip },
  async () => {
    const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
    try {
      const term = start(spawner, process.execPath, ["-e", "const b='x'.repeat(65536);for(;;)process.stdout.write(b)"]);
      term.pause();
      const pid = (await term.started)!;
      const before = rssKb(spawner.spawnerPid!);
      // Without flow control the spawner reads on and the writer never blocks: it stays runnable forever.
      let sleeping = 0;
      await waitFor(() => {
        sleeping = stat(pid).state === "S" ? sleeping + 1 : 0;
        return sleeping >= 25;
      }, "the flooding writer blocks on the full terminal");
      const blocked = rssKb(spawner.spawnerPid!);
      assert.ok(blocked - before < 64 * 1024, `spawner RSS grew ${blocked - before} kB`);
      // Reading again: the bytes flow.
      let bytes = 0;
      term.onData((d) => (bytes += d.length));
      term.resume();
      await waitFor(() => bytes > 8 * 1024 * 1024, "8 MB through");
      term.kill("SIGKILL");
      await new Promise<void>((r) => term.onExit(() => r()));
      assert.ok(rssKb(spawner.spawnerPid!) - before < 64 * 1024);
    } finally {
      spawner.dispose();
    }
  },
);

test("the spawner dies mid-terminal: the terminal ends with a hang-up, its group is gone", { skip }, async () => {
  const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
  const term = start(spawner, "/bin/sh", ["-c", "sleep 300"]);
  const seen = watch(term);
  const pid = (await term.started)!;
  process.kill(spawner.spawnerPid!, "SIGKILL");
  await waitFor(() => seen.exit !== undefined, "the exit");
  assert.equal(seen.exit!.signal, 1);
  await waitFor(() => !alive(pid), "the shell is gone");
  assert.equal(spawner.alive, false);
});

test("a spawner that never comes up: the terminal starts in this process on the same handle", { skip }, async () => {
  const spawner = new SpawnerLauncher({ script: "/nonexistent/spawner.js" });
  const term = start(spawner, "/bin/sh", ["-c", "echo direct-ok"]);
  const seen = watch(term);
  await waitFor(() => seen.exit !== undefined, "exit");
  assert.match(seen.out, /direct-ok/);
  assert.equal(seen.exit!.exitCode, 0);
  assert.ok(term.pid > 0);
  // From now on the launcher says no, and the caller starts terminals itself.
  assert.equal(spawner.spawnPty("/bin/true", [], OPTS, loadPty()!, require.resolve("node-pty")), undefined);
});
