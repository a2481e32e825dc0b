/**
 * `acp-threads exec [options] -- <command...>`: runs an agent CLI (or any command) as a tracked run.
 * A preset id as the first word expands (`exec -- codex "fix it"` → `codex exec --sandbox workspace-write "fix it"`).
 * Foreground streams the output and exits with the command's code (3 on timeout, 130 on SIGINT, which kills
 * the process group); `--background` prints the run id and returns while a detached supervisor owns the run.
 */
import { resolve } from "node:path";
import { AcpThreadsError } from "../../core/errors";
import { CLAUDE_PERMISSION_MODES, expandCommand, type ClaudePermissionMode } from "../../core/exec/exec-presets";
import { signalExitCode, type ExecRegistry, type ExecRun, type RunInfo } from "../../core/exec";
import { EXIT, type CliIO } from "../io";
import { launchBackground } from "../exec/background";
import { exitCodeOf, openRegistry, reportError } from "../exec/context";
import { forwardInput, streamOutput } from "../exec/foreground";
import { formatFlag, numberFlag, parseOrHelp, type ParsedFlags } from "../exec/flags";

const USAGE = `usage: acp-threads exec [--cwd DIR] [--pty|--no-pty] [--timeout S] [--background] [--format text|json]
                        [--permission-mode MODE] -- <command...>
  presets: codex (codex exec --sandbox workspace-write), claude (claude --print --permission-mode acceptEdits),
           gemini (gemini -p), opencode (opencode run); anything else runs as given
           (one quoted word with shell syntax runs through sh -c)
`;

const SPEC = {
  cwd: "string",
  pty: "boolean",
  timeout: "string",
  background: "boolean",
  format: "string",
  "permission-mode": "string",
  "run-id": "string", // internal: this process is the background supervisor of that run
} as const;

export async function main(io: CliIO): Promise<number> {
  let registry: ExecRegistry | undefined;
  try {
    const parsed = parseOrHelp(io, SPEC, USAGE, true);
    if (!parsed) return EXIT.ok;
    const { flags, positionals } = parsed;
    if (positionals.length === 0) throw new AcpThreadsError("usage", `no command given\n${USAGE}`);
    const format = formatFlag(flags);
    const mode = flags["permission-mode"];
    if (mode !== undefined && !CLAUDE_PERMISSION_MODES.includes(mode as ClaudePermissionMode)) {
      throw new AcpThreadsError("usage", `--permission-mode must be one of ${CLAUDE_PERMISSION_MODES.join(", ")}`);
    }
    const expanded = expandCommand(positionals, { claudePermissionMode: mode as ClaudePermissionMode | undefined });
    const cwd = resolve(io.cwd, typeof flags.cwd === "string" ? flags.cwd : ".");
    const timeoutS = numberFlag(flags, "timeout");
    registry = openRegistry(io, !flags.background);
    if (flags.background) {
      const id = await launchBackground(io, registry, supervisorArgs(flags, cwd, positionals));
      io.stdout.write(format === "json" ? JSON.stringify({ id }) + "\n" : `${id}\n`);
      return EXIT.ok;
    }
    const supervised = typeof flags["run-id"] === "string";
    const pty = typeof flags.pty === "boolean" ? flags.pty : expanded.pty;
    const stdout = io.stdout as NodeJS.WriteStream;
    const run = registry.start({
      ...expanded,
      cwd,
      env: io.env,
      pty,
      cols: stdout.isTTY ? stdout.columns : undefined,
      rows: stdout.isTTY ? stdout.rows : undefined,
      timeoutMs: timeoutS ? timeoutS * 1000 : undefined,
      // Nobody types into a background run: give it EOF instead of a pipe that never ends.
      closeStdin: supervised || expanded.closeStdin,
      id: supervised ? String(flags["run-id"]) : undefined,
    });
    return await runForeground(io, run, supervised, format);
  } catch (err) {
    return reportError(io, "exec", err);
  } finally {
    registry?.dispose();
  }
}

async function runForeground(io: CliIO, run: ExecRun, supervised: boolean, format: "text" | "json"): Promise<number> {
  const cleanups = supervised ? [] : [streamOutput(io, run, format), forwardInput(io, run)];
  const onAbort = () => void run.kill();
  io.signal.addEventListener("abort", onAbort, { once: true });
  let info: RunInfo;
  try {
    info = await run.exited;
  } finally {
    io.signal.removeEventListener("abort", onAbort);
    for (const cleanup of cleanups) cleanup();
  }
  if (format === "json" && !supervised) io.stdout.write(JSON.stringify({ type: "exit", run: info }) + "\n");
  if (io.signal.aborted) return EXIT.interrupted;
  return exitCodeOf(info, signalExitCode);
}

/** The options the background supervisor needs to start the same run (cwd already resolved). */
function supervisorArgs(flags: ParsedFlags["flags"], cwd: string, command: string[]): string[] {
  const args = ["--cwd", cwd];
  if (typeof flags.pty === "boolean") args.push(flags.pty ? "--pty" : "--no-pty");
  if (flags.timeout !== undefined) args.push("--timeout", String(flags.timeout));
  if (flags["permission-mode"] !== undefined) args.push("--permission-mode", String(flags["permission-mode"]));
  return [...args, "--", ...command];
}
