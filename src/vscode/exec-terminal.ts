/**
 * Exec mode in the editor: an agent CLI (`codex exec`, `claude --print`, `gemini -p`, `opencode run`) or any
 * command line runs in the exec registry and shows in a Pseudoterminal the user can type into. The run
 * appears under Live in the sessions view; closing the terminal kills the run's process group.
 *
 * With `acpThreads.host.runSessions: host` the run is the thread host's (host/hosted-exec.ts), so it outlives the
 * window; one in a new worktree too (the window makes the worktree, the host checks it is one of a repository of the
 * window's folders).
 */
import type * as vscode from "vscode";
import { expandCommand } from "../core/exec";
import type { ExecRun } from "../core/exec";
import type { HostExecInfo } from "../core/host/protocol-exec";
import type { Hub } from "./hub";
import { showExecTerminal } from "./exec-view";
import { startExecInHost } from "./host/hosted-exec";
import { assertTrusted } from "./trust";
import { background } from "../core/util/unexpected";
import { worktreeFor } from "../core/session/open-thread";
import { editorWorktreeProgress } from "./worktrees/start";
import { editorSandbox, startSandboxed } from "./sandbox";
import { repositoryOfFolders } from "../core/host/run-roots";
import type { WorktreeRef } from "../core/model/records";
import { serveOffer } from "./host/serve-fs";

export { EXEC_CHOICES } from "./exec-choices";

/** A run this window started, and its terminal: its own (`run`), or the thread host's (`hosted`). */
export type StartedExec = { runId: string; terminal: vscode.Terminal } & ({ run: ExecRun } | { hosted: HostExecInfo });

/** Starts the run and its terminal; returns both (the host tests type into the terminal). */
export async function startExec(
  hub: Hub,
  choice: { id: string; label: string },
  task: string,
  cwd: string,
  title?: string,
  inWorktree?: boolean,
  /** The composer's "sandboxed" toggle (#34); undefined: the settings decide. */
  sandbox?: boolean,
): Promise<StartedExec> {
  assertTrusted();
  const named = title ?? (choice.id === "custom" ? task : `${choice.label}: ${task}`);
  const shown = named.length > 60 ? `${named.slice(0, 59)}…` : named;
  const where = inWorktree ? await worktreeFor(cwd, editorWorktreeProgress(hub.log.logger)) : { cwd };
  cwd = where.cwd;
  // in the thread host: in the window's folders, or in the worktree made here for a repository of them (the host
  // checks it is one it would have made itself)
  if (hub.config.hostRunSessions === "host" && (await hostTakes(where.worktree))) {
    const preparedWorktree = where.worktree && { ref: where.worktree, cwd };
    return startExecInHost(hub, { ...execCommand(choice, task), cwd, title: shown, preparedWorktree }, sandbox);
  }
  const expanded = expandCommand(execWords(choice, task));
  const pty = expanded.pty ?? true;
  const env = { ...process.env, ACP_THREADS_HOME: hub.home };
  // the run's program and what it starts in the OS sandbox (#34) when the settings say so; the error (nothing
  // started) when they ask for it and this machine cannot
  const plan = await editorSandbox(
    hub.config,
    {
      roots: [cwd],
      agentId: expanded.presetId ?? "exec",
      env,
      dataHome: hub.home,
      ...(sandbox !== undefined ? { asked: sandbox } : {}),
      unattended: !!where.worktree,
    },
    (m) => background(hub.broker.notifier.show("info", m), "telling the sandbox default"),
  );
  const run = await startSandboxed(plan, async () => {
    await hub.exec.prepare(cwd);
    return await hub.exec.startAsync({
      command: expanded.command,
      args: expanded.args,
      cwd,
      env,
      ...(plan ? { sandbox: plan } : {}),
      pty,
      closeStdin: expanded.closeStdin,
      presetId: expanded.presetId,
      cols: 120,
      rows: 30,
      ...(where.worktree ? { worktree: where.worktree } : {}),
    });
  });
  const commandLine = [expanded.command, ...expanded.args].join(" ");
  const source = {
    onOutput: (l: (d: string) => void) => run.onOutput((e) => l(e.text)),
    onExit: (l: (s: { exitCode: number | null; signal: string | null }) => void) =>
      run.onExit((info) => l({ exitCode: info.exitCode, signal: info.signal })),
    write: (d: string) => run.running && run.write(d),
    resize: (c: number, r: number) => run.running && run.resize(c, r),
  };
  const terminal = showExecTerminal(
    hub.live,
    source,
    { runId: run.id, title: shown, commandLine, cwd, startedAt: Date.now(), threadId: run.state.threadId },
    () => run.running && background(run.kill(), "stopping the run of a closed terminal"),
  );
  terminal.show();
  run.onExit((info) => hub.live.updateExec(run.id, info.status, info.exitCode));
  return { run, runId: run.id, terminal };
}

/** Whether the host takes a run in `worktree`: one of a repository of this window's folders (or none). */
const hostTakes = async (worktree: WorktreeRef | undefined) =>
  !worktree || (await repositoryOfFolders(worktree.repo, serveOffer()?.roots ?? []));

const execWords = (choice: { id: string }, task: string) => (choice.id === "custom" ? [task] : [choice.id, task]);

/** The program as the window starts it (the preset expanded), for the thread host. */
function execCommand(choice: { id: string }, task: string) {
  const expanded = expandCommand(execWords(choice, task));
  return {
    command: expanded.command,
    args: expanded.args,
    pty: expanded.pty ?? true,
    ...(expanded.closeStdin ? { closeStdin: true } : {}),
    ...(expanded.presetId ? { presetId: expanded.presetId } : {}),
    cols: 120,
    rows: 30,
  };
}
