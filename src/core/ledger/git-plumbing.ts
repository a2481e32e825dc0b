/**
 * The few git plumbing calls the ledger's workspace baseline uses, all read-only (`--no-optional-locks`: never
 * refreshes or rewrites the index). Paths come back `/`-separated and relative to the repository top.
 */
import { execFile, spawn } from "node:child_process";
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

/** Blob contents by id from the repository's object database; missing ids are left out. */
export function readBlobs(cwd: string, ids: readonly string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, Buffer>();
    if (!ids.length) return resolve(out);
    const child = spawn("git", ["cat-file", "--batch"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    child.on("error", reject);
    child.on("close", () => {
      const buf = Buffer.concat(chunks);
      let at = 0;
      while (at < buf.length) {
        const nl = buf.indexOf(0x0a, at);
        if (nl < 0) break;
        const [id, type, size] = buf.toString("utf8", at, nl).split(" ");
        at = nl + 1;
        if (type === "missing" || size === undefined) continue;
        const n = Number(size);
        if (type === "blob") out.set(id, buf.subarray(at, at + n));
        at += n + 1;
      }
      resolve(out);
    });
    child.stdin.end(ids.join("\n") + "\n");
  });
}
