/**
 * `acp-threads worktrees list|apply|discard|compare`: the git worktrees threads work in (`run --worktree`,
 * `exec --worktree`), beside the repository in `.<repo>.worktrees/`.
 */
import { localEngine, type LocalEngine } from "../../core/engine/local";
import { resolveHome } from "../../core/store/paths";
import { command, subcommands } from "../command";
import { FORMAT, timerFlag } from "../flags";
import type { CliIO } from "../io";
import { DEFAULT_CHECK_TIMEOUT_MS } from "../../core/worktree/ranking";
import { compareRecord } from "../worktrees/compare-record";
import { applyCommand } from "../worktrees/apply";
import { discardCommand } from "../worktrees/discard";
import { listWorktrees } from "../worktrees/list";
import { worktreeThread } from "../worktrees/thread";

const THREAD = { min: 1, max: 1, name: "THREAD" };

/** `act` with the engine over this data home, closed after it. */
async function withEngine(io: CliIO, act: (engine: LocalEngine) => Promise<number>): Promise<number> {
  const engine = localEngine({ home: resolveHome(io.env) });
  try {
    return await act(engine);
  } finally {
    engine.close();
  }
}

export const main = subcommands({
  name: "worktrees",
  synopsis: "<subcommand> [options] [--format text|json]",
  aliases: { ls: "list", rm: "discard" },
  subs: {
    list: command(
      { name: "worktrees list", synopsis: "[--format json]", flags: { format: FORMAT }, args: { max: 0 } },
      async ({ io, flags }) => withEngine(io, (engine) => listWorktrees(io, engine, flags.format === "json")),
      "threads with a worktree: base commit, changed files (+/- lines), commits ahead, folder",
    ),
    apply: command(
      {
        name: "worktrees apply",
        synopsis: "THREAD [--dry-run] [--force] [--merge]",
        flags: {
          "dry-run": { type: "boolean", help: "print what would change and write nothing" },
          force: {
            type: "boolean",
            help: "apply the files without a conflict even when some have one (those are left as they are)",
          },
          merge: {
            type: "boolean",
            help: "merge each conflicting file three-way (git merge-file); clashes are written with conflict markers",
          },
          format: FORMAT,
        },
        args: THREAD,
        notes:
          "The worktree's changes against its base (commits and uncommitted edits, new and deleted files) are written\n" +
          "into the repository's working tree and recorded in the thread's ledger: 'acp-threads restore THREAD --op\n" +
          "apply-…' takes them back. A file changed in the workspace since the base and in the worktree too is a\n" +
          "conflict: it is never overwritten; without --force or --merge nothing is applied. --merge merges it\n" +
          "(base: the worktree's base, or what an earlier apply of the worktree took in; yours: the workspace;\n" +
          "theirs: the worktree) into the same recorded apply: a clean merge is written as is, a clash with\n" +
          "'<<<<<<< workspace' / '>>>>>>> worktree <name>' markers, and the command exits 1 naming those files.\n" +
          "Binary files and files deleted on one side are never merged: yours are kept (listed, exit 1).\n" +
          "--dry-run shows per file: apply / clean merge / conflict (n hunks) / kept yours.",
      },
      async ({ io, flags, args }) =>
        withEngine(io, async (engine) =>
          applyCommand(io, engine, await worktreeThread(engine, args[0]!, "apply"), {
            dryRun: flags["dry-run"] === true,
            force: flags.force === true,
            merge: flags.merge === true,
            json: flags.format === "json",
          }),
        ),
      "write the worktree's changes into the workspace (recorded in the thread's ledger, undoable)",
    ),
    compare: command(
      {
        name: "worktrees compare",
        synopsis: "[BESTOF] [--check-timeout S] [--format json]",
        flags: {
          "check-timeout": {
            type: "number",
            above: 0,
            ...timerFlag(1000),
            arg: "S",
            help: `the check is killed (its process group) after S seconds (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000})`,
          },
          format: FORMAT,
        },
        args: { max: 1, name: "BESTOF" },
        notes:
          "BESTOF is the id 'run --detach' printed for a best of N (or a unique start of it; none: the newest).\n" +
          "The candidates the thread host still runs are waited for, the check runs in each worktree where it has\n" +
          "not run yet, the results are recorded (a window's compare view shows them), and the comparison is printed\n" +
          "as 'run' prints it; exit 0 when at least one candidate finished, 1 when none did.",
      },
      async ({ io, flags, args }) =>
        compareRecord(io, args[0], {
          json: flags.format === "json",
          ...(flags["check-timeout"] !== undefined ? { checkTimeoutMs: flags["check-timeout"] * 1000 } : {}),
        }),
      "a best of N run with --detach: wait for its candidates, run their check, print the comparison",
    ),
    discard: command(
      {
        name: "worktrees discard",
        synopsis: "THREAD [--force]",
        flags: { force: { type: "boolean", help: "do not ask" } },
        args: THREAD,
      },
      async ({ io, flags, args }) =>
        withEngine(io, async (engine) =>
          discardCommand(io, engine, await worktreeThread(engine, args[0]!, "discard"), flags.force === true),
        ),
      "remove the thread's worktree and its folder (asks first unless --force)",
    ),
  },
  notes: "THREAD is a thread id or a unique prefix of one.",
});
