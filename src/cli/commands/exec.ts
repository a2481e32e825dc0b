/**
 * `acp-threads exec [options] -- <command...>`: runs an agent CLI (or any command) as a tracked run.
 * A preset id as the first word expands (`exec -- codex "fix it"` → `codex exec --sandbox workspace-write "fix it"`).
 * Foreground streams the output and exits with the command's code (3 on timeout, 130 on SIGINT, which kills
 * the process group); `--background` prints the run id and returns while a detached supervisor owns the run;
 * `--detach` does too, the thread host owning the run (../exec/detach.ts).
 */
import { resolve } from "node:path";
import { CLAUDE_PERMISSION_MODES, expandCommand, type ExpandedCommand } from "../../core/exec/exec-presets";
import type { HostExec } from "../../core/host/protocol-exec";
import type { SandboxSettings } from "../../core/model/sandbox";
import { signalExitCode, type ExecRegistry, type ExecRun, type RunInfo } from "../../core/exec";
import { EditLedger } from "../../core/ledger/edit-ledger";
import { resolveHome } from "../../core/store/paths";
import { EXIT, type CliIO } from "../io";
import { launchBackground } from "../exec/background";
import { launchDetached } from "../exec/detach";
import { definedEnv, secondsToTimerMs } from "../../core/util/guards";
import { AcpThreadsError } from "../../core/errors";
import { exitCodeOf, openRegistry } from "../exec/context";
import { forwardInput, streamOutput } from "../exec/foreground";
import { command, type CommandContext } from "../command";
import { timerFlag } from "../flags";
import type { WorktreeRef } from "../../core/model/records";
import { worktreeFor } from "../../core/session/open-thread";
import { parseWorktreeRef, worktreeProgress } from "../worktree-start";
import { background } from "../../core/util/unexpected";
import { commandName } from "../../core/acp/command-name";
import { sessionSandbox } from "../../core/sandbox/session";
import { closeSandbox, type SandboxPlan } from "../../core/sandbox/plan";
import { SANDBOX_FLAGS, sandboxFromFlags, sandboxLine, sandboxNotes } from "../sandbox-flags";

const SPEC = {
  name: "exec",
  synopsis: "[options] [--] <command...>",
  args: { min: 1, rest: true, name: "<command...>" },
  flags: {
    cwd: { type: "string", arg: "DIR", help: "working directory (default: current directory)" },
    worktree: {
      type: "boolean",
      help: "run in a git worktree of its own beside the repository (see 'acp-threads worktrees')",
    },
    pty: { type: "boolean", negatable: true, help: "run on a pseudo-terminal (default: the preset's choice)" },
    timeout: { type: "number", min: 0, ...timerFlag(1000), arg: "S", help: "kill the run after S seconds (exit 3)" },
    background: { type: "boolean", help: "print the run id and return; a detached supervisor owns the run" },
    detach: {
      type: "boolean",
      help: "print the run id and return; the thread host owns the run (VS Code windows with its folder open show it)",
    },
    format: { type: "enum", values: ["text", "json"], default: "text", help: "json: output and exit as JSON lines" },
    "permission-mode": { type: "enum", values: CLAUDE_PERMISSION_MODES, help: "claude's --permission-mode" },
    ...SANDBOX_FLAGS,
    // internal: this process is the background supervisor of that run
    "run-id": { type: "string", hidden: true, help: "" },
    // internal: the worktree the launcher made for the background supervisor's run
    "worktree-ref": { type: "string", hidden: true, help: "" },
  },
  notes: `presets: codex (codex exec --sandbox workspace-write), claude (claude --print --permission-mode acceptEdits),
         gemini (gemini -p), opencode (opencode run); anything else runs as given
         (one quoted word with shell syntax runs through sh -c)
Options end at the first word of the command (or at --): the command's own flags are its own.`,
} as const;

type Flags = CommandContext<typeof SPEC.flags>["flags"];

