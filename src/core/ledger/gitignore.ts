/**
 * gitignore semantics (gitignore(5)), for workspaces that are not git repositories and for paths that appear
 * after the ledger's baseline was listed by git itself. Covers comments, escapes, trailing spaces, `!`
 * negation, directory-only patterns, anchoring by a slash, `*` `?` `[...]` (incl. `[!..]`, POSIX classes),
 * `**` in leading, trailing and middle position; deeper .gitignore files override shallower ones, which override
 * `.git/info/exclude`, which overrides the global excludes file; a file below an ignored directory cannot be
 * re-included; `.git` is always ignored. Paths are relative to the root the rules were loaded for and
 * `/`-separated (on Windows `\` is accepted too, and matching ignores case as git's `core.ignorecase` does there);
 * differential unit tests compare the answers with `git check-ignore`.
 */
import { readFileSync } from "node:fs";
import { HOST_PLATFORM, isWindows, type Platform } from "../platform/host";
import { toSlashes } from "./rel-path";

interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\r\\f\\v",
  upper: "A-Z",
  xdigit: "0-9a-fA-F",
};

const escapeRe = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** A bracket expression starting at `glob[i] === "["`; returns [regex source, next index] or undefined if unclosed. */
function bracket(glob: string, i: number): [string, number] | undefined {
  let j = i + 1;
  let negate = false;
  if (glob[j] === "!" || glob[j] === "^") {
    negate = true;
    j++;
  }
  let body = "";
  let first = true;
  while (j < glob.length) {
    const c = glob[j];
    if (c === "]" && !first) return [`[${negate ? "^" : ""}${body}${negate ? "/" : ""}]`, j + 1];
    first = false;
    if (c === "[" && glob[j + 1] === ":") {
      const end = glob.indexOf(":]", j + 2);
      const cls = end > 0 ? POSIX_CLASSES[glob.slice(j + 2, end)] : undefined;
      if (cls) {
        body += cls;
        j = end + 2;
        continue;
      }
    }
    if (c === "\\" && j + 1 < glob.length) {
      body += escapeRe(glob[j + 1]);
      j += 2;
      continue;
    }
    if (c === "-" && body && glob[j + 1] !== "]") body += "-";
    else body += escapeRe(c);
    j++;
  }
  return undefined;
}

/** Regex source for a glob segment sequence where `*`, `?`, `[..]` never cross a `/`. */
function globToRe(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length;) {
    const c = glob[i];
    if (c === "*") {
      // `**` as a whole path component: any number of directories
      const atStart = i === 0 || glob[i - 1] === "/";
      let j = i;
      while (glob[j] === "*") j++;
      const atEnd = j === glob.length || glob[j] === "/";
      if (j - i >= 2 && atStart && atEnd) {
        if (j === glob.length)
          out += ".*"; // "foo/**" → everything inside
        else {
          out += "(?:.*/)?"; // "**/" → zero or more directories
          j++;
        }
      } else out += "[^/]*";
      i = j;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const b = bracket(glob, i);
      if (b) {
        out += b[0];
        i = b[1];
      } else {
        out += "\\[";
        i++;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRe(glob[i + 1]);
      i += 2;
    } else {
      out += escapeRe(c);
      i++;
    }
  }
  return out;
}

/** Parses one line of a gitignore file; undefined for blanks and comments. */
export function parseRule(line: string, ignoreCase = false): Rule | undefined {
  let p = line.replace(/\r$/, "");
  // trailing spaces are dropped unless escaped
  p = p.replace(/(?<!\\)((?:\\\\)*) +$/, "$1");
  if (!p || p.startsWith("#")) return undefined;
  let negate = false;
  if (p.startsWith("!")) {
    negate = true;
    p = p.slice(1);
  } else if (p.startsWith("\\!") || p.startsWith("\\#")) p = p.slice(1);
  let dirOnly = false;
  if (p.endsWith("/") && !p.endsWith("\\/")) {
    dirOnly = true;
    p = p.replace(/\/+$/, "");
  }
  if (!p) return undefined;
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  const body = globToRe(p);
  const re = new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`, ignoreCase ? "i" : "");
  return { re, negate, dirOnly };
}

export function parseRules(text: string, ignoreCase = false): Rule[] {
  return text.split("\n").flatMap((l) => parseRule(l, ignoreCase) ?? []);
}

interface Level {
  /** Directory the rules are relative to ("" = root). */
  base: string;
  rules: Rule[];
}

export interface IgnoreOptions {
  /** Lowest-precedence rule texts (global excludes file, then .git/info/exclude), root-relative. */
  extra?: string[];
  /** Reads a .gitignore (`/`-separated path); default: from disk under the root. */
  readFile?: (rel: string) => string | undefined;
  /** Separators and case (default: this machine's). */
  platform?: Platform;
  /** Match ignoring case (default: on Windows, as git there sets `core.ignorecase`). */
  ignoreCase?: boolean;
}

/** Answers "is this path ignored" for one root, loading each directory's .gitignore once. */
export class IgnoreMatcher {
  readonly #root: string;
  readonly #extra: Level;
  readonly #levels = new Map<string, Rule[]>();
  readonly #dirCache = new Map<string, boolean>();
  readonly #read: (rel: string) => string | undefined;
  readonly #platform: Platform;
  readonly #ignoreCase: boolean;

  constructor(root: string, opts: IgnoreOptions = {}) {
    this.#root = root;
    this.#platform = opts.platform ?? HOST_PLATFORM;
    this.#ignoreCase = opts.ignoreCase ?? isWindows(this.#platform);
    this.#extra = { base: "", rules: (opts.extra ?? []).flatMap((t) => parseRules(t, this.#ignoreCase)) };
    this.#read = opts.readFile ?? ((rel) => readText(this.#platform.path.join(this.#root, rel)));
  }

  /** Forget cached .gitignore contents (one changed on disk). */
  reset(): void {
    this.#levels.clear();
    this.#dirCache.clear();
  }

  /** `rel` is root-relative (`/`-separated; `\` too on Windows); `isDir` says whether it names a directory. */
  ignores(path: string, isDir: boolean): boolean {
    const rel = toSlashes(path, this.#platform);
    if (!rel) return false;
    const parts = rel.split("/");
    if (parts.some((part) => (this.#ignoreCase ? part.toLowerCase() : part) === ".git")) return true;
    for (let i = 1; i < parts.length; i++) if (this.#dirIgnored(parts.slice(0, i).join("/"))) return true;
    return this.#decide(rel, isDir);
  }

  #dirIgnored(dir: string): boolean {
    let v = this.#dirCache.get(dir);
    if (v === undefined) {
      v = this.#decide(dir, true);
      this.#dirCache.set(dir, v);
    }
    return v;
  }

  #decide(rel: string, isDir: boolean): boolean {
    let ignored = false;
    const check = (level: Level) => {
      const sub = level.base ? rel.slice(level.base.length + 1) : rel;
      for (const r of level.rules) if ((!r.dirOnly || isDir) && r.re.test(sub)) ignored = !r.negate;
    };
    check(this.#extra);
    const parts = rel.split("/");
    for (let i = 0; i < parts.length; i++) {
      const base = parts.slice(0, i).join("/");
      check({ base, rules: this.#rulesOf(base) });
    }
    return ignored;
  }

  #rulesOf(base: string): Rule[] {
    let rules = this.#levels.get(base);
    if (!rules) {
      const text = this.#read(base ? `${base}/.gitignore` : ".gitignore");
      rules = text ? parseRules(text, this.#ignoreCase) : [];
      this.#levels.set(base, rules);
    }
    return rules;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
