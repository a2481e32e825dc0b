/**
 * The few git plumbing calls the ledger's workspace baseline uses, all read-only (`--no-optional-locks`: never
 * refreshes or rewrites the index). Paths come back `/`-separated and relative to the repository top.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { terminalLauncher, type Launched } from "../platform/launcher";
import { git as runGit, GitError, gitOrNone, zsplit, type GitOptions } from "../platform/git";
import { signalTree } from "../platform/process-tree";
import { background } from "../util/unexpected";

/** The plumbing only reads: never refreshes or rewrites the index under the user's git. */
const READ = { readOnly: true, timeoutMs: 60_000 } satisfies GitOptions;
const git = (cwd: string, args: string[]) => runGit(cwd, args, READ);

export interface RepoInfo {
  /** Absolute top of the working tree. */
  top: string;
  /** Lowest-precedence ignore texts: the global excludes file, then `.git/info/exclude`. */
  excludes: string[];
}

/** The repository `cwd` is in, or undefined when it is in none git can read (or git is missing). */
export async function repoOf(cwd: string): Promise<RepoInfo | undefined> {
  let out: string[];
  try {
    out = (await git(cwd, ["rev-parse", "--show-toplevel", "--git-path", "info/exclude"])).split("\n");
  } catch (err) {
    // in no repository, or one git will not read for us (not installed, dubious ownership, too slow): the
    // baseline walks the folder instead
    if (err instanceof GitError) return undefined;
    throw err;
  }
  const top = out[0]?.trim();
  if (!top) return undefined;
  const infoExclude = out[1]?.trim();
  const xdg = process.env.XDG_CONFIG_HOME || join(process.env.HOME ?? homedir(), ".config");
  const globalFile =
    (await gitOrNone(cwd, ["config", "--path", "--get", "core.excludesFile"], READ)) || join(xdg, "git", "ignore");
  const read = (p: string) => {
    try {
      return readFileSync(p, "utf8");
    } catch {
      return "";
    }
  };
  return { top, excludes: [read(globalFile), infoExclude ? read(join(cwd, infoExclude)) : ""] };
}

export interface IndexEntry {
  path: string;
  id: string;
}

/** Regular files of the index (stage 0) below `cwd`, with their blob ids. Symlinks and submodules are left out. */
export async function indexEntries(cwd: string): Promise<IndexEntry[]> {
  const out: IndexEntry[] = [];
  for (const line of zsplit(await git(cwd, ["ls-files", "-s", "-z", "--full-name", "--", "."]))) {
    const tab = line.indexOf("\t");
    const [mode, id, stage] = line.slice(0, tab).split(" ");
    if (stage !== "0" || (mode !== "100644" && mode !== "100755")) continue;
    out.push({ path: line.slice(tab + 1), id });
  }
  return out;
}

/** Files below `cwd` whose worktree content may differ from the index, and untracked files not ignored. */
export async function worktreeChanges(cwd: string): Promise<{ modified: string[]; untracked: string[] }> {
  const fields = zsplit(await git(cwd, ["status", "--porcelain=v2", "-z", "--untracked-files=all", "--", "."]));
  const modified: string[] = [];
  const untracked: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.startsWith("? ")) untracked.push(f.slice(2));
    else if (f.startsWith("1 ")) modified.push(f.split(" ").slice(8).join(" "));
    else if (f.startsWith("2 ")) {
      modified.push(f.split(" ").slice(9).join(" "));
      i++; // the rename's original path follows as its own field
    } else if (f.startsWith("u ")) modified.push(f.split(" ").slice(10).join(" "));
  }
  return { modified, untracked: untracked.filter((p) => !p.endsWith("/")) };
}

/**
 * A workspace's files as git knows them, relative to the workspace (`prefix`: its path below the repository's
 * top, "" at the top): the clean tracked files with their blob ids (their content stays in git's object
 * database), the modified and untracked files (to be read), and how many files that is in all.
 */
export async function gitWorkspace(
  cwd: string,
  prefix: string,
): Promise<{ clean: IndexEntry[]; toRead: string[]; count: number }> {
  const [index, changes] = await Promise.all([indexEntries(cwd), worktreeChanges(cwd)]);
  const fromTop = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
  const changed = new Set(changes.modified.map(fromTop));
  const untracked = changes.untracked.map(fromTop);
  const clean = index.map((e) => ({ path: fromTop(e.path), id: e.id })).filter((e) => !changed.has(e.path));
  return { clean, toRead: [...changed, ...untracked], count: index.length + untracked.length };
}

/**
 * Blob contents by id from the repository's object database, through one long-lived `git cat-file --batch`
 * (a spawn per turn would cost more than the rest of the turn's bookkeeping), started by the launcher (the
 * extension host's spawner, #24). The process holds the event loop only while a read is pending; it is started
 * again if it dies (or for a read after `dispose`: its owner then disposes it again).
 */
export class BlobReader {
  readonly #cwd: string;
  #child: Launched | undefined;
  #buf: Buffer = Buffer.alloc(0);
  readonly #waiting: ((content: Buffer | undefined) => void)[] = [];

  constructor(cwd: string) {
    this.#cwd = cwd;
  }

  /** Contents by id; ids git does not have are left out. */
  async read(ids: readonly string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    if (!ids.length) return out;
    const child = this.#process();
    const results = ids.map((id) =>
      new Promise<Buffer | undefined>((resolve) => this.#waiting.push(resolve)).then((b) => b && out.set(id, b)),
    );
    child.hold?.(true);
    child.stdin.write(ids.join("\n") + "\n");
    await Promise.all(results);
    if (!this.#waiting.length && this.#child === child) child.hold?.(false);
    return out;
  }

  dispose(): void {
    const child = this.#child;
    this.#child = undefined;
    if (child) {
      child.stdin.end(); // cat-file ends at EOF
      if (child.pid !== undefined) signalTree(child.pid, "SIGTERM");
    }
    this.#fail();
  }

  #process(): Launched {
    if (this.#child) return this.#child;
    const child = terminalLauncher().launch({
      file: "git",
      args: ["cat-file", "--batch"],
      cwd: this.#cwd,
      env: process.env,
    });
    child.stdout.on("data", (d: Buffer) => this.#data(d));
    child.stderr.resume();
    const gone = () => {
      if (this.#child !== child) return;
      this.#child = undefined;
      this.#fail();
    };
    child.stdin.on("error", gone);
    background(child.exit.then(gone), "watching the ledger's git reader");
    this.#child = child;
    return child;
  }

  #data(d: Buffer): void {
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, d]) : d;
    for (;;) {
      const nl = this.#buf.indexOf(0x0a);
      if (nl < 0) return;
      const [, type, size] = this.#buf.toString("utf8", 0, nl).split(" ");
      if (type === "missing" || size === undefined) {
        this.#buf = this.#buf.subarray(nl + 1);
        this.#waiting.shift()?.(undefined);
        continue;
      }
      const n = Number(size);
      if (this.#buf.length < nl + 1 + n + 1) return;
      const content = Buffer.from(this.#buf.subarray(nl + 1, nl + 1 + n));
      this.#buf = this.#buf.subarray(nl + 1 + n + 1);
      this.#waiting.shift()?.(type === "blob" ? content : undefined);
    }
  }

  #fail(): void {
    this.#buf = Buffer.alloc(0);
    for (const w of this.#waiting.splice(0)) w(undefined);
  }
}
