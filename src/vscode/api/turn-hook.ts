/**
 * `acpThreads.hooks.turnEnded` (#35 item 4): a command of the user's run when a turn of one of the window's
 * sessions ends, the turn_ended event as JSON on its stdin (plus the turn's `usage` when the agent reported one);
 * its output goes to the extension's log. A user setting only (USER_ONLY_SETTINGS): a repository's
 * .vscode/settings.json cannot make the editor run a command. It runs in the session's folder (core/host/turn-hook.ts).
 * The thread host runs it for the threads a window started there (the command goes with the run).
 */
import { homedir } from "node:os";
import type * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import { runTurnHook, turnHookInput } from "../../core/host/turn-hook";
import type { Logger } from "../../core/log";
import { background } from "../../core/util/unexpected";

export interface TurnHookDeps {
  onThreadEvent: vscode.Event<HostEvent>;
  /** The user's command (empty: none). */
  command: () => string;
  /** The session's folder, where the command runs. */
  cwdOf: (threadId: string) => string | undefined;
  logger: Logger;
}

export function watchTurnHook(deps: TurnHookDeps): vscode.Disposable {
  // a turn's usage event follows its turn_ended in the same tick: the hook gets both in one object
  let waiting: { event: Extract<HostEvent, { kind: "turn_ended" }>; timer: NodeJS.Timeout } | undefined;
  const fire = (event: HostEvent & { kind: "turn_ended" }, usage?: HostEvent & { kind: "usage" }) => {
    const command = deps.command().trim();
    if (!command) return;
    const input = turnHookInput(event, usage);
    const cwd = deps.cwdOf(event.threadId) ?? homedir();
    background(runTurnHook(command, input, cwd, deps.logger), "a turnEnded hook");
  };
  const flush = () => {
    if (!waiting) return;
    clearTimeout(waiting.timer);
    const { event } = waiting;
    waiting = undefined;
    fire(event);
  };
  const sub = deps.onThreadEvent((e) => {
    if (e.kind === "usage" && waiting?.event.threadId === e.threadId) {
      clearTimeout(waiting.timer);
      const { event } = waiting;
      waiting = undefined;
      return fire(event, e);
    }
    flush();
    if (e.kind === "turn_ended") waiting = { event: e, timer: setTimeout(flush, 0) };
  });
  return { dispose: () => (flush(), sub.dispose()) };
}
