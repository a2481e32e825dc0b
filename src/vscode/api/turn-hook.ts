/**
 * `acpThreads.hooks.turnEnded` (#35 item 4): a command of the user's run when a turn of one of the window's
 * sessions ends, the turn_ended event as JSON on its stdin (plus the turn's `usage` when the agent reported one);
 * its output goes to the extension's log. A user setting only (USER_ONLY_SETTINGS): a repository's
 * .vscode/settings.json cannot make the editor run a command. It runs in the session's folder through the shell,
 * forked by the spawner (runCommand), and its process group is stopped after HOOK_TIMEOUT_MS.
 */
import { homedir } from "node:os";
import type * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import type { Logger } from "../../core/log";
import { isPosix } from "../../core/platform/host";
import { runCommand } from "../../core/platform/run-to-end";
import { background } from "../../core/util/unexpected";

export const HOOK_TIMEOUT_MS = 30_000;
const HOOK_OUTPUT_BYTES = 64 * 1024;

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
    const { kind: _k, threadId: _t, at: _a, ...reported } = usage ?? { kind: "", threadId: "", at: "" };
    const input = `${JSON.stringify({ ...event, ...(usage ? { usage: reported } : {}) })}\n`;
    background(runHook(command, input, deps.cwdOf(event.threadId) ?? homedir(), deps.logger), "a turnEnded hook");
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

async function runHook(command: string, input: string, cwd: string, logger: Logger): Promise<void> {
  const [file, args] = isPosix() ? ["/bin/sh", ["-c", command]] : ["cmd.exe", ["/d", "/s", "/c", command]];
  const r = await runCommand({ file, args, cwd, input, timeoutMs: HOOK_TIMEOUT_MS, maxBytes: HOOK_OUTPUT_BYTES });
  const out = [r.stdout.trimEnd(), r.stderr.trimEnd()].filter(Boolean).join("\n");
  const how = r.error
    ? `failed: ${r.error.message}`
    : r.signal
      ? `was stopped (${r.signal}; the limit is ${HOOK_TIMEOUT_MS / 1000} s)`
      : `exited ${r.code}`;
  logger.info(`hooks.turnEnded ${how}${out ? `:\n${out}` : ""}`);
}
