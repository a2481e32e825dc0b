/**
 * `acp-threads restore THREAD --turn N`: puts every file the thread changed in turn N or later back to its
 * version before turn N. Prints the plan first; refuses (exit 2, nothing written) when a file changed after the
 * thread's last change to it, unless --force. `--dry-run` only prints the plan; `--undo` takes back the last
 * restore (restores are recorded like turns).
 */
import { AcpThreadsError } from "../../core/errors";
import { localEngine } from "../../core/engine/local";
import type { EngineReplies } from "../../core/engine/requests";
import { describeState } from "../../core/ledger/content";
import { liveWriter } from "../../core/store/file-lock";
import { command } from "../command";
import { EXIT, type CliIO } from "../io";
import { json, threadOf } from "../ledger/common";

const VERB = { revert: "revert", delete: "delete", recreate: "recreate", unchanged: "keep (already so)" } as const;

type RestorePlan = NonNullable<EngineReplies["ledger.restore"]["plan"]>;

/** The plan, one line per file (`rels`: its files' paths as the thread's folder names them). */
export function printPlan(io: CliIO, plan: RestorePlan, rels: readonly string[]): void {
  const what = plan.target.turn !== undefined ? `turn ${plan.target.turn}` : plan.target.op;
  io.stdout.write(`restore thread ${plan.threadId} to before ${what}: ${plan.items.length} file(s)\n`);
  for (const [n, i] of plan.items.entries()) {
    const flags = [
      i.conflict && !i.unavailable ? "CHANGED SINCE the thread last wrote it" : "",
      i.unavailable ? `cannot restore: ${i.unavailable}` : "",
    ].filter(Boolean);
    const size = i.target ? ` (${describeState(i.target)})` : "";
    io.stdout.write(
      `  ${VERB[i.action].padEnd(8)} ${rels[n]}${size}${flags.length ? `  ← ${flags.join("; ")}` : ""}\n`,
    );
  }
}

export const main = command(
  {
    name: "restore",
    synopsis: [
      "THREAD --turn N [--dry-run] [--force]",
      "THREAD --undo [--dry-run] [--force]",
      "THREAD --op OP [--dry-run] [--force]",
    ],
    args: { min: 1, max: 1, name: "THREAD" },
    flags: {
      turn: { type: "number", integer: true, min: 1, arg: "N", help: "restore the workspace to before this turn" },
      undo: { type: "boolean", help: "take back the thread's last restore" },
      op: {
        type: "string",
        arg: "OP",
        help: "restore to before this operation (an id 'changes' lists, e.g. a worktree's apply-…)",
      },
      "dry-run": { type: "boolean", help: "print what would change and write nothing" },
      force: { type: "boolean", help: "overwrite files that changed after the thread's last change to them" },
      format: { type: "enum", values: ["text", "json"], default: "text", help: "output format" },
    },
    notes:
      "Only files the thread changed are touched. A restore is recorded in the thread's ledger: 'acp-threads\n" +
      "changes THREAD' lists it and '--undo' reverses it.",
  },
  async ({ io, flags, args }) => {
    if ([flags.turn !== undefined, !!flags.undo, flags.op !== undefined].filter(Boolean).length !== 1)
      throw new AcpThreadsError("usage", "give exactly one of --turn N, --undo and --op OP");
    const { store, threadId } = threadOf(io, args[0]!);
    const held = (pid: number) =>
      new AcpThreadsError(
        "usage",
        `thread ${threadId} is open in process ${pid} (an editor or a run); restore it there, or close its session first`,
      );
    const owner = liveWriter(store.pathFor(threadId));
    if (owner && !flags["dry-run"]) throw held(owner.pid);
    const target = flags.undo ? { undo: true } : flags.op !== undefined ? { target: flags.op } : { turn: flags.turn! };
    const reply = await localEngine({ store }).call({
      op: "ledger.restore",
      threadId,
      ...target,
      ...(flags["dry-run"] ? { dryRun: true } : {}),
      ...(flags.force ? { force: true } : {}),
    });
    if (reply.heldBy !== undefined) throw held(reply.heldBy);
    const plan = reply.plan!; // a rewind's plan only is ever absent
    if (flags.format === "json" && flags["dry-run"]) json(io, plan);
    else if (flags.format === "text") printPlan(io, plan, reply.rels ?? []);
    if (flags["dry-run"]) return EXIT.ok;
    if (reply.refused) throw new AcpThreadsError(reply.refused.code, reply.refused.message, reply.refused.details);
    const op = reply.result!;
    if (flags.format === "json") json(io, { plan, op: op.op, files: op.files, notes: op.notes });
    else {
      io.stdout.write(
        `restored ${op.files} file(s); recorded as ${op.op} (undo: acp-threads restore ${threadId.slice(0, 13)} --undo)\n`,
      );
      for (const n of op.notes) io.stdout.write(`note: ${n}\n`);
    }
    return EXIT.ok;
  },
  "put the files a thread changed back to before a turn (recorded, undoable)",
);
