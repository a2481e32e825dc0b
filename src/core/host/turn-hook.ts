/**
 * `acpThreads.hooks.turnEnded` (#35 item 4), run: the user's command through the shell in the thread's folder, the
 * turn_ended event as JSON on its stdin (plus the turn's `usage` when the agent reported one), its output to the
 * caller's log. Forked by the spawner (runCommand); its process group is stopped after HOOK_TIMEOUT_MS. The window
 * runs it for its own sessions (vscode/api/turn-hook.ts); the thread host for the runs a window started, with the
 * command that window sent in the run (held in the host's memory only).
 */
import type { Logger } from "../log";
import { isPosix } from "../platform/host";
import { runCommand } from "../platform/run-to-end";
import { background } from "../util/unexpected";
import type { DetachedRun, HostEvent } from "./protocol";
import type { TurnUsageReport } from "./turn-report";

export const HOOK_TIMEOUT_MS = 30_000;
const HOOK_OUTPUT_BYTES = 64 * 1024;

type TurnEnded = Extract<HostEvent, { kind: "turn_ended" }>;
type TurnUsage = Extract<HostEvent, { kind: "usage" }>;

/** The hook's stdin: the event, with the turn's usage figures (without their own kind, thread and time). */
export function turnHookInput(event: TurnEnded, usage?: TurnUsage): string {
  const { kind: _k, threadId: _t, at: _a, ...reported } = usage ?? { kind: "", threadId: "", at: "" };
  return `${JSON.stringify({ ...event, ...(usage ? { usage: reported } : {}) })}\n`;
}

/** The host's part: a run that carries the user's hook runs it in the run's folder (nothing without one). */
export function hookTurnEnded(
  run: Pick<DetachedRun, "turnEndedHook" | "cwd">,
  event: TurnEnded,
  usage: TurnUsage | undefined,
  logger: Logger,
): void {
  const command = run.turnEndedHook?.trim();
  if (command) background(runTurnHook(command, turnHookInput(event, usage), run.cwd, logger), "a turnEnded hook");
}

export async function runTurnHook(command: string, input: string, cwd: string, logger: Logger): Promise<void> {
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

/** A turn's end told: `turn_ended`, then its `usage` when it reported some, then the run's hook (when it has one). */
export function announceTurnEnd(
  announce: (e: HostEvent) => void,
  run: Pick<DetachedRun, "turnEndedHook" | "cwd">,
  end: Omit<TurnEnded, "kind" | "at">,
  usage: TurnUsageReport | undefined,
  logger: Logger,
): void {
  const at = new Date().toISOString();
  const ended: TurnEnded = { kind: "turn_ended", at, ...end };
  const used = usage && ({ kind: "usage", threadId: end.threadId, at, ...usage } as const);
  announce(ended);
  if (used) announce(used);
  hookTurnEnded(run, ended, used, logger);
}
