/** Test helpers for recall: a temp world with two repos, a worktree, and the fixture transcripts copied in. */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { CliIO } from "../../../../src/cli/io";
import { openRecall } from "../../../../src/core/recall/recall";
import { repoRoot } from "../../../fixtures/agent-env/index";

export const FIXTURES = join(repoRoot(), "test", "fixtures", "transcripts");

export interface World {
  dir: string;
  home: string;
  repoA: string;
  repoB: string;
  worktree: string;
  codexRoot: string;
  claudeRoot: string;
  cleanup(): void;
}

function substitute(dir: string, map: Record<string, string>): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) substitute(p, map);
    else {
      let text = readFileSync(p, "utf8");
      for (const [k, v] of Object.entries(map)) text = text.split(k).join(v);
      writeFileSync(p, text);
    }
  }
}

export function makeWorld(): World {
  const dir = mkdtempSync(join(tmpdir(), "recall-test-"));
  const repoA = join(dir, "repo-alpha");
  const repoB = join(dir, "repo-beta");
  const worktree = join(dir, "alpha-wt");
  mkdirSync(join(repoA, ".git", "worktrees", "wt"), { recursive: true });
  mkdirSync(join(repoA, "src"), { recursive: true });
  mkdirSync(join(repoB, ".git"), { recursive: true });
  mkdirSync(worktree, { recursive: true });
  writeFileSync(join(repoA, ".git", "worktrees", "wt", "commondir"), "../..\n");
  writeFileSync(join(worktree, ".git"), `gitdir: ${join(repoA, ".git", "worktrees", "wt")}\n`);
  const codexRoot = join(dir, "codex-sessions");
  const claudeRoot = join(dir, "claude-projects");
  cpSync(join(FIXTURES, "codex"), codexRoot, { recursive: true });
  cpSync(join(FIXTURES, "claude"), claudeRoot, { recursive: true });
  const map = { __REPO_A__: repoA, __REPO_B__: repoB, __WORKTREE__: worktree };
  substitute(codexRoot, map);
  substitute(claudeRoot, map);
  const home = join(dir, "home");
  return {
    dir,
    home,
    repoA,
    repoB,
    worktree,
    codexRoot,
    claudeRoot,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Every fixture file with placeholders replaced, so tests can append to one. */
export function findFile(root: string, namePart: string): string {
  for (const e of readdirSync(root, { withFileTypes: true })) {
    const p = join(root, e.name);
    if (e.isDirectory()) {
      try {
        return findFile(p, namePart);
      } catch {
        continue;
      }
    }
    if (e.name.includes(namePart) && statSync(p).isFile()) return p;
  }
  throw new Error(`no file matching ${namePart} under ${root}`);
}

const COMMANDS: Record<string, () => Promise<{ main: (io: CliIO) => Promise<number> }>> = {
  recall: () => import("../../../../src/cli/commands/recall"),
  status: () => import("../../../../src/cli/commands/status"),
  "session-archive": () => import("../../../../src/cli/commands/session-archive"),
};

/** Runs one command in-process (the command module, not main.ts, which starts the CLI when loaded). */
export async function cli(
  argv: string[],
  opts: { home: string; cwd: string; stdin?: string },
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? "");
  const [name, ...rest] = argv;
  const { main } = await COMMANDS[name]();
  const code = await main({
    argv: rest,
    stdout,
    stderr,
    stdin,
    cwd: opts.cwd,
    signal: new AbortController().signal,
    env: { ...process.env, ACP_THREADS_HOME: opts.home, HOME: join(opts.home, "user-home") },
  });
  return { code, out, err };
}

/** Opens the world's index with both fixture roots imported. */
export function importAll(w: World) {
  const recall = openRecall(w.home);
  recall.importCodex({ root: w.codexRoot, allHistory: true });
  recall.importClaude({ root: w.claudeRoot, allHistory: true });
  return recall;
}

/** A Codex rollout with the given messages, written into the world's codex root. */
export function writeRollout(
  w: World,
  name: string,
  cwd: string,
  messages: { role: "user" | "assistant"; text: string }[],
): string {
  const id = `019a0000-bbbb-7ccc-8ddd-${name.padStart(12, "0").slice(-12)}`;
  const dir = join(w.codexRoot, "2026", "11", "21");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `rollout-2026-11-21T12-00-00-${id}.jsonl`);
  const lines = [
    JSON.stringify({
      timestamp: "2026-11-21T12:00:00.000Z",
      type: "session_meta",
      payload: { id, cwd, timestamp: "2026-11-21T12:00:00.000Z" },
    }),
  ];
  messages.forEach((m, i) => {
    const ts = new Date(Date.UTC(2026, 10, 21, 12, 0, i)).toISOString();
    lines.push(
      JSON.stringify({
        timestamp: ts,
        type: "response_item",
        payload: {
          type: "message",
          role: m.role,
          content: [{ type: m.role === "user" ? "input_text" : "output_text", text: m.text }],
        },
      }),
    );
  });
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** Runs `fn` against a fresh world with both fixture roots imported, then closes and cleans up. */
export function withIndex(fn: (w: World, r: ReturnType<typeof importAll>) => void): void {
  const w = makeWorld();
  const r = importAll(w);
  try {
    fn(w, r);
  } finally {
    r.close();
    w.cleanup();
  }
}
