/**
 * A disposed ledger leaves no `git cat-file --batch` behind, and nothing of it keeps the process alive (stop 35's
 * record: a CLI `run` in a git repository could wait on the reader's pipes). Real processes: the turn reads a
 * committed file's "before" through git, the child (dispose-exit.main.ts) disposes the ledger and must then exit
 * by itself.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { outputOf, withTmp } from "../store/helpers";

const CHILD = join(repoRoot(), "dist-test/unit/core/ledger/dispose-exit.main.js");
const linux = process.platform === "linux"; // the child names what holds it through /proc

/** Runs the child in a fresh repository holding one committed file; returns its output once it exited by itself. */
async function runChild(mode: "turn" | "session" | "reader"): Promise<string> {
  return withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: ws, stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(ws, "a.txt"), "committed\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "seed");
    const child = spawn(process.execPath, [CHILD, mode, join(dir, "home"), ws, "a.txt"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const [out, exit] = await Promise.all([
      outputOf(child),
      new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
    ]);
    assert.equal(exit, 0, `the child exits by itself:\n${out}`);
    return out;
  });
}

// the turn did read the committed version through git (else the test would prove nothing)
const KEPT = /recorded 1 file\(s\), before kept: true\ndisposed\nended\n/;

test(
  "a turn that ends after its folder's last session left: the disposed ledger lets the process exit",
  { skip: !linux },
  async () => assert.match(await runChild("turn"), KEPT),
);

test(
  "a session open across the turn: once it and the ledger are disposed, the process exits",
  { skip: !linux },
  async () => assert.match(await runChild("session"), KEPT),
);

test(
  "an idle git reader, not disposed, does not hold the process (only a pending read does)",
  { skip: !linux },
  async () => assert.match(await runChild("reader"), /read 1 blob\(s\)\nidle\n/),
);
