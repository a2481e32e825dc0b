/** `recall bootstrap` (Codex), `recall sync-claude`, `recall sync` (everything already known + own threads). */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Recall, SyncSummary } from "../../core/recall/recall";
import { EXIT, type CliIO } from "../io";
import { command } from "../command";
import { FORMAT } from "../flags";
import { openFor, writeJson } from "./common";

const ROOT_FLAGS = {
  root: { type: "string", arg: "DIR", help: "where the transcripts are" },
  "since-days": { type: "number", min: 0, arg: "N", help: "only files changed in the last N days (30)" },
  "all-history": { type: "boolean", help: "every file, however old" },
  "limit-files": { type: "number", integer: true, min: 0, arg: "N", help: "at most N files" },
  format: FORMAT,
} as const;

/** Compacts the index after a bulk import (compact.ts) and records it in the summary; a failure is only a note. */
function compact(io: CliIO, recall: Recall, sum: SyncSummary): SyncSummary {
  try {
    const compacted = recall.compactAfter(sum.messages);
    return compacted ? { ...sum, compacted } : sum;
  } catch (err) {
    io.stderr.write(`acp-threads: the index was not compacted: ${err instanceof Error ? err.message : String(err)}\n`);
    return sum;
  }
}

/** Prints the summaries; EXIT.error when some files could not be read at all (each reason on stderr). */
function printSummary(io: CliIO, sums: SyncSummary[], json: boolean): number {
  if (json) writeJson(io, sums.length === 1 ? sums[0] : sums);
  else
    for (const s of sums) {
      const unreadable = s.unreadable ? `, ${s.unreadable} unreadable` : "";
      io.stdout.write(
        `${s.source}: ${s.files} files (${s.imported} read, ${s.unchanged} unchanged, ${s.missing} missing${unreadable}), ` +
          `${s.messages} new messages, ${s.bad_lines} bad lines, ${s.unknown_records} unknown records, ${s.elapsed_ms} ms\n`,
      );
      const h = s.sharded;
      if (h)
        io.stdout.write(
          `second core: ${h.files} of the files, ${h.messages} messages (moved into the index in ${h.splice_ms} ms)\n`,
        );
      const c = s.compacted;
      if (c)
        io.stdout.write(
          `index compacted: ${c.segments_before} → ${c.segments_after} segments in ${c.elapsed_ms} ms${c.stopped ? " (stopped early)" : ""}\n`,
        );
    }
  for (const s of sums) for (const note of s.notes ?? []) io.stderr.write(`acp-threads: ${s.source}: ${note}\n`);
  return sums.some((s) => s.unreadable > 0) ? EXIT.error : EXIT.ok;
}

function syncRoot(kind: "codex" | "claude") {
  const name = kind === "codex" ? "bootstrap" : "sync-claude";
  const where = kind === "codex" ? "~/.codex/sessions" : "~/.claude/projects";
  return command(
    {
      name: `recall ${name}`,
      synopsis: `[--root ${where}] [--since-days 30] [--all-history] [--limit-files N] [--format json]`,
      flags: ROOT_FLAGS,
    },
    ({ io, flags }) => {
      const home = io.env.HOME ?? homedir();
      // CLAUDE_CONFIG_DIR may list several comma-separated roots: the first is the default; pass --root for others
      const claudeDir = io.env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim() || join(home, ".claude");
      const fallback =
        kind === "codex" ? join(io.env.CODEX_HOME ?? join(home, ".codex"), "sessions") : join(claudeDir, "projects");
      const spec = {
        root: resolve(io.cwd, flags.root ?? fallback),
        sinceDays: flags["since-days"],
        allHistory: flags["all-history"],
        limitFiles: flags["limit-files"],
      };
      const recall = openFor(io);
      try {
        const sum = kind === "codex" ? recall.importCodex(spec) : recall.importClaude(spec);
        return printSummary(io, [compact(io, recall, sum)], flags.format === "json");
      } finally {
        recall.close();
      }
    },
    kind === "codex" ? "import Codex rollouts" : "import Claude Code transcripts",
  );
}

export const bootstrap = syncRoot("codex");
export const syncClaude = syncRoot("claude");

export const syncOwn = command(
  {
    name: "recall sync",
    synopsis: "[--format json]",
    flags: { format: FORMAT },
  },
  ({ io, flags }) => {
    const recall = openFor(io);
    try {
      return printSummary(io, [compact(io, recall, recall.syncOwnThreads())], flags.format === "json");
    } finally {
      recall.close();
    }
  },
  "index new turns of our own threads",
);
