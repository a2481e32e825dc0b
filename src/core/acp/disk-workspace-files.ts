/** `WorkspaceFiles` backed by the disk (the CLI's default). Writes are atomic: tmp → fsync → rename. */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { WorkspaceFiles } from "../ports";
import { readLineRange, type LineRange } from "./line-reader";

export async function atomicWriteFile(path: string, content: string | Uint8Array, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // Keep an existing file's mode; new files get `mode` (default 0644 for workspace files).
  const keepMode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => mode ?? 0o644,
  );
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString("hex")}.tmp`);
  const fh = await open(tmp, "w", keepMode);
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

export class DiskWorkspaceFiles implements WorkspaceFiles {
  async readText(absPath: string): Promise<string | undefined> {
    try {
      return await readFile(absPath, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async readLines(absPath: string, range: LineRange): Promise<string | undefined> {
    return (await readLineRange(absPath, range))?.text;
  }

  async writeText(absPath: string, content: string, _lastReadText: string | undefined): Promise<void> {
    await atomicWriteFile(absPath, content);
  }
}
