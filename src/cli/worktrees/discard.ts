/**
 * `worktrees discard THREAD [--force]`: removes the thread's worktree and its folder (what it changed is lost,
 * unless applied). Without --force it asks on a terminal and refuses otherwise.
 */
import { createInterface } from "node:readline/promises";
import { AcpThreadsError } from "../../core/errors";
import type { Engine } from "../../core/engine/requests";
import { EXIT, type CliIO } from "../io";
import { describeState } from "./list";
import type { WorktreeThread } from "./thread";

async function confirmed(io: CliIO, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export async function discardCommand(io: CliIO, engine: Engine, t: WorktreeThread, force: boolean): Promise<number> {
  const state = await engine.call({ op: "worktree.state", threadId: t.threadId });
  if (!force) {
    const what = `the worktree ${t.worktree.path} of thread ${t.threadId} (${describeState(state)})`;
    if ((io.stdin as { isTTY?: boolean }).isTTY !== true)
      throw new AcpThreadsError(
        "usage",
        `discarding removes ${what} and what was not applied is lost; confirm with --force (stdin is not a terminal to ask)`,
      );
    if (!(await confirmed(io, `Discard ${what}? Changes not applied are lost. [y/N] `))) {
      io.stderr.write("kept\n");
      return EXIT.ok;
    }
  }
  const result = await engine.call({ op: "worktree.discard", threadId: t.threadId });
  for (const w of result.warnings) io.stderr.write(`acp-threads worktrees: note: ${w}\n`);
  io.stdout.write(
    result.wasMissing
      ? `the worktree folder ${t.worktree.path} was already gone; thread ${t.threadId} no longer has a worktree\n`
      : `discarded the worktree ${t.worktree.path} of thread ${t.threadId}\n`,
  );
  return EXIT.ok;
}