export const main = command(SPEC, async ({ io, flags, args }) => {
  let registry: ExecRegistry | undefined;
  let sandbox: SandboxPlan | undefined;
  // the process that owns the run records it: this one, or the background supervisor
  const ledger = flags.background || flags.detach ? undefined : new EditLedger({ home: resolveHome(io.env) });
  try {
    const expanded = expandCommand(args, { claudePermissionMode: flags["permission-mode"] });
    let cwd = resolve(io.cwd, flags.cwd ?? ".");
    let worktree: WorktreeRef | undefined;
    if (flags.detach && (flags.background || flags.worktree || flags["run-id"] !== undefined))
      throw new AcpThreadsError("usage", "--detach goes without --background and --worktree");
    // the background supervisor's own flag: the host's run would not be recorded with that worktree
    if (flags.detach && flags["worktree-ref"] !== undefined)
      throw new AcpThreadsError("usage", "--detach goes without --worktree-ref (the background supervisor's flag)");
    if (flags["worktree-ref"]) worktree = parseWorktreeRef(flags["worktree-ref"]);
    else if (flags.worktree) ({ cwd, worktree } = await worktreeFor(cwd, worktreeProgress(io, "exec")));
    // asked before anything starts: a machine that cannot sandbox fails here, and nothing runs
    const unattended = flags.worktree === true || worktree !== undefined;
    const settings = await sandboxFromFlags(io, "exec", flags, unattended, resolveHome(io.env));
    if (flags.detach) return await detach(io, flags, expanded, cwd, settings);
    sandbox =
      settings &&
      (await sessionSandbox({
        roots: [cwd],
        agentId: expanded.presetId ?? commandName(expanded.command),
        env: io.env,
        dataHome: resolveHome(io.env),
        settings,
      }));
    if (sandbox && !flags.background) {
      io.stderr.write(`acp-threads exec: ${sandboxLine(sandbox, cwd)}\n`);
      sandboxNotes(io, "exec", sandbox);
    }
    registry = openRegistry(io, !flags.background, ledger);
    if (flags.background) {
      const id = await launchBackground(
        io,
        registry,
        supervisorArgs(flags, cwd, args, worktree, settings !== undefined),
      );
      io.stdout.write(flags.format === "json" ? JSON.stringify({ id }) + "\n" : `${id}\n`);
      return EXIT.ok;
    }
    const supervised = flags["run-id"] !== undefined;
    const stdout = io.stdout as NodeJS.WriteStream;
    await registry.prepare(cwd);
    const run = registry.start({
      ...expanded,
      cwd,
      env: io.env,
      pty: flags.pty ?? expanded.pty,
      cols: stdout.isTTY ? stdout.columns : undefined,
      rows: stdout.isTTY ? stdout.rows : undefined,
      timeoutMs: flags.timeout ? flags.timeout * 1000 : undefined,
      // Nobody types into a background run: give it EOF instead of a pipe that never ends.
      closeStdin: supervised || expanded.closeStdin,
      id: flags["run-id"],
      ...(worktree ? { worktree } : {}),
      sandbox,
    });
    return await runForeground(io, run, supervised, flags.format);
  } finally {
    registry?.dispose();
    await closeSandbox(sandbox); // the egress proxy (a background run's supervisor starts its own)
    await ledger?.flush();
    ledger?.dispose();
  }
});

async function runForeground(io: CliIO, run: ExecRun, supervised: boolean, format: "text" | "json"): Promise<number> {
  const cleanups = supervised ? [] : [streamOutput(io, run, format), forwardInput(io, run)];
  const onAbort = () => background(run.kill(), "stopping the run");
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

/** `--detach`: the run as the host takes it (the sandbox prepared there from the same settings). */
function detach(
  io: CliIO,
  flags: Flags,
  expanded: ExpandedCommand,
  cwd: string,
  sandbox: SandboxSettings | undefined,
): Promise<number> {
  const pty = flags.pty ?? expanded.pty ?? false;
  const exec: HostExec = {
    command: expanded.command,
    args: expanded.args,
    cwd,
    pty,
    // nobody may type into it (no window shows it): pipes get EOF, as a background run's
    ...(!pty || expanded.closeStdin ? { closeStdin: true } : {}),
    ...(expanded.presetId ? { presetId: expanded.presetId } : {}),
    ...(expanded.transcript ? { transcript: expanded.transcript } : {}),
    // whole milliseconds: the host refuses a fraction, and a timeout past the longest timer it keeps (~24.8 days)
    ...(flags.timeout ? { timeoutMs: secondsToTimerMs(flags.timeout) } : {}),
    baseEnv: definedEnv(io.env),
    ...(sandbox ? { sandbox } : {}),
  };
  return launchDetached(io, exec, flags.format === "json");
}

/** The options the background supervisor needs to start the same run (cwd already resolved). */
function supervisorArgs(
  flags: Flags,
  cwd: string,
  cmd: string[],
  worktree: WorktreeRef | undefined,
  sandboxed: boolean,
): string[] {
  const args = ["--cwd", cwd, sandboxed ? "--sandbox" : "--no-sandbox"];
  for (const host of flags["sandbox-hosts"] ?? []) args.push(`--sandbox-hosts=${host}`);
  for (const path of flags["sandbox-deny-read"] ?? []) args.push(`--sandbox-deny-read=${path}`);
  if (worktree) args.push(`--worktree-ref=${JSON.stringify(worktree)}`);
  if (flags.pty !== undefined) args.push(flags.pty ? "--pty" : "--no-pty");
  if (flags.timeout !== undefined) args.push(`--timeout=${flags.timeout}`);
  if (flags["permission-mode"] !== undefined) args.push(`--permission-mode=${flags["permission-mode"]}`);
  return [...args, "--", ...cmd];
}
