/**
 * Records the synchronous file calls the extension's bundle (dist/extension.js) makes on the extension host's thread
 * (#35: the window's thread never waits on disk). `fs.*Sync` are wrapped on the `node:fs` module object the bundle
 * shares with this suite (esbuild's output reads `fs.existsSync` at each call); a call is kept when a frame of its
 * stack is in the bundle, and named by the bundle's source map: its innermost frame's source file and line (`own`:
 * that frame is the window's own code, src/vscode/**) and the chain of our frames above it. Worker threads and child
 * processes have their own `fs`: they are not traced (they do not hold the window's thread).
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join } from "node:path";

export interface DiskCall {
  fn: string;
  /** The innermost frame in the bundle, mapped: `src/vscode/hub.ts:134`. */
  at: string;
  /** That frame is src/vscode/** (the window's own call), not an engine module the window called. */
  own: boolean;
  /** Our frames from the innermost out, mapped (a few). */
  chain: string[];
}

const BUNDLE = /[\\/]dist[\\/]extension\.js:(\d+):(\d+)/;

/** Starts recording; `stop()` restores `fs` and returns the calls. */
export function traceDiskCalls(extensionPath: string): { stop(): DiskCall[] } {
  const file = join(extensionPath, "dist", "extension.js.map");
  const map = new SourceMap(JSON.parse(readFileSync(file, "utf8")));
  const where = (line: number, col: number) => {
    const e = map.findEntry(line - 1, col - 1) as { originalSource?: string; originalLine?: number };
    if (!e.originalSource) return `dist/extension.js:${line}`;
    return `${e.originalSource.replace(/^.*?(src[\\/])/, "$1")}:${(e.originalLine ?? 0) + 1}`;
  };
  const calls: DiskCall[] = [];
  const saved = new Map<string, unknown>();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  // the module object itself (an `import * as` of it is a copy of getters here): the one the bundle reads
  const target = require("node:fs") as Record<string, unknown>;
  for (const name of Object.keys(target)) {
    const orig = target[name];
    if (!name.endsWith("Sync") || typeof orig !== "function") continue;
    saved.set(name, orig);
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const chain = (new Error().stack ?? "")
        .split("\n")
        .map((l) => BUNDLE.exec(l))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => where(Number(m[1]), Number(m[2])));
      if (chain.length) calls.push({ fn: name, at: chain[0]!, own: /^src[\\/]vscode[\\/]/.test(chain[0]!), chain });
      return (orig as (...a: unknown[]) => unknown).apply(this, args);
    };
    try {
      target[name] = wrapped;
    } catch {
      saved.delete(name); // a read-only property: not traced (none on Node 18–22)
    }
  }
  return {
    stop() {
      for (const [name, orig] of saved) target[name] = orig;
      Error.stackTraceLimit = limit;
      return calls;
    },
  };
}

/** One line per distinct call site, with how often it ran: `existsSync src/vscode/x.ts:3 ×2 (← a.ts:1 ← b.ts:2)`. */
export function describeDiskCalls(calls: DiskCall[]): string {
  const seen = new Map<string, number>();
  for (const c of calls) {
    const key = `${c.fn} ${c.at} (← ${c.chain.slice(1, 4).join(" ← ")})`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].map(([k, n]) => `${k.replace(" (", ` ×${n} (`)}`).join("\n");
}
