/**
 * Evidence text as a person reads it. Tool messages in the index often carry the tool's raw JSON input
 * (`{"call_id":…,"command":["/bin/bash","-lc","echo hi"],…}`); the view shows what the tool did instead
 * (`$ echo hi`, a path, a pattern) and drops ids, timestamps and flags. Plain text passes through unchanged.
 */
import { commandLine } from "../../core/model/command-output";

type Obj = Record<string, unknown>;

const KEYS: [string[], (v: unknown) => string | undefined][] = [
  [["path", "file_path", "filePath", "file", "notebook_path"], (v) => (typeof v === "string" ? v : undefined)],
  [["pattern", "query", "q", "glob", "regex"], (v) => (typeof v === "string" ? `“${v}”` : undefined)],
  [["url", "uri"], (v) => (typeof v === "string" ? v : undefined)],
  [["description", "prompt", "title"], (v) => (typeof v === "string" ? v : undefined)],
];

/** One line for a tool's JSON input, or undefined when nothing in it reads as text. */
export function summarizeToolJson(o: Obj): string | undefined {
  const parts: string[] = [];
  const cmd = commandLine(o);
  if (cmd) parts.push(`$ ${cmd}`);
  for (const [names, fmt] of KEYS) {
    const name = names.find((n) => o[n] !== undefined);
    const v = name ? fmt(o[name]) : undefined;
    if (v && !parts.includes(v)) parts.push(v);
  }
  if (!parts.length) {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v !== "string" || !v.trim() || /(^|_)(id|ms|at)$|^source$|^status$/i.test(k)) continue;
      parts.push(`${k}: ${v.length > 120 ? `${v.slice(0, 120)}…` : v}`);
      if (parts.length === 3) break;
    }
  }
  return parts.length ? parts.join(" · ") : undefined;
}

/** End index (exclusive) of the balanced JSON object starting at `start`, or -1 when it is cut off. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

/** Fields readable from a JSON object cut off by the index's length budget. */
function salvage(cut: string): string | undefined {
  const o: Obj = {};
  for (const m of cut.matchAll(/"(\w+)":\s*("(?:[^"\\]|\\.)*"|\[(?:\s*"(?:[^"\\]|\\.)*"\s*,?)*\])/g)) {
    try {
      o[m[1]] = JSON.parse(m[2]);
    } catch {
      /* half a value */
    }
  }
  return summarizeToolJson(o);
}

export function readableEvidence(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const start = text.indexOf('{"', at);
    if (start < 0) return out + text.slice(at);
    out += text.slice(at, start);
    const end = objectEnd(text, start);
    if (end < 0) {
      const s = salvage(text.slice(start));
      return out + (s ? `${s} …` : text.slice(start));
    }
    let piece = text.slice(start, end);
    try {
      const v: unknown = JSON.parse(piece);
      if (v && typeof v === "object" && !Array.isArray(v)) piece = summarizeToolJson(v as Obj) ?? "";
    } catch {
      /* not JSON after all: keep the text */
    }
    out += piece;
    at = end;
  }
}
