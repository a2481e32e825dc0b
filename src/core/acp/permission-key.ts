/**
 * What a remembered permission is about, in words a person can read and edit: for `execute` the command's
 * program and subcommand (`npm test`, `git status`), for edits and reads the path. A request we cannot key
 * (a shell line with pipes or `&&`, `bash -c ...`, `sudo ...`, no command at all) is never remembered: the
 * reason says why, and "always" then acts as "once". There is no wildcard key.
 */
import { splitCommandLine } from "./agent-registry";
import type * as acp from "@agentclientprotocol/sdk";

export type PermissionKey = { ok: true; key: string } | { ok: false; reason: string };

/** Runs whatever follows it: its "subcommand" is another program, so one rule would cover anything. */
const WRAPPERS: ReadonlySet<string> = new Set([
  "sudo",
  "doas",
  "su",
  "env",
  "exec",
  "eval",
  "xargs",
  "nohup",
  "timeout",
  "time",
  "nice",
  "ionice",
  "command",
  "builtin",
  "watch",
  "strace",
  "chroot",
  "unshare",
  "setsid",
  "stdbuf",
]);
/** Interpreters: `bash script.sh` can be keyed, `bash -c '…'` / `node -e '…'` cannot. */
const INTERPRETERS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "fish",
  "ksh",
  "csh",
  "tcsh",
  "pwsh",
  "powershell",
  "cmd",
  "node",
  "deno",
  "bun",
  "python",
  "python3",
  "perl",
  "ruby",
  "php",
  "lua",
  "osascript",
]);
/** Shell syntax that chains, substitutes, redirects or backgrounds: the line is more than one command. */
const SHELL_SYNTAX = /[;&|`<>\n\r(){}]|\$\(|\$\{/;
const WORD = /^[A-Za-z0-9][A-Za-z0-9_.:@+-]*$/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The key of a shell command line: "program subcommand", or why it has none. */
export function commandKey(commandLine: string): PermissionKey {
  const line = commandLine.trim();
  if (!line) return { ok: false, reason: "the request names no command" };
  if (SHELL_SYNTAX.test(line)) {
    return { ok: false, reason: `"${clip(line)}" is a shell line with pipes, chains, redirections or substitutions` };
  }
  const words = splitWords(line);
  if (!words) return { ok: false, reason: `"${clip(line)}" has unbalanced quotes` };
  if (!words.length) return { ok: false, reason: "the request names no command" };
  if (ENV_ASSIGNMENT.test(words[0])) return { ok: false, reason: `"${clip(line)}" sets environment variables first` };
  const program = words[0];
  const base = program.split("/").pop()!.toLowerCase();
  if (WRAPPERS.has(base)) return { ok: false, reason: `"${program}" runs another command` };
  const sub = words[1] !== undefined && WORD.test(words[1]) ? words[1] : undefined;
  if (INTERPRETERS.has(base.replace(/\.exe$/, "")) && !sub) {
    return { ok: false, reason: `"${clip(line)}" runs inline code` };
  }
  return { ok: true, key: sub ? `${program} ${sub}` : program };
}

/**
 * The command line an `execute` permission is about, from what real agents send: `rawInput.command` (a string —
 * claude-agent-acp, opencode, gemini — or an argv array, `["bash","-lc","npm test"]` from codex-acp),
 * `rawInput.cmd`, else the title (claude wraps it in backticks).
 */
export function executeCommandLine(toolCall: acp.ToolCallUpdate): string | undefined {
  const raw = toolCall.rawInput as { command?: unknown; cmd?: unknown } | null | undefined;
  const command = raw && typeof raw === "object" ? (raw.command ?? raw.cmd) : undefined;
  if (typeof command === "string" && command.trim()) return command;
  if (Array.isArray(command) && command.length && command.every((w) => typeof w === "string")) {
    return argvLine(command as string[]);
  }
  const title = toolCall.title?.trim();
  if (!title) return undefined;
  const ticked = /^`([^`]+)`$/.exec(title);
  return ticked ? ticked[1] : title;
}

/** An argv as one line; a shell wrapper's script (`bash -lc "npm test"`) is the line itself. */
export function argvLine(argv: readonly string[]): string {
  const base = (argv[0] ?? "").split("/").pop()!;
  if (argv.length === 3 && INTERPRETERS.has(base) && /^-[a-z]*c$/.test(argv[1])) return argv[2];
  return argv.map((w) => (/^[A-Za-z0-9_./:@=+-]+$/.test(w) ? w : JSON.stringify(w))).join(" ");
}

/** The key of a permission request of `kind`: a path for file tools, a command for `execute`. */
export function requestKey(kind: string, toolCall: acp.ToolCallUpdate, path: string | undefined): PermissionKey {
  if (kind === "execute") {
    const line = executeCommandLine(toolCall);
    return line ? commandKey(line) : { ok: false, reason: "the request names no command" };
  }
  if (path) return { ok: true, key: path };
  return { ok: false, reason: `the ${kind} request names no file` };
}

/** Splits a command line into words with the shell quoting of agent command lines; null on an unbalanced quote. */
function splitWords(line: string): string[] | null {
  try {
    return splitCommandLine(line);
  } catch {
    return null;
  }
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
