/** Shared helpers for the store/thread/snapshot tests: temp homes and a started thread. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../../../src/core/log";
import { ThreadStore, type CreateThreadInput } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";

export async function withTmp<T>(fn: (dir: string) => Promise<T> | T, prefix = "acp-threads-"): Promise<T> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  try {
    return await fn(dir);
  } finally {
    // retried: a worker the test started may still be writing its last file (the catalog's first load, #36)
    await rm(dir, { recursive: true, force: true, maxRetries: 10 });
  }
}

export function startInput(cwd: string, extra: Partial<CreateThreadInput> = {}): CreateThreadInput {
  return {
    agent: { id: "fake", name: "Fake", command: "/bin/false" },
    mode: "acp",
    cwd,
    repoRoot: null,
    gitHead: null,
    ...extra,
  };
}

/** The child fixture (test/unit/core/store/child.main.ts), built. */
export function spawnChild(args: string[]): ChildProcess {
  return spawn(process.execPath, [join(repoRoot(), "dist-test/unit/core/store/child.main.js"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Everything a child writes (stdout and stderr), once it closed. */
export function outputOf(c: ChildProcess): Promise<string> {
  return new Promise<string>((resolve) => {
    let out = "";
    c.stdout?.on("data", (d) => (out += d));
    c.stderr?.on("data", (d) => (out += d));
    c.on("close", () => resolve(out));
  });
}

/** Resolves with the first stdout line that matches. */
export function waitForLine(child: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      buf += d;
      const line = buf.split("\n").find((l) => re.test(l));
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before printing ${re}: ${err}`)));
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/** The window's store (durability "soon") and a closed thread of it with one user message. */
export async function closedSoonThread(dir: string) {
  const store = new ThreadStore(join(dir, "home"), { durability: "soon" });
  const h = await store.createAsync(startInput(dir));
  h.append({ kind: "user_message", messageId: "u1", text: "keep me" });
  h.close();
  await store.whenClosed(h.threadId);
  return { store, h };
}

/** A logger that keeps what is warned (or logged as an error). */
export function warnings(): { logger: Logger; warned: string[] } {
  const warned: string[] = [];
  const note = (m: string) => void warned.push(m);
  return { warned, logger: { debug: () => {}, info: () => {}, warn: note, error: note } as unknown as Logger };
}
