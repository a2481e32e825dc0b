/**
 * The agents' terminals a thread panel shows in its tool cards (their output and exit, by agent session id): the
 * window's own sessions' (terminal-host.ts) and the thread host's agents' this window shows (serve-terminals.ts),
 * as one source, so a panel following a thread the host runs shows them as a window session's panel does.
 */
import * as vscode from "vscode";
import type { TerminalOutput as TerminalOutputEvent } from "../terminal-host";

export interface TerminalOutputSource {
  readonly onOutput: vscode.Event<TerminalOutputEvent>;
  recentOutput(sessionId: string): Omit<TerminalOutputEvent, "sessionId">[];
}

export function terminalOutputs(sources: readonly TerminalOutputSource[]): {
  onTerminalOutput: vscode.Event<TerminalOutputEvent>;
  recentTerminalOutput(sessionId: string): Omit<TerminalOutputEvent, "sessionId">[];
} {
  return {
    onTerminalOutput: (listener, thisArgs, disposables) => {
      const sub = vscode.Disposable.from(...sources.map((s) => s.onOutput(listener, thisArgs)));
      disposables?.push(sub);
      return sub;
    },
    recentTerminalOutput: (sid) => sources.flatMap((s) => s.recentOutput(sid)),
  };
}
