/**
 * `acp-threads changes THREAD [--turn N] [--format text|json|patch]`: what the thread's turns changed in the
 * workspace, from its edit ledger (worktree applies, restores and undos included, as operations of their own; a turn
 * or apply a restore took back says so).
 */
import { describeState } from "../../core/ledger/content";
import { restoredTurns } from "../../core/ledger/restored";
import { summarize, filesChangedLabel, type OpSummary } from "../../core/ledger/summary";
import { AcpThreadsError } from "../../core/errors";
import { command } from "../command";
import { EXIT, type CliIO } from "../io";
import { json, openThreadLedger } from "../ledger/common";
import { patchOf } from "../ledger/patch";

const MARK = { added: "A", modified: "M", deleted: "D" } as const;

/** A turn (or worktree apply) a later restore took back (and no undo brought back) names that restore. */
type Listed = OpSummary & { restoredBy?: string };

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
    const { ledger, threadId, metadata } = openThreadLedger(io, args[0]!);
    try {
      const view = ledger.read(threadId);
      for (const w of view.warnings) io.stderr.write(`warning: ${w.message}\n`);
      const restored = restoredTurns(view);
      let ops: Listed[] = summarize(view, metadata.cwd).map((o) =>
        restored.has(o.op) ? { ...o, restoredBy: restored.get(o.op) } : o,
      );
      if (flags.turn !== undefined) {
        ops = ops.filter((o) => o.type === "turn" && o.turn === flags.turn);
        if (!ops.length)
          throw new AcpThreadsError("not_found", `thread ${threadId} has no recorded changes in turn ${flags.turn}`);
      }
      if (flags.format === "json") json(io, { threadId, cwd: metadata.cwd, ops });
      else if (flags.format === "patch") io.stdout.write(patchOf(ledger, ops));
      else if (!ops.length) io.stdout.write(`thread ${threadId}: no recorded changes\n`);
      else printText(io, ops);
      return EXIT.ok;
    } finally {
      ledger.dispose();
    }
  },
  "what a thread's turns changed in the workspace (--format patch for a diff)",
);
