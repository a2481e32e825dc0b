/**
 * The few git facts threads and snapshots record, through the one git runner (platform/git.ts). A folder in no
 * repository reads as null, and so does any other failure (timeouts included): the facts are a thread's decoration, never a reason
 * for it not to start.
 */
import { git, gitSync, type GitOptions } from "../platform/git";

export type GitInfo = { repoRoot: string | null; gitHead: string | null };

/** The facts are best-effort: no repository, no commit yet, git missing or slow all read as "unknown". */
const FACT_OPTIONS = { timeoutMs: 5000 } satisfies GitOptions;
const TOP = ["rev-parse", "--show-toplevel"];
const HEAD = ["rev-parse", "--verify", "-q", "HEAD"];

const fact = (out: string | null) => out?.trim() || null;
/** Any failure is an unknown fact, on purpose (a folder in no repository the usual one; a timeout the same). */
const unknownFact = (): null => null;

function syncFact(cwd: string, args: string[]): string | null {
  try {
    return fact(gitSync(cwd, args, FACT_OPTIONS));
  } catch {
    return unknownFact();
  }
}

const asyncFact = (cwd: string, args: string[]): Promise<string | null> =>
  git(cwd, args, FACT_OPTIONS).then(fact, unknownFact);

/** `gitInfoAsync` for one-shot CLI callers (blocks: never on the editor's per-request paths). */
export function gitInfo(cwd: string): GitInfo {
  const repoRoot = syncFact(cwd, TOP);
  return { repoRoot, gitHead: repoRoot ? syncFact(cwd, HEAD) : null };
}

/**
 * `gitInfo` without blocking the caller's thread: a session start on the extension host runs two git processes
 * for it (~100 ms each on a loaded machine, a long task per session with execFileSync; #24), through the
 * spawner there.
 */
export async function gitInfoAsync(cwd: string): Promise<GitInfo> {
  const repoRoot = await asyncFact(cwd, TOP);
  return { repoRoot, gitHead: repoRoot ? await asyncFact(cwd, HEAD) : null };
}

/** Whether `commit` exists in the repository at `cwd`. */
export function commitExists(cwd: string, commit: string): boolean {
  if (!/^[0-9a-f]{4,64}$/i.test(commit)) return false;
  return syncFact(cwd, ["cat-file", "-t", `${commit}^{commit}`]) === "commit";
}
