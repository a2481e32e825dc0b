/**
 * `acp-threads`: the headless command line on the same engine as the extension.
 * Each command lives in its own module under ./commands and is loaded only when used.
 */
import { onPtyFallback } from "../core/platform/pty";
import { setLockLabel } from "../core/store/file-lock";
import { enableCompileCache } from "./compile-cache";
import { avoidWorkerExitDeadlock } from "./worker-exit";
import { EXIT, type CliIO, type CommandMain } from "./io";
import { VERSION } from "../core/version";

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ main: CommandMain }> }> = {
  run: { summary: "run prompt turns against an ACP agent", load: () => import("./commands/run") },
  attach: {
    summary: "follow a thread the thread host runs: its records from a cursor, then live",
    load: () => import("./commands/attach"),
  },
  answer: {
    summary: "answer a permission question a thread in the thread host waits on",
    load: () => import("./commands/answer"),
  },
  retry: {
    summary: "take the watchdog's retry step of a thread in the thread host (cancel, continue, restart)",
    load: () => import("./commands/retry"),
  },
  events: {
    summary: "thread host events across all sessions, for other tools",
    load: () => import("./commands/events"),
  },
  host: {
    summary: "the thread host that runs detached threads: status|stop",
    load: () => import("./commands/host"),
  },
  doctor: {
    summary: "which agents are installed, their versions, what is missing",
    load: () => import("./commands/doctor"),
  },
  agents: {
    summary: "list|add|update|remove agents from the ACP Agent Registry",
    load: () => import("./commands/agents"),
  },
  runtime: {
    summary: "list|install|remove managed Node runtimes for agents that need a newer Node",
    load: () => import("./commands/runtime"),
  },
  exec: {
    summary: "run an agent CLI (codex exec, claude --print, ...) as a tracked process",
    load: () => import("./commands/exec"),
  },
  ps: { summary: "list exec runs", load: () => import("./commands/ps") },
  permissions: {
    summary: "list|revoke|clear remembered 'always allow' permission rules",
    load: () => import("./commands/permissions"),
  },
  logs: { summary: "print an exec run's output", load: () => import("./commands/logs") },
  kill: { summary: "kill an exec run (process group)", load: () => import("./commands/kill") },
  send: {
    summary: "type into a running exec run (a line, raw text or key names)",
    load: () => import("./commands/send"),
  },
  threads: { summary: "list|show|export|import|rename|delete threads", load: () => import("./commands/threads") },
  recall: { summary: "search past agent sessions", load: () => import("./commands/recall") },
  status: {
    summary: "recall index status: database, counts per source, last sync",
    load: () => import("./commands/status"),
  },
  "session-archive": {
    summary: "index one transcript file into recall",
    load: () => import("./commands/session-archive"),
  },
  mcp: { summary: "MCP server (stdio) exposing recall to agents", load: () => import("./commands/mcp") },
  usage: {
    summary: "tokens and costs agents reported, per day/agent/model/thread",
    load: () => import("./commands/usage"),
  },
  handoff: {
    summary: "hand a thread to another agent: a new linked thread seeded with a brief",
    load: () => import("./commands/handoff"),
  },
  fork: {
    summary: "fork a thread at a message into a new linked thread",
    load: () => import("./commands/fork"),
  },
  bundle: {
    summary: "save a thread's bug bundle (protocol traffic, records, versions; redacted)",
    load: () => import("./commands/bundle"),
  },
  replay: {
    summary: "replay a bug bundle against this client and report divergences",
    load: () => import("./commands/replay"),
  },
  changes: {
    summary: "what a thread's turns changed in the workspace (--format patch for a diff)",
    load: () => import("./commands/changes"),
  },
  restore: {
    summary: "put the files a thread changed back to before a turn (recorded, undoable)",
    load: () => import("./commands/restore"),
  },
  rewind: {
    summary: "go back to a prompt: restore the files to before it, fork the conversation there, or both",
    load: () => import("./commands/rewind"),
  },
  worktrees: {
    summary: "the git worktrees threads work in (run/exec --worktree): list, apply to the workspace, discard",
    load: () => import("./commands/worktrees"),
  },
  gc: {
    summary: "remove what outlives its thread (traffic, ledger blobs), the old trash, traffic over its cap",
    load: () => import("./commands/gc"),
  },
};

type LoadedCommand = { main: CommandMain; setLockLabel?: typeof setLockLabel; onPtyFallback?: typeof onPtyFallback };

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: acp-threads <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun 'acp-threads <command> --help' for a command's options.\n`;
}

export async function runCli(io: CliIO): Promise<number> {
  const [name, ...rest] = io.argv;
  if (name === "help" && rest[0] && Object.hasOwn(COMMANDS, rest[0]))
    return runCli({ ...io, argv: [rest[0], "--help"] });
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(usage());
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`acp-threads: unknown command '${name}'\n\n${usage()}`);
    return EXIT.usage;
  }
  const mod: LoadedCommand = await command.load();
  // A split command bundle (dist/cli/<name>.js, scripts/build.mjs) carries its own copy of these modules: its
  // hooks are the ones its code uses. Unbundled (tests), the module's exports are the shared ones.
  (mod.setLockLabel ?? setLockLabel)(`acp-threads ${name}`);
  // Exec runs and agent terminals fall back to pipes where node-pty is missing: say so once.
  const notice = (mod.onPtyFallback ?? onPtyFallback)((n) => io.stderr.write(`acp-threads: note: ${n.message}\n`));
  try {
    return await mod.main({ ...io, argv: rest });
  } finally {
    notice.dispose();
  }
}

if (require.main === module) {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // before a command's bundle is loaded (its code is what the cache keeps); `--version` and typos make no folder
  if (Object.hasOwn(COMMANDS, process.argv[2] ?? "")) enableCompileCache(process.env);
  avoidWorkerExitDeadlock(); // before any worker (recall, the ledger's walk, the thread catalog): Node < 24
  runCli({
    argv: process.argv.slice(2),
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`acp-threads: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = EXIT.error;
    },
  );
}
