/**
 * Exec mode in the editor: an agent CLI (`codex exec`, `claude --print`, `gemini -p`, `opencode run`) or any
 * command line runs in the exec registry and shows in a Pseudoterminal the user can type into. The run
 * appears under Live in the sessions view; closing the terminal kills the run's process group.
 */
import * as vscode from "vscode";
import { expandCommand } from "../core/exec";
import type { ExecRun } from "../core/exec";
import type { Hub } from "./hub";
import { createPty } from "./terminal-host";
import { assertTrusted } from "./trust";
import { background } from "../core/util/unexpected";
import { worktreeFor } from "../core/session/open-thread";
import { editorWorktreeProgress } from "./worktrees/start";
import { editorSandbox, startSandboxed } from "./sandbox";

export { EXEC_CHOICES } from "./exec-choices";

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
): Promise<{ run: ExecRun; terminal: vscode.Terminal }> {
  assertTrusted();
  const where = inWorktree ? await worktreeFor(cwd, editorWorktreeProgress(hub.log.logger)) : { cwd };
  cwd = where.cwd;
  const expanded = choice.id === "custom" ? expandCommand([task]) : expandCommand([choice.id, task]);
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
  const named = title ?? (choice.id === "custom" ? task : `${choice.label}: ${task}`);
  const shown = named.length > 60 ? `${named.slice(0, 59)}…` : named;
  const source = {
    onOutput: (l: (d: string) => void) => run.onOutput((e) => l(e.text)),
    onExit: (l: (s: { exitCode: number | null; signal: string | null }) => void) =>
      run.onExit((info) => l({ exitCode: info.exitCode, signal: info.signal })),
    write: (d: string) => run.running && run.write(d),
    resize: (c: number, r: number) => run.running && run.resize(c, r),
  };
  const p = createPty(source, { banner: `$ ${commandLine}   (cwd ${cwd})` });
  const terminal = vscode.window.createTerminal({
    name: `exec: ${shown}`.slice(0, 80),
    pty: p,
    iconPath: new vscode.ThemeIcon("terminal"),
  });
  terminal.show();
  hub.live.addExec({
    runId: run.id,
    title: shown,
    commandLine,
    cwd,
    startedAt: Date.now(),
    status: "running",
    terminal,
    threadId: run.state.threadId,
  });
  run.onExit((info) => hub.live.updateExec(run.id, info.status, info.exitCode));
  const closeSub = vscode.window.onDidCloseTerminal((t) => {
    if (t !== terminal) return;
    closeSub.dispose();
    p.dispose();
    if (run.running) background(run.kill(), "stopping the run of a closed terminal");
  });
  return { run, terminal };
}
