/**
 * An exec run as the window shows it, wherever it runs (this window's registry: exec-terminal.ts; the thread host:
 * host/hosted-exec.ts): an integrated terminal on its output that the user types into, its row under Live in the
 * Sessions view, and closing the terminal stops the run.
 */
import * as vscode from "vscode";
import type { LiveExec, LiveSessions } from "./live-sessions";
import { createPty, type PtySource } from "./terminal-host";

export type ExecRow = Pick<LiveExec, "runId" | "title" | "commandLine" | "cwd" | "startedAt" | "threadId">;

/** The run's terminal (not focused: the caller shows it) and Live row; `stop` runs when the user closes it. */
export function showExecTerminal(
  live: LiveSessions,
  source: PtySource,
  row: ExecRow,
  stop: () => void,
): vscode.Terminal {
  const p = createPty(source, { banner: `$ ${row.commandLine}   (cwd ${row.cwd})` });
  const terminal = vscode.window.createTerminal({
    name: `exec: ${row.title}`.slice(0, 80),
    pty: p,
    iconPath: new vscode.ThemeIcon("terminal"),
  });
  live.addExec({ ...row, status: "running", terminal });
  const closeSub = vscode.window.onDidCloseTerminal((t) => {
    if (t !== terminal) return;
    closeSub.dispose();
    p.dispose();
    stop();
  });
  return terminal;
}
