/** Workspace-relative display of paths that agents send absolute (titles, locations, diffs). */

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/[\\/]+$/, "") : p);

/** `path` relative to `cwd` when it lies under it, else unchanged. */
export function relPath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const root = trimSlash(cwd);
  if (path === root) return ".";
  for (const sep of ["/", "\\"]) if (path.startsWith(root + sep)) return path.slice(root.length + 1);
  return path;
}

/** Every occurrence of `cwd/` inside free text (a tool title such as "Edit /ws/a.ts") made relative. */
export function relativizeText(text: string, cwd: string | undefined): string {
  if (!cwd || cwd.length < 2) return text;
  const root = trimSlash(cwd);
  return text
    .split(root + "/")
    .join("")
    .split(root + "\\")
    .join("");
}

export const baseName = (p: string) => p.split(/[\\/]/).pop() || p;
