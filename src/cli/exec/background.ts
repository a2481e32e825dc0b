/**
 * `exec --background`: the run must outlive this CLI process, so a detached supervisor (this same CLI, started
 * with `exec --run-id ID ...`) owns it and records its output and exit. We pick the id, start the supervisor,
 * wait until it has written the run's state file, and return the id.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError } from "../../core/errors";
import { newRunId, type ExecRegistry } from "../../core/exec";
import type { CliIO } from "../io";

const STARTUP_TIMEOUT_MS = 15_000;

/** Supervisor stderr goes here while it starts; shown when it fails to start the run, removed either way. */
function supervisorLogPath(execDir: string, id: string): string {
  return join(execDir, `${id}.supervisor.log`);
}

/**
 * Starts the supervisor for `execArgs` (the exec options and command, without `--background`) and resolves with
 * the run id once the run exists.
 */
export async function launchBackground(io: CliIO, registry: ExecRegistry, execArgs: string[]): Promise<string> {
  const id = newRunId();
  mkdirSync(registry.execDir, { recursive: true, mode: 0o700 });
  const logPath = supervisorLogPath(registry.execDir, id);
  const logFd = openSync(logPath, "w", 0o600);
  // The CLI script itself; tests and the extension may point elsewhere with ACP_THREADS_CLI_PATH.
  const cliPath = io.env.ACP_THREADS_CLI_PATH ?? process.argv[1]!;
  let exitedEarly: number | null | undefined;
  try {
    const child = spawn(process.execPath, [cliPath, "exec", "--run-id", id, ...execArgs], {
      cwd: io.cwd,
      env: io.env,
      detached: true,
      windowsHide: true, // Windows: a detached child would otherwise get a console window of its own
      stdio: ["ignore", "ignore", logFd],
    });
    child.on("exit", (code) => (exitedEarly = code));
    child.on("error", () => (exitedEarly = -1));
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    while (!registry.info(id)) {
      if (exitedEarly !== undefined || Date.now() > deadline) {
        const detail = readFileSync(logPath, "utf8").trim();
        throw new AcpThreadsError("agent_exited", detail || `the background supervisor did not start the run`);
      }
      await sleep(20);
    }
    child.unref();
    return id;
  } finally {
    closeSync(logFd);
    rmSync(logPath, { force: true });
  }
}
