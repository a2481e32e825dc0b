/**
 * `acp-threads threads list|archive|unarchive|show|export|import|rename|delete|restore [--format json]`: browse and manage the
 * saved threads of this data home (see `acp-threads threads --help`).
 */
import { command, subcommands, type Command } from "../command";
import { FORMAT, type FlagTable } from "../flags";
import type { CliIO } from "../io";
import { openStore, type Subcommand } from "../threads/common";
import { archive, unarchive } from "../threads/archive";
import { FILTER_FLAGS } from "../threads/filters";
import { list } from "../threads/list";
import { remove, rename, restore } from "../threads/manage";
import { show } from "../threads/show";
import { exportMarkdownCmd } from "../threads/markdown";
import { exportThread, importSnapshot } from "../threads/transfer";
import { IMPORT_AGENT_FLAGS } from "../threads/import-agent-flags";

/** A `threads` subcommand: its table (plus --format) and the function that runs with the store open. */
function sub<const T extends FlagTable>(
  name: string,
  spec: { synopsis: string; flags: T; args: { min?: number; max?: number; name?: string } },
  summary: string,
  run: Subcommand,
): Command {
  return command(
    { name: `threads ${name}`, synopsis: spec.synopsis, flags: { format: FORMAT, ...spec.flags }, args: spec.args },
    async ({ io, flags, args }) => {
      const store = openStore(io as CliIO);
      try {
        return await run({ io, store, flags, args, json: flags.format === "json" });
      } finally {
        store.closeAll();
      }
    },
    summary,
  );
}

const ID = { min: 1, max: 1, name: "ID" };

export const main = subcommands({
  name: "threads",
  synopsis: "<subcommand> [options] [--format text|json]",
  aliases: { ls: "list", rm: "delete" },
  subs: {
    list: sub(
      "list",
      {
        synopsis:
          "[--cwd DIR | --all] [--agent ID] [--origin O] [--status S] [--worktree] [--since 8h|2d|DATE] [--archived] [--limit N]",
        flags: {
          ...FILTER_FLAGS,
          since: {
            type: "string",
            arg: "WHEN",
            help: "since you left: threads active since 8h, 2d, 1w or a date, what ended, failed or waits for input, with the files each changed",
          },
          archived: { type: "boolean", help: "only archived threads" },
          limit: { type: "number", integer: true, min: 0, arg: "N", help: "at most N threads" },
          rescan: { type: "boolean", help: "check every thread file, not just the ones the index knows changed" },
        },
        args: { max: 0 },
      },
      "threads of this workspace by day, newest first",
      list,
    ),
    archive: sub(
      "archive",
      {
        synopsis:
          "[ID...] [--older-than 30d|DATE] [--agent ID] [--origin O] [--status S] [--cwd DIR | --all] [--dry-run]",
        flags: {
          ...FILTER_FLAGS,
          "older-than": {
            type: "string",
            arg: "AGE",
            help: "threads whose last activity is older than 30d, 8h, 1w or a date",
          },
          "dry-run": { type: "boolean", help: "list what would be archived, change nothing" },
        },
        args: { name: "ID" },
      },
      "archive threads: out of the Sessions view and threads list (list --archived shows them), still in recall",
      archive,
    ),
    unarchive: sub(
      "unarchive",
      {
        synopsis: "ID...",
        flags: { "dry-run": { type: "boolean", help: "change nothing" } },
        args: { min: 1, name: "ID" },
      },
      "bring archived threads back into the list",
      unarchive,
    ),
    show: sub("show", { synopsis: "ID", flags: {}, args: ID }, "print a thread's conversation", show),
    export: sub(
      "export",
      {
        synopsis: "ID [--out FILE] [--dir DIR] [--jsonl] | ID --format md [--out FILE]",
        flags: {
          out: { type: "string", short: "o", arg: "FILE", help: "write the snapshot (or the Markdown) to FILE" },
          dir: { type: "string", arg: "DIR", help: "folder for the snapshot (default ~/Downloads, else ~)" },
          jsonl: { type: "boolean", help: "copy the raw thread file instead (needs --out)" },
          format: {
            type: "enum",
            values: ["text", "json", "md"],
            default: "text",
            help: "md: the thread as Markdown (stdout, or --out FILE with its images in a .assets folder beside it)",
          },
        },
        args: ID,
      },
      "save a session snapshot (default ~/Downloads, else ~), or the thread as Markdown",
      (ctx) => (ctx.flags.format === "md" ? exportMarkdownCmd(ctx) : exportThread(ctx)),
    ),
    import: sub(
      "import",
      {
        synopsis: "[FILE | --latest] [--dir DIR] [--root DIR] | --from-agent AGENT [--cwd DIR | --all] [--dry-run]",
        flags: {
          latest: { type: "boolean", help: "the newest readable snapshot" },
          dir: {
            type: "string",
            arg: "DIR",
            help: "where snapshots are (default ~/Downloads, else ~, and .acp-threads/)",
          },
          root: { type: "string", arg: "DIR", help: "workspace folder to restore the thread into" },
          ...IMPORT_AGENT_FLAGS,
        },
        args: { max: 1, name: "FILE" },
      },
      "restore a snapshot as a new thread (no FILE: list them; a .jsonl FILE from export --jsonl is added as is), or import an agent's own sessions (--from-agent)",
      // the agent runtime (the ACP SDK) is loaded only for --from-agent: `threads list` stays small (#36)
      async (ctx) =>
        ctx.flags["from-agent"] ? (await import("../threads/import-agent")).importFromAgent(ctx) : importSnapshot(ctx),
    ),
    rename: sub(
      "rename",
      { synopsis: "ID TITLE...", flags: {}, args: { min: 2, name: "ID TITLE" } },
      "set the thread's title",
      rename,
    ),
    delete: sub(
      "delete",
      {
        synopsis: "ID [--agent-session]",
        flags: {
          "agent-session": {
            type: "boolean",
            help: "also ask the thread's agent to delete its session (session/delete, when the agent offers it); the thread is moved to the trash even when that fails",
          },
        },
        args: ID,
      },
      "move a thread to the trash",
      remove,
    ),
    restore: sub("restore", { synopsis: "ID", flags: {}, args: ID }, "bring a thread back from the trash", restore),
  },
  notes: "ID is a thread id or a unique prefix of one (at least 4 characters).",
});
