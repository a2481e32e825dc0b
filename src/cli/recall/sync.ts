/** `recall bootstrap` (Codex), `recall sync-claude`, `recall sync` (everything already known + own threads). */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SyncSummary } from "../../core/recall/recall";
import { EXIT, type CliIO } from "../io";
import { bool, num, parseFlags, text } from "./flags";
import { openFor, writeJson } from "./common";

const ROOT_FLAGS = {
  root: "string",
  "since-days": "number",
  "all-history": "bool",
  "limit-files": "number",
  format: "string",
  help: "bool",
} as const;

function printSummary(io: CliIO, sums: SyncSummary[], json: boolean): void {
  if (json) return writeJson(io, sums.length === 1 ? sums[0] : sums);
  for (const s of sums) {
    io.stdout.write(
      `${s.source}: ${s.files} files (${s.imported} read, ${s.unchanged} unchanged, ${s.missing} missing), ` +
        `${s.messages} new messages, ${s.bad_lines} bad lines, ${s.unknown_records} unknown records, ${s.elapsed_ms} ms\n`,
    );
  }
}

export async function syncRoot(io: CliIO, argv: string[], kind: "codex" | "claude"): Promise<number> {
  const p = parseFlags(argv, ROOT_FLAGS);
  if (bool(p, "help")) {
    io.stdout.write(
      `usage: acp-threads recall ${kind === "codex" ? "bootstrap" : "sync-claude"} [--root DIR] [--since-days N] [--all-history] [--limit-files N] [--format json]\n`,
    );
    return EXIT.ok;
  }
  const home = io.env.HOME ?? homedir();
  // CLAUDE_CONFIG_DIR may list several comma-separated roots: the first is the default; pass --root for others
  const claudeDir = io.env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim() || join(home, ".claude");
  const fallback =
    kind === "codex" ? join(io.env.CODEX_HOME ?? join(home, ".codex"), "sessions") : join(claudeDir, "projects");
  const spec = {
    root: resolve(io.cwd, text(p, "root") ?? fallback),
    sinceDays: num(p, "since-days"),
    allHistory: bool(p, "all-history"),
    limitFiles: num(p, "limit-files"),
  };
  const recall = openFor(io);
  try {
    const sum = kind === "codex" ? recall.importCodex(spec) : recall.importClaude(spec);
    printSummary(io, [sum], text(p, "format") === "json");
  } finally {
    recall.close();
  }
  return EXIT.ok;
}

export async function syncOwn(io: CliIO, argv: string[]): Promise<number> {
  const p = parseFlags(argv, { format: "string", help: "bool" });
  if (bool(p, "help")) {
    io.stdout.write("usage: acp-threads recall sync [--format json]   (index new turns of our own threads)\n");
    return EXIT.ok;
  }
  const recall = openFor(io);
  try {
    printSummary(io, [recall.syncOwnThreads()], text(p, "format") === "json");
  } finally {
    recall.close();
  }
  return EXIT.ok;
}
