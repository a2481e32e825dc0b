/**
 * What a remembered permission is about, in words a person can read and edit: for `execute` the exact command
 * line the user saw (`npm test`, `rm -f junk.log`: never only its program, which would cover `rm -rf ~`), for
 * edits and reads the path. A request we cannot key (a shell line with pipes or `&&`, `bash -c ...`, `sudo ...`,
 * a line that sets environment variables, no command at all) is never remembered: the reason says why, and
 * "always" then acts as "once". There is no wildcard key (a user may write `npm run *` by hand).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { canonicalCommand, wordsOf as splitWords } from "./permission-rules";

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
  // env values may be secrets (never written to the rules file), and PATH / LD_PRELOAD / NODE_OPTIONS change what
  // runs: a line with env is allowed once at a time
  if (ENV_ASSIGNMENT.test(words[0]))
    return { ok: false, reason: `"${clip(withoutEnvValues(line))}" sets environment variables` };
  const program = words[0];
  const base = program.split("/").pop()!.toLowerCase();
  if (WRAPPERS.has(base)) return { ok: false, reason: `"${program}" runs another command` };
  const sub = words[1] !== undefined && WORD.test(words[1]) ? words[1] : undefined;
  if (INTERPRETERS.has(base.replace(/\.exe$/, "")) && !sub) {
    return { ok: false, reason: `"${clip(line)}" runs inline code` };
  }
  return { ok: true, key: canonicalCommand(line) };
}

/**
 * "Always allow" widened by the person in the prompt: a remembered command line of three words or more with its
 * last word made the one wildcard (`npm run build` → `npm run *`, `git log --oneline` → `git log *`), offered
 * next to the exact line; nothing for shorter lines (`git *` would cover every git command) or unkeyable ones.
 */
export function widenedCommand(key: PermissionKey): string | undefined {
  if (!key.ok) return undefined;
  const words = splitWords(key.key);
  if (!words || words.length < 3) return undefined;
  return `${canonicalCommand(argvLine(words.slice(0, -1)))} *`;
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

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `FOO=secret npm test` → `FOO=… npm test`: a line's leading env assignments with their values left out. */
export function withoutEnvValues(line: string): string {
  const words = splitWords(line.trim());
  if (!words || !words.length || !ENV_ASSIGNMENT.test(words[0])) return line;
  let i = 0;
  while (i < words.length && ENV_ASSIGNMENT.test(words[i])) i++;
  const names = words.slice(0, i).map((w) => `${w.slice(0, w.indexOf("="))}=…`);
  // the rest as the line wrote it: skip the assignments' text (quoted values may hold spaces)
  return [...names, restAfter(line.trim(), i)].filter(Boolean).join(" ");
}

/** The text of `line` after its first `n` words (quotes and backslashes as splitCommandLine reads them). */
function restAfter(line: string, n: number): string {
  let quote: string | null = null;
  let words = 0;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"') i++;
    } else if (/\s/.test(ch)) {
      if (inWord && ++words === n) return line.slice(i).trimStart();
      inWord = false;
    } else {
      inWord = true;
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "\\") i++;
    }
  }
  return "";
}
