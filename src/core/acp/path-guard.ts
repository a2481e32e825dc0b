/**
 * Keeps agent file access inside the workspace roots.
 *
 * A path is allowed when, after normalization (`..` resolved) and after resolving symlinks on its nearest
 * existing ancestor, it lies inside the real path of one of the roots. So `/ws/../etc/passwd`, `/etc/passwd`
 * and `/ws/link-to-etc/passwd` are all refused, while a file that does not exist yet under a root is allowed.
 * Containment is platform-aware (platform/paths.ts): drive letters and UNC shares on Windows, and case is
 * ignored where the root's file system ignores it (Windows; macOS by default, probed per root).
 */
import { realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { AcpThreadsError } from "../errors";
import { caseInsensitiveDefault, isInside, probeCaseInsensitive } from "../platform/paths";

export { isInside };

/** Real path of `path`, resolving symlinks on its nearest existing ancestor (the rest may not exist yet). */
export async function realpathOfNearest(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (err) {
      const parent = dirname(current);
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw err;
      rest.push(current.slice(parent.length).replace(/^[\\/]+/, ""));
      current = parent;
    }
  }
}

export class PathGuard {
  readonly #roots: string[];
  #realRoots: Promise<{ root: string; caseInsensitive: boolean }[]> | undefined;

  constructor(roots: string[]) {
    this.#roots = roots.map((r) => resolve(r));
  }

  get roots(): readonly string[] {
    return this.#roots;
  }

  /** Returns the absolute, symlink-resolved path, or throws `path_outside_workspace`. */
  async check(path: string): Promise<string> {
    if (typeof path !== "string" || !isAbsolute(path)) {
      throw new AcpThreadsError("path_outside_workspace", `path must be absolute: ${String(path)}`);
    }
    const normalized = resolve(path);
    const real = await realpathOfNearest(normalized);
    this.#realRoots ??= Promise.all(
      this.#roots.map(async (r) => {
        const root = await realpathOfNearest(r);
        return { root, caseInsensitive: (await probeCaseInsensitive(root)) ?? caseInsensitiveDefault() };
      }),
    );
    const roots = await this.#realRoots;
    if (!roots.some(({ root, caseInsensitive }) => isInside(root, real, { caseInsensitive }))) {
      const why = real === normalized ? "" : ` (resolves to ${real})`;
      throw new AcpThreadsError(
        "path_outside_workspace",
        `refused: ${path}${why} is outside the workspace (${this.#roots.join(", ")})`,
        { path, resolved: real },
      );
    }
    return real;
  }
}
