/**
 * `acp-threads recall`: search past agent sessions like rg. Subcommands: bootstrap (Codex rollouts), sync-claude
 * (Claude Code transcripts), sync (our own threads), install-skill. Anything else is a query.
 */
import { resolve } from "node:path";
import { AcpThreadsError } from "../../core/errors";
import { command, subcommands } from "../command";
import { EXIT } from "../io";
import { recallEngine } from "../recall/common";
import { serve } from "../recall/serve";
import { main as status } from "./status";
import { installSkill } from "../recall/install-skill";
import { bootstrap, syncClaude, syncOwn } from "../recall/sync";

const QUERY = {
  name: "recall",
  synopsis: [
    "[options] <needle...>",
    "--recent [--global]",
    "bootstrap [--root ~/.codex/sessions] [--since-days 30] [--all-history] [--limit-files N]",
    "sync-claude [--root ~/.claude/projects] [--since-days 30] [--all-history] [--limit-files N]",
    "sync | status | serve | install-skill [--codex] [--claude]",
  ],
  args: { name: "<needle...>" },
  flags: {
    cwd: { type: "string", arg: "DIR", help: "scope to the repo/worktree of DIR (default: current directory)" },
    global: { type: "boolean", help: "search every repo" },
    "all-terms": { type: "boolean", help: "every needle somewhere in the session, no fallback" },
    limit: { type: "number", integer: true, min: 0, arg: "N", help: "sessions to show (3)" },
    "top-k": { type: "number", integer: true, min: 0, arg: "N", help: "same as --limit" },
    "windows-per-session": {
      type: "number",
      integer: true,
      min: 0,
      arg: "N",
      help: "evidence windows per session (2)",
    },
    before: { type: "number", integer: true, min: 0, arg: "N", help: "messages before a hit (3)" },
    after: { type: "number", integer: true, min: 0, arg: "N", help: "messages after a hit (5)" },
    "budget-chars": {
      type: "number",
      integer: true,
      min: 0,
      arg: "N",
      help: "characters of the whole answer, headers and paths included (12000)",
    },
    "message-chars": { type: "number", integer: true, min: 0, arg: "N", help: "characters per message (1200)" },
    "tool-message-chars": { type: "number", integer: true, min: 0, arg: "N", help: "characters per tool output (600)" },
    recent: { type: "boolean", help: "latest sessions with their first user message" },
    format: { type: "enum", values: ["markdown", "json"], default: "markdown", help: "output format" },
  },
  notes: `Needles: 2-6 short words; "quoted phrase"; a|b for alternatives. Several needles must all appear in one session;
when no session has them all, any needle matches (unless --all-terms).
Subcommands: bootstrap (Codex rollouts), sync-claude (Claude Code transcripts), sync (our own threads),
status (same as 'acp-threads status'), serve (the warm recall process queries start on demand), install-skill;
'acp-threads recall <subcommand> --help' for their options. To search for one of these words, write
'acp-threads recall -- status'.`,
} as const;

const query = command(QUERY, async ({ io, flags, args }) => {
  const { global, format } = flags;
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const limit = flags.limit ?? flags["top-k"];
  if (!flags.recent && args.length === 0)
    throw new AcpThreadsError("usage", "give a needle to search for (or --recent)");
  // one read in this process, then it exits: the warm recall process answers when one runs (else one is left)
  const engine = recallEngine(io, true);
  try {
    if (flags.recent) {
      const recent = await engine.call({ op: "recall.recentText", cwd, global, limit: limit ?? 10, format });
      io.stdout.write(recent.text);
      return EXIT.ok;
    }
    const { text } = await engine.call({
      op: "recall.searchText",
      query: args.join(" "),
      cwd,
      global,
      allTerms: flags["all-terms"],
      limit,
      windowsPerSession: flags["windows-per-session"],
      before: flags.before,
      after: flags.after,
      budgetChars: flags["budget-chars"],
      messageChars: flags["message-chars"],
      toolMessageChars: flags["tool-message-chars"],
      format,
    });
    io.stdout.write(text);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});

export const main = subcommands({
  name: "recall",
  synopsis: "[options] <needle...>",
  subs: { bootstrap, "sync-claude": syncClaude, sync: syncOwn, "install-skill": installSkill, status, serve },
  fallback: query,
});
