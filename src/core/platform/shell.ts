/**
 * How a command line or a program is started on each platform.
 * - A shell line ("make && make test", claude-code-acp's `echo hi`): `/bin/sh -c LINE` on POSIX,
 *   `cmd.exe /d /s /c "LINE"` on Windows (what node's `shell: true` does there).
 * - A program: as it is, except Windows batch files (`.cmd` / `.bat`, e.g. every npm-installed agent), which
 *   node refuses to spawn directly (EINVAL since the 2024 BatBadBut fix). An npm shim is unwrapped to
 *   `node <its script> args` (no cmd.exe, so no quoting trouble and newlines in a prompt survive); any other
 *   batch file runs through cmd.exe with every argument quoted for it.
 * `verbatim` launches must be spawned with `windowsVerbatimArguments: true` (their arguments are already
 * quoted for cmd.exe); node-pty on Windows takes such arguments as one pre-quoted string.
 */
import { readFileSync } from "node:fs";
import { envGet } from "./env";
import { findExecutable } from "./executables";
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

export interface Launch {
  file: string;
  args: string[];
  /** Windows: `args` are quoted for cmd.exe already; spawn with `windowsVerbatimArguments`. */
  verbatim?: boolean;
}

/** cmd.exe's special characters (quotes included: they are escaped, so cmd never toggles its quote state). */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

export function comspec(p: Platform = HOST_PLATFORM): string {
  return envGet(p.env, "ComSpec", p) || "cmd.exe";
}

/** A shell command line, run by the platform's shell. */
export function shellLine(line: string, p: Platform = HOST_PLATFORM): Launch {
  if (!isWindows(p)) return { file: "/bin/sh", args: ["-c", line] };
  return { file: comspec(p), args: ["/d", "/s", "/c", `"${line}"`], verbatim: true };
}

/**
 * One argument for a program started through cmd.exe: quoted as the C runtime parses it (backslashes before a
 * quote doubled, the quote escaped), then every cmd.exe special character caret-escaped — twice for a batch
 * file, whose `%*` is parsed by cmd.exe once more.
 */
export function quoteCmdArg(arg: string, batchFile: boolean): string {
  let q = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1");
  q = `"${q}"`.replace(CMD_META, "^$1");
  return batchFile ? q.replace(CMD_META, "^$1") : q;
}

/** The command line for cmd.exe that runs `file args` (a batch file; its path is quoted, it cannot hold `"`). */
function throughCmd(file: string, args: readonly string[], p: Platform): Launch {
  const line = [`"${file}"`, ...args.map((a) => quoteCmdArg(a, true))].join(" ");
  return { file: comspec(p), args: ["/d", "/s", "/c", `"${line}"`], verbatim: true };
}

/**
 * The JavaScript file an npm `.cmd` shim runs (`"%_prog%" "%dp0%\node_modules\pkg\bin\x.js" %*`), or undefined
 * when `text` is not such a shim.
 */
export function npmShimTarget(shimPath: string, text: string, p: Platform = HOST_PLATFORM): string | undefined {
  const m = /"%dp0%\\([^"]+)"\s+%\*/i.exec(text);
  if (!m || !/\.[cm]?js$/i.test(m[1]!)) return undefined;
  return p.path.join(p.path.dirname(shimPath), m[1]!);
}

export interface LaunchOptions {
  platform?: Platform;
  env?: NodeJS.ProcessEnv;
  /** Reads a shim (tests inject one). */
  readText?: (path: string) => string;
  /** Finds `node` for an unwrapped npm shim (default: PATH of `env`). */
  findNode?: () => string | null;
}

/** How to start `file args` (`file` resolved to an absolute path already). */
export function launchProgram(file: string, args: readonly string[], opts: LaunchOptions = {}): Launch {
  const p = opts.platform ?? HOST_PLATFORM;
  if (!isWindows(p)) return { file, args: [...args] };
  // cmd.exe itself (a `shellLine`): its arguments are already quoted for it.
  if (p.path.basename(file).toLowerCase() === "cmd.exe") return { file, args: [...args], verbatim: true };
  if (!/\.(cmd|bat)$/i.test(file)) return { file, args: [...args] };
  let text = "";
  try {
    text = (opts.readText ?? ((f) => readFileSync(f, "utf8")))(file);
  } catch {
    // unreadable: cmd.exe can still run it
  }
  const script = npmShimTarget(file, text, p);
  if (script) {
    const env = opts.env ?? p.env;
    const local = p.path.join(p.path.dirname(file), "node.exe");
    const node =
      opts.findNode?.() ??
      findExecutable(local, { cwd: p.path.dirname(file), env, platform: p }) ??
      findExecutable("node", { cwd: p.path.dirname(file), env, platform: p });
    if (node) return { file: node, args: [script, ...args] };
  }
  return throughCmd(file, args, p);
}

/** node-pty on Windows takes a verbatim command line as one string; elsewhere the argument list. */
export function ptyArgs(launch: Launch, p: Platform = HOST_PLATFORM): string[] | string {
  return isWindows(p) && launch.verbatim ? launch.args.join(" ") : launch.args;
}
