/**
 * `.worktreeinclude`: ignored files a fresh worktree also needs (`.env`, local config, a built dependency
 * folder), listed with gitignore patterns at the top of the repository. A file or folder git reports as ignored
 * (`git ls-files --others --ignored --directory`: a wholly ignored folder comes as one entry) is copied into the
 * worktree when the patterns match it. Patterns never reach outside the repository: one with a `..` segment or
 * an absolute drive path is skipped with a warning, every copy's target is checked to stay inside the worktree,
 * and symbolic links are copied as links (never followed).
 */
import { cp, readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { IgnoreMatcher } from "../ledger/gitignore";
import { git, zsplit } from "../platform/git";

export const INCLUDE_FILE = ".worktreeinclude";

export interface IncludeResult {
  /** Repository-relative paths copied (`/`-separated; a folder ends with `/`). */
  copied: string[];
  warnings: string[];
}

/** The usable patterns of a `.worktreeinclude` text, and a warning for each line that tries to leave the repository. */
export function includePatterns(text: string): { patterns: string; warnings: string[] } {
  const warnings: string[] = [];
  const kept: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const body = line.replace(/^!/, "").trim();
    if (body && !body.startsWith("#") && (/(^|[\\/])\.\.([\\/]|$)/.test(body) || /^([a-zA-Z]:)?[\\]/.test(body))) {
      warnings.push(
        `${INCLUDE_FILE}: '${line}' is skipped: patterns are relative to the repository and stay inside it`,
      );
      continue;
    }
    kept.push(line);
  }
  return { patterns: kept.join("\n"), warnings };
}

/** Copies the ignored files `.worktreeinclude` names from the repository `top` into the new worktree `dest`. */
export async function copyIncluded(top: string, dest: string): Promise<IncludeResult> {
  const text = await readFile(join(top, INCLUDE_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return { copied: [], warnings: [] };
  const { patterns, warnings } = includePatterns(text);
  // the include patterns as a gitignore of their own: "ignored" by them = included
  const matcher = new IgnoreMatcher(top, { extra: [patterns], readFile: () => undefined });
  const listed = zsplit(
    await git(top, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"]),
  );
  const root = resolve(dest) + sep;
  const copied: string[] = [];
  for (const entry of listed) {
    const isDir = entry.endsWith("/");
    const rel = isDir ? entry.slice(0, -1) : entry;
    if (!rel || rel.split("/").some((p) => p === ".." || p === ".git")) continue;
    if (!matcher.ignores(rel, isDir)) continue;
    const target = resolve(dest, rel);
    if (!target.startsWith(root)) continue;
    try {
      await cp(join(top, rel), target, {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
        errorOnExist: false,
        force: false,
      });
      copied.push(entry);
    } catch (err) {
      warnings.push(`${INCLUDE_FILE}: could not copy ${entry}: ${(err as Error).message}`);
    }
  }
  return { copied, warnings };
}
