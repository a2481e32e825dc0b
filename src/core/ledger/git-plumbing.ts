/**
 * The few git plumbing calls the ledger's workspace baseline uses, all read-only (`--no-optional-locks`: never
 * refreshes or rewrites the index). Paths come back `/`-separated and relative to the repository top.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const MAX_BUFFER = 512 * 1024 * 1024;

function git(cwd: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["--no-optional-locks", "-c", "core.quotepath=off", ...args],
      { cwd, encoding: "buffer", maxBuffer: MAX_BUFFER, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`git ${args[0]} failed: ${stderr.toString().trim() || err.message}`));
        else resolve(stdout);
      },
    );
  });
}

const zsplit = (buf: Buffer): string[] => buf.toString("utf8").split("\0").filter(Boolean);

export interface RepoInfo {
  /** Absolute top of the working tree. */
  top: string;
  /** Lowest-precedence ignore texts: the global excludes file, then `.git/info/exclude`. */
  excludes: string[];
}

/** The repository `cwd` is in, or undefined when it is not in one (or git is missing). */
export async function repoOf(cwd: string): Promise<RepoInfo | undefined> {
  let out: string[];
  try {
    out = (await git(cwd, ["rev-parse", "--show-toplevel", "--git-path", "info/exclude"])).toString().split("\n");
  } catch {
    return undefined;
  }
  const top = out[0]?.trim();
  if (!top) return undefined;
  const infoExclude = out[1]?.trim();
  let globalFile: string;
  try {
    globalFile = (await git(cwd, ["config", "--path", "--get", "core.excludesFile"])).toString().trim();
  } catch {
    const xdg = process.env.XDG_CONFIG_HOME || join(process.env.HOME ?? homedir(), ".config");
    globalFile = join(xdg, "git", "ignore");
  }
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
 * Blob contents by id from the repository's object database, through one long-lived `git cat-file --batch`
 * (a spawn per turn would cost more than the rest of the turn's bookkeeping). The process holds the event
 * loop only while a read is pending; it is started again if it dies.
 */
export class BlobReader {
  readonly #cwd: string;
  #child: ChildProcessWithoutNullStreams | undefined;
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
    this.#hold(true);
    child.stdin.write(ids.join("\n") + "\n");
    await Promise.all(results);
    if (!this.#waiting.length) this.#hold(false);
    return out;
  }

  dispose(): void {
    this.#child?.kill();
    this.#fail();
  }

  #process(): ChildProcessWithoutNullStreams {
    if (this.#child) return this.#child;
    const child = spawn("git", ["cat-file", "--batch"], { cwd: this.#cwd, stdio: ["pipe", "pipe", "ignore"] as never });
    child.stdout.on("data", (d: Buffer) => this.#data(d));
    const gone = () => {
      if (this.#child !== child) return;
      this.#child = undefined;
      this.#fail();
    };
    child.on("error", gone);
    child.on("close", gone);
    child.stdin.on("error", gone);
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

  /** Keeps the event loop alive only while answers are awaited. */
  #hold(on: boolean): void {
    const c = this.#child;
    if (!c) return;
    for (const h of [c, c.stdout, c.stdin] as { ref(): void; unref(): void }[])
      if (on) h.ref();
      else h.unref();
  }
}
