/**
 * Exec runs in the thread host, as this window shows them (#35 item 1; core/host/host-exec.ts). With
 * `acpThreads.host.runSessions: host` the window's exec runs start in the host (`exec_start`): the same program,
 * environment (the window's, sent as the run's base, held in the host's memory only) and OS sandbox settings as
 * the window's own runs, in one of the window's folders. The host shows every exec run of this window's folders
 * as a hosted terminal (serve-terminals.ts: its output, typing and size), and this file makes each one the
 * window's exec terminal with its Live row (exec-view.ts): the one this window started, one started elsewhere, and
 * after a reload the running ones again, with their output so far. Closing the terminal stops the run in the
 * host; the window going away (a reload) does not.
 */
import * as vscode from "vscode";
import type { HostExec, HostExecInfo } from "../../core/host/protocol-exec";
import { AcpThreadsError } from "../../core/errors";
import { definedEnv } from "../../core/util/guards";
import { background } from "../../core/util/unexpected";
import type { Config } from "../config";
import { showExecTerminal } from "../exec-view";
import type { LiveSessions } from "../live-sessions";
import type { Notifier } from "../notifier";
import { editorSandboxSettings } from "../sandbox";
import type { HostedThreads } from "./hosted-threads";

/** How long a started run's terminal is waited for (the host shows it right after its answer). */
export const EXEC_SHOWN_MS = 15_000;

/**
 * Each exec run the host shows this window becomes its exec terminal and Live row. `recorded`: the exec registry's
 * account of a run (its state file, written by the host): a run the same host ended while this window was not
 * connected (`lost`, terminals-gone.ts) shows the end it recorded there (exited, killed, its exit code).
 */
export function wireHostedExecs(
  hosted: HostedThreads,
  live: LiveSessions,
  recorded: (runId: string) => { status: string; exitCode: number | null } | undefined,
): vscode.Disposable {
  let leaving = false;
  const sub = hosted.terminals.onDidShowExec(({ view, exec }) => {
    let ended = false;
    view.onExit(({ exitCode, signal, status }) => {
      ended = true;
      const known = status === "lost" ? recorded(exec.runId) : undefined;
      if (known && known.status !== "running" && known.status !== "lost")
        return live.updateExec(exec.runId, known.status, known.exitCode ?? null);
      // the registry's status (a timeout says so); a host before it: the signal decides
      live.updateExec(exec.runId, status ?? (signal ? "killed" : "exited"), exitCode);
    });
    const stop = () =>
      !ended && !leaving && background(hosted.stopExec(exec.runId), "stopping the host's run of a closed terminal");
    const terminal = showExecTerminal(live, view, { ...exec, startedAt: Date.parse(exec.startedAt) }, stop);
    terminal.show(true); // a run started elsewhere, or shown again after a reload: the focus stays
  });
  return new vscode.Disposable(() => {
    leaving = true; // its terminals close with the window: the runs go on in the host
    sub.dispose();
  });
}

export interface HostExecHub {
  hosted: HostedThreads;
  live: LiveSessions;
  config: Config;
  broker: { notifier: Notifier };
}

/** The run as `startExec` gives it: the program expanded, its folder, pty size and title. */
export type HostExecStart = Pick<
  HostExec,
  "command" | "args" | "cwd" | "pty" | "cols" | "rows" | "closeStdin" | "presetId" | "title" | "preparedWorktree"
>;

/**
 * Starts the run in the thread host (started when none runs) and resolves once this window shows its terminal.
 * `sandbox`: the composer's toggle; undefined: the settings decide, as for the window's own runs.
 */
export async function startExecInHost(
  hub: HostExecHub,
  start: HostExecStart,
  sandbox: boolean | undefined,
): Promise<{ runId: string; terminal: vscode.Terminal; hosted: HostExecInfo }> {
  const baseEnv = definedEnv(process.env);
  const unattended = !!start.preparedWorktree; // a worktree run: the unattended default applies, as in the window
  const settings = await editorSandboxSettings(hub.config, { env: baseEnv, asked: sandbox, unattended }, (m) =>
    background(hub.broker.notifier.show("info", m), "telling the sandbox default"),
  );
  const c = await hub.hosted.link.connection(true);
  if (!c || c.closed) throw new AcpThreadsError("protocol", "the thread host could not be started");
  const r = await c.request({
    t: "exec_start",
    exec: { ...start, baseEnv, ...(settings ? { sandbox: settings } : {}) },
  });
  if (r.t !== "exec_started") throw new AcpThreadsError("protocol", `the thread host answered ${r.t}`);
  const terminal = await shown(hub.live, r.exec.runId);
  terminal.show();
  return { runId: r.exec.runId, terminal, hosted: r.exec };
}

/** The run's terminal once the host has shown it here (its `terminal` push follows the answer). */
function shown(live: LiveSessions, runId: string): Promise<vscode.Terminal> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const t = live.exec(runId)?.terminal;
      if (!t) return false;
      done();
      resolve(t);
      return true;
    };
    const sub = live.onDidChange(look);
    const timer = setTimeout(() => {
      done();
      reject(new AcpThreadsError("timeout", `the thread host started exec run ${runId} but did not show its terminal`));
    }, EXEC_SHOWN_MS);
    const done = () => {
      sub.dispose();
      clearTimeout(timer);
    };
    look();
  });
}
