/**
 * `acp-threads recall`: search past agent sessions like rg. Subcommands: bootstrap (Codex rollouts), sync-claude
 * (Claude Code transcripts), sync (our own threads), install-skill. Anything else is a query.
 */
import "../recall/v8-flags";
import { renderRecentMarkdown, renderSearchMarkdown } from "../../core/recall/render";
import { EXIT, type CliIO } from "../io";
import { openFor, repoOf, writeJson } from "../recall/common";
import { bool, num, parseFlags, text, UsageError } from "../recall/flags";
import { installSkill } from "../recall/install-skill";
import { syncOwn, syncRoot } from "../recall/sync";

const USAGE = `usage: acp-threads recall [options] <needle...>
       acp-threads recall --recent [--global]
       acp-threads recall bootstrap [--root ~/.codex/sessions] [--since-days 30] [--all-history] [--limit-files N]
       acp-threads recall sync-claude [--root ~/.claude/projects] [--since-days 30] [--all-history] [--limit-files N]
       acp-threads recall sync | install-skill [--codex] [--claude]

Needles: 2-6 short words; "quoted phrase"; a|b for alternatives. Several needles must all appear in one session;
when no session has them all, any needle matches (unless --all-terms).
options:
  --cwd DIR                 scope to the repo/worktree of DIR (default: current directory)
  --global                  search every repo
  --all-terms               every needle somewhere in the session, no fallback
  --limit, --top-k N        sessions to show (3)
  --windows-per-session N   evidence windows per session (2)
  --before N / --after N    messages around a hit (3 / 5)
  --budget-chars N          characters of the whole answer, headers and paths included (12000)
  --message-chars N         per message (1200); --tool-message-chars N for tool output (600)
  --recent                  latest sessions with their first user message
  --format markdown|json
`;

const FLAGS = {
  cwd: "string",
  global: "bool",
  "all-terms": "bool",
  limit: "number",
  "top-k": "number",
  "windows-per-session": "number",
  before: "number",
  after: "number",
  "budget-chars": "number",
  "message-chars": "number",
  "tool-message-chars": "number",
  recent: "bool",
  format: "string",
  help: "bool",
} as const;

const SUBCOMMANDS: Record<string, (io: CliIO, argv: string[]) => Promise<number>> = {
  bootstrap: (io, a) => syncRoot(io, a, "codex"),
  "sync-claude": (io, a) => syncRoot(io, a, "claude"),
  sync: syncOwn,
  "install-skill": installSkill,
};

async function query(io: CliIO): Promise<number> {
  const p = parseFlags(io.argv, FLAGS);
  const format = text(p, "format") ?? "markdown";
  if (format !== "markdown" && format !== "json")
    throw new UsageError(`--format must be markdown or json, got '${format}'`);
  if (bool(p, "help")) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  const global = bool(p, "global");
  const repo = global ? undefined : repoOf(io, text(p, "cwd"));
  const limit = num(p, "limit") ?? num(p, "top-k");
  const recall = openFor(io);
  try {
    if (bool(p, "recent")) {
      const r = recall.recent({ repo, global, limit: limit ?? 10 });
      if (format === "json") writeJson(io, r);
      else io.stdout.write(renderRecentMarkdown(r));
      return EXIT.ok;
    }
    if (p.positional.length === 0) throw new UsageError("give a needle to search for (or --recent)");
    const r = recall.search(p.positional.join(" "), {
      repo,
      global,
      allTerms: bool(p, "all-terms"),
      limit,
      windowsPerSession: num(p, "windows-per-session"),
      before: num(p, "before"),
      after: num(p, "after"),
      budgetChars: num(p, "budget-chars"),
      messageChars: num(p, "message-chars"),
      toolMessageChars: num(p, "tool-message-chars"),
    });
    if (format === "json") writeJson(io, r);
    else io.stdout.write(renderSearchMarkdown(r));
    return EXIT.ok;
  } finally {
    recall.close();
  }
}

export async function main(io: CliIO): Promise<number> {
  try {
    const sub = SUBCOMMANDS[io.argv[0] ?? ""];
    return sub ? await sub(io, io.argv.slice(1)) : await query(io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`acp-threads recall: ${err.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    io.stderr.write(`acp-threads recall: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.error;
  }
}
