/**
 * The one git runner of the engine: `git -C cwd …` without a shell, through the command runner (run-to-end.ts's
 * `runCommand`: the extension host points it at its spawner, so the fork never happens on the host's thread; the
 * CLI forks itself) or a `run` the caller injects. A failure is a `GitError` with the command, git's exit code and
 * the tail of its stderr. Callers that take "not a repository" as an answer say so with `notARepo`.
 */
import { execFileSync } from "node:child_process";
import { runCommand, type RunRequest, type RunResult } from "./run-to-end";

/**
 * The most output one call may give (stdout or stderr). Through the spawner it crosses a JSON channel as one
 * string (a NUL, `-z`'s separator, grows to six characters there; a blob is base64): 64 MiB stays far below V8's
 * string limit and is hundreds of thousands of index entries.
 */
export const GIT_MAX_OUTPUT = 64 * 1024 * 1024;
export const GIT_TIMEOUT_MS = 120_000;
/** The most of git's stderr a GitError keeps (its last lines say what went wrong). */
const STDERR_TAIL_CHARS = 4000;

export class GitError extends Error {
  constructor(
    /** The arguments after `git` (without the runner's own `-c` options). */
    readonly args: readonly string[],
    /** Git's exit code; null when it did not exit on its own (not found, killed, over its output limit). */
    readonly exitCode: number | null,
    /** The tail of git's stderr, trimmed. */
    readonly stderr: string,
    message: string,
    /** Why git did not run or finish (`ENOENT`: git is not installed; `EOUTPUTLIMIT`), when that is the failure. */
    readonly errno?: string,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export interface GitOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Read-only calls: `--no-optional-locks` (never refreshes or rewrites the index under the user's git). */
  readOnly?: boolean;
  /** Extra `-c name=value` settings. */
  config?: readonly string[];
  /** The process runner (default: the installed command runner, the spawner on the extension host). */
  run?: (req: RunRequest) => Promise<RunResult>;
}

const tail = (text: string) => {
  const t = text.trim();
  return t.length > STDERR_TAIL_CHARS ? `…${t.slice(-STDERR_TAIL_CHARS)}` : t;
};

function argv(args: readonly string[], opts: GitOptions): string[] {
  return [
    ...(opts.readOnly ? ["--no-optional-locks"] : []),
    "-c",
    "core.quotepath=off",
    ...(opts.config ?? []).flatMap((c) => ["-c", c]),
    ...args,
  ];
}

export function gitErrorOf(args: readonly string[], r: Pick<RunResult, "code" | "signal" | "stderr" | "error">) {
  const stderr = tail(r.stderr);
  const why = r.error?.message ?? (r.signal ? `killed by ${r.signal}` : `exit code ${r.code}`);
  return new GitError(args, r.error ? null : r.code, stderr, `git ${args[0]} failed: ${stderr || why}`, r.error?.code);
}

/** Runs git to its end; the exit code is the caller's to read (`git merge-file` counts conflicts with it). */
export async function gitRun(
  cwd: string,
  args: readonly string[],
  opts: GitOptions = {},
): Promise<{ code: number | null; stdout: Buffer; result: RunResult }> {
  const result = await (opts.run ?? runCommand)({
    file: "git",
    args: argv(args, opts),
    cwd,
    timeoutMs: opts.timeoutMs ?? GIT_TIMEOUT_MS,
    maxBytes: opts.maxBytes ?? GIT_MAX_OUTPUT,
    stdoutEncoding: "base64",
  });
  return { code: result.error ? null : result.code, stdout: Buffer.from(result.stdout, "base64"), result };
}

/** Git's stdout as bytes; a failure (any exit but 0) as a GitError. */
export async function gitBuffer(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<Buffer> {
  const { code, stdout, result } = await gitRun(cwd, args, opts);
  if (code === 0 && !result.signal) return stdout;
  throw gitErrorOf(args, result);
}

/** Git's stdout as text; a failure as a GitError. */
export async function git(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<string> {
  return (await gitBuffer(cwd, args, opts)).toString("utf8");
}

/**
 * `git` for the few one-shot callers that cannot wait (a CLI command's flags, a snapshot's restore): blocks the
 * caller's thread, so never on a path the editor runs per request or per turn.
 */
export function gitSync(cwd: string, args: readonly string[], opts: Omit<GitOptions, "run"> = {}): string {
  try {
    return execFileSync("git", argv(args, opts), {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: opts.timeoutMs ?? GIT_TIMEOUT_MS,
      maxBuffer: opts.maxBytes ?? GIT_MAX_OUTPUT,
      windowsHide: true,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & {
      status?: number | null;
      signal?: NodeJS.Signals | null;
      stderr?: string;
    };
    const started = typeof e.status === "number" || !!e.signal;
    throw gitErrorOf(args, {
      code: e.status ?? null,
      signal: e.signal ?? null,
      stderr: String(e.stderr ?? ""),
      ...(started ? {} : { error: { message: e.message, ...(e.code ? { code: e.code } : {}) } }),
    });
  }
}

/** NUL-separated output as a list (empty entries dropped). */
export const zsplit = (text: string): string[] => text.split("\0").filter(Boolean);

/**
 * Whether `err` says the folder is in no repository (or git is not installed, so no folder is in one): the answer
 * callers that work without a repository take, explicitly. Any other failure is a failure.
 */
export function notARepo(err: unknown): boolean {
  if (!(err instanceof GitError)) return false;
  return err.errno === "ENOENT" || (err.exitCode === 128 && /not a git repository/i.test(err.stderr));
}

/** The top of the working tree `cwd` is in, or undefined when it is in no repository (or git is missing). */
export async function repoTop(cwd: string, opts: GitOptions = {}): Promise<string | undefined> {
  try {
    return (await git(cwd, ["rev-parse", "--show-toplevel"], opts)).trim() || undefined;
  } catch (err) {
    if (notARepo(err)) return undefined;
    throw err;
  }
}

/** A call whose "no" is exit code 1 with nothing said (`rev-parse --verify --quiet`, `config --get`): undefined. */
export async function gitOrNone(cwd: string, args: readonly string[], opts: GitOptions): Promise<string | undefined> {
  const { code, stdout, result } = await gitRun(cwd, args, opts);
  if (code === 0 && !result.signal) return stdout.toString("utf8").trim();
  if (code === 1 && !result.stderr.trim()) return undefined;
  throw gitErrorOf(args, result);
}

/** The commit id `rev` names, or undefined when there is none (no such ref, no commit yet). */
export const revParseOrNone = (cwd: string, rev: string, opts: GitOptions = {}): Promise<string | undefined> =>
  gitOrNone(cwd, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev], opts);

/** The value of the git setting `name`, or undefined when it is not set. */
export const configOrNone = (cwd: string, name: string, opts: GitOptions = {}): Promise<string | undefined> =>
  gitOrNone(cwd, ["config", "--get", name], opts);
