/**
 * Remembers which transcript roots and single files were imported (a small JSON file next to the index), so a
 * missing, corrupt or old-schema index can be rebuilt from its sources without the user repeating the commands.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { SourceName } from "./model";

export interface RootSpec {
  root: string;
  sinceDays?: number;
  allHistory?: boolean;
  limitFiles?: number;
}

export interface SourcesFile {
  codex?: RootSpec;
  claude?: RootSpec;
  files: { path: string; source: SourceName; cwd?: string; sessionId?: string }[];
}

export function readSources(path: string): SourcesFile {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<SourcesFile>;
    return { codex: parsed.codex, claude: parsed.claude, files: Array.isArray(parsed.files) ? parsed.files : [] };
  } catch {
    return { files: [] };
  }
}

/** tmp → fsync → rename, mode 0600. */
export function writeSources(path: string, value: SourcesFile): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
