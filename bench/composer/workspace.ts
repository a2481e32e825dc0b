/** A synthetic source tree of N files (deterministic names and depths) for the `@` completion bench. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const WORDS = [
  "src",
  "lib",
  "core",
  "utils",
  "components",
  "views",
  "thread",
  "panel",
  "model",
  "store",
  "index",
  "render",
  "helpers",
  "api",
  "server",
  "client",
  "session",
  "prompt",
  "editor",
  "parser",
  "config",
  "tests",
];
const EXT = [".ts", ".tsx", ".js", ".json", ".md", ".css", ".py", ".rs"];

/** Workspace-relative paths of `n` files. */
export function syntheticPaths(n: number): string[] {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const depth = 1 + Math.floor(rand() * 5);
    const dirs = Array.from({ length: depth }, () => WORDS[Math.floor(rand() * WORDS.length)]);
    const name = `${WORDS[Math.floor(rand() * WORDS.length)]}-${WORDS[Math.floor(rand() * WORDS.length)]}${i}`;
    out.push(`${dirs.join("/")}/${name}${EXT[i % EXT.length]}`);
  }
  return out;
}

/** Writes the files (empty) under `root`. */
export function writeWorkspace(root: string, paths: readonly string[]): void {
  const made = new Set<string>();
  for (const p of paths) {
    const file = join(root, p);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, "");
  }
}

/** What a user types after `@`: growing prefixes of a few file names and paths. */
export const TYPED = [
  "t",
  "th",
  "thr",
  "thre",
  "threa",
  "thread",
  "p",
  "pa",
  "pan",
  "pane",
  "panel-",
  "sr",
  "src/",
  "src/co",
  "promptedit",
  "xyzq",
];
