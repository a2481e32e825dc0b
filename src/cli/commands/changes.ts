/**
 * `acp-threads changes THREAD [--turn N] [--format text|json|patch]`: what the thread's turns changed in the
 * workspace, from its edit ledger (worktree applies, restores and undos included, as operations of their own; a turn
 * or apply a restore took back says so).
 */
import { localEngine } from "../../core/engine/local";
import type { ChangesOp } from "../../core/engine/requests-ledger";
import { describeState } from "../../core/ledger/content";
import { filesChangedLabel } from "../../core/ledger/files-label";
import { AcpThreadsError } from "../../core/errors";
import { command } from "../command";
import { EXIT, type CliIO } from "../io";
import { json, threadOf } from "../ledger/common";

const MARK = { added: "A", modified: "M", deleted: "D" } as const;

/** A turn (or worktree apply) a later restore took back (and no undo brought back) names that restore. */
type Listed = ChangesOp;

function title(o: Listed): string {
  if (o.type === "turn")
    return `turn ${o.turn}${o.agent ? `  ${o.agent.name}` : ""}${o.status ? `  (${o.status})` : "  (running or cut short)"}${o.restoredBy ? `  restored by ${o.restoredBy}` : ""}`;
  if (o.type === "apply")
    return `apply ${o.op}  (the worktree's changes, into the workspace)${o.restoredBy ? `  restored by ${o.restoredBy}` : ""}`;
  const what = o.type === "restore" ? "restore" : "undo";
  return `${what} ${o.op}${o.target ? ` to before ${o.target.op}` : ""}${o.forced ? "  (overwrote later edits)" : ""}`;
}

function printText(io: CliIO, ops: Listed[]): void {
  for (const o of ops) {
    io.stdout.write(`${title(o)}  ${o.startedAt}  ${filesChangedLabel(o.files.length)}\n`);
    for (const f of o.files) {
      const kept = f.after && !f.after.stored ? `  [${describeState(f.after)}]` : "";
      io.stdout.write(`  ${MARK[f.change]} ${f.rel}${kept}\n`);
    }
    for (const n of o.notes ?? []) io.stdout.write(`  note: ${n}\n`);
  }
}

export const main = command(
  {
    name: "changes",
    synopsis: "THREAD [--turn N] [--format text|json|patch]",
    args: { min: 1, max: 1, name: "THREAD" },
    flags: {
      turn: { type: "number", integer: true, min: 1, arg: "N", help: "only this turn" },
      format: { type: "enum", values: ["text", "json", "patch"], default: "text", help: "output format" },
    },
    notes:
      "THREAD is a thread id or a unique prefix of one (acp-threads threads list). The patch format is a unified\n" +
      "diff of each file's version before and after (binary and very large files are named, not diffed).",
  },
  async ({ io, flags, args }) => {
    const { store, threadId } = threadOf(io, args[0]!);
    const patch = flags.format === "patch";
    const { cwd, warnings, ...reply } = await localEngine({ store }).call({
      op: "ledger.changes",
      threadId,
      ...(flags.turn !== undefined ? { turn: flags.turn } : {}),
      ...(patch ? { patch } : {}),
    });
    for (const w of warnings) io.stderr.write(`warning: ${w}\n`);
    const ops: Listed[] = reply.ops;
    if (flags.turn !== undefined && !ops.length)
      throw new AcpThreadsError("not_found", `thread ${threadId} has no recorded changes in turn ${flags.turn}`);
    if (flags.format === "json") json(io, { threadId, cwd, ops });
    else if (patch) io.stdout.write(reply.patch ?? "");
    else if (!ops.length) io.stdout.write(`thread ${threadId}: no recorded changes\n`);
    else printText(io, ops);
    return EXIT.ok;
  },
  "what a thread's turns changed in the workspace (--format patch for a diff)",
);
