/**
 * "blocked by the sandbox: write /x" from what a sandboxed agent's tools printed. Linux's bubblewrap reports no
 * violations: a refused write is only an EROFS the program prints (`sh: cannot create /x: Read-only file system`,
 * node's `EROFS: read-only file system, open '/x'`). A path named so, outside the writable paths, is a write the
 * sandbox refused; a refused read of a hidden secret looks like a missing file and cannot be told apart. A host
 * the egress proxy refused is reported by the proxy itself (`EgressProxy.onBlocked`), noted in the same words
 * (labels.ts's `sandboxBlockedNote`).
 */
import { isInside } from "../platform/paths";

const SHELL = /(\/[^\s'"`:]+)['"`]?:\s*Read-only file system/gi;
const NODE = /EROFS: read-only file system, \w+ '(\/[^']+)'/gi;

/** The paths `text` says could not be written because the file system is read-only, outside `writable`. */
export function sandboxBlockedWrites(text: string, writable: readonly string[]): string[] {
  const found = new Set<string>();
  for (const re of [SHELL, NODE]) for (const m of text.matchAll(re)) found.add(m[1]!);
  return [...found].filter((path) => !writable.some((root) => isInside(root, path)));
}
