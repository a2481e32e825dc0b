/**
 * Finds the transcript an agent CLI wrote for a run, so recall can import it: the newest file written after the
 * run started whose recorded cwd is the run's cwd.
 *   Codex:  `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl` (CODEX_HOME defaults to ~/.codex)
 *   Claude: `<root>/projects/<cwd, non-alphanumerics → ->/<session-uuid>.jsonl`, roots from CLAUDE_CONFIG_DIR
 *           (comma-separated) else ~/.claude and ~/.config/claude
 *   Gemini: `~/.gemini/tmp/<project>/chats/session-*.json[l]`, `<project>` from `~/.gemini/projects.json`
 *           (cwd → short name) or, in older builds, the sha256 of the cwd; the folder itself names the cwd.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { TranscriptKind } from "./types";

/** File clocks and ours may differ slightly; accept files a little older than the run's start. */
const CLOCK_SLACK_MS = 2_000;
const PEEK_BYTES = 64 * 1024;

export interface TranscriptQuery {
  kind: TranscriptKind;
  cwd: string;
  /** Epoch ms the run started. */
  startedAt: number;
  /** The run's environment (HOME, CODEX_HOME, CLAUDE_CONFIG_DIR). */
  env: NodeJS.ProcessEnv;
}

export function findTranscript(query: TranscriptQuery): string | undefined {
  const candidates = CANDIDATES[query.kind](query);
  // Gemini's folder is chosen by cwd already; the others share folders across projects (codex) or slugs.
  const checkCwd = query.kind !== "gemini";
  const since = query.startedAt - CLOCK_SLACK_MS;
  const cwd = canonical(query.cwd);
  let best: { path: string; mtime: number } | undefined;
  for (const path of candidates) {
    const mtime = mtimeOf(path);
    if (mtime === undefined || mtime < since || (best && mtime <= best.mtime)) continue;
    if (checkCwd && !recordsCwd(path, cwd, query.cwd)) continue;
    best = { path, mtime };
  }
  return best?.path;
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? homedir();
}

function codexCandidates(query: TranscriptQuery): string[] {
  const root = join(query.env.CODEX_HOME ?? join(homeOf(query.env), ".codex"), "sessions");
  // Codex names date folders by local time; look at the days the run spans (and the flat legacy layout).
  const dirs = new Set<string>([root]);
  for (let t = query.startedAt - 86_400_000; t <= Date.now() + 86_400_000; t += 86_400_000) {
    const d = new Date(t);
    const pad = (n: number) => String(n).padStart(2, "0");
    dirs.add(join(root, String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())));
    dirs.add(join(root, String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())));
  }
  return [...dirs].flatMap((dir) => filesIn(dir, (n) => n.startsWith("rollout-") && /\.jsonl(\.\w+)?$/.test(n)));
}

function claudeCandidates(query: TranscriptQuery): string[] {
  const home = homeOf(query.env);
  const roots = query.env.CLAUDE_CONFIG_DIR
    ? query.env.CLAUDE_CONFIG_DIR.split(",").filter(Boolean)
    : [join(home, ".claude"), join(home, ".config", "claude")];
  const slugs = new Set([slug(query.cwd), slug(canonical(query.cwd))]);
  return roots.flatMap((root) =>
    [...slugs].flatMap((s) => filesIn(join(root, "projects", s), (n) => n.endsWith(".jsonl"))),
  );
}

function geminiCandidates(query: TranscriptQuery): string[] {
  const root = join(query.env.GEMINI_CLI_HOME ?? homeOf(query.env), ".gemini");
  const cwds = [...new Set([query.cwd, canonical(query.cwd)])];
  const names = new Set(cwds.map((c) => createHash("sha256").update(c).digest("hex")));
  try {
    const projects =
      (JSON.parse(readFileSync(join(root, "projects.json"), "utf8")) as { projects?: Record<string, string> })
        .projects ?? {};
    for (const c of cwds) if (typeof projects[c] === "string") names.add(projects[c]);
  } catch {
    // no projects.json (older builds): the hash folder only
  }
  return [...names].flatMap((n) =>
    filesIn(join(root, "tmp", n, "chats"), (f) => f.startsWith("session-") && /\.jsonl?$/.test(f)),
  );
}

const CANDIDATES: Record<TranscriptKind, (query: TranscriptQuery) => string[]> = {
  codex: codexCandidates,
  claude: claudeCandidates,
  gemini: geminiCandidates,
};

function slug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

function filesIn(dir: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(dir)
      .filter(keep)
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function mtimeOf(path: string): number | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True when the file's first records name `cwd` (as JSON `"cwd":"..."`), the way both CLIs record it. */
function recordsCwd(path: string, ...cwds: string[]): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(PEEK_BYTES);
    const text = buf.subarray(0, readSync(fd, buf, 0, PEEK_BYTES, 0)).toString("utf8");
    return cwds.some((cwd) => text.includes(`"cwd":${JSON.stringify(cwd)}`));
  } finally {
    closeSync(fd);
  }
}
