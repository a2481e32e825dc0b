/**
 * Where exports go when no folder is named (#37): the user's Downloads folder when there is one, else their home
 * folder; never the repository, where an export was an untracked file (`.acp-threads/saved_session_….json`, a
 * Markdown file at the root). The editor's save dialogs start there; the CLI's `threads export` writes there and
 * `threads import` lists it.
 */
import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** The user's home folder as the environment names it (HOME, USERPROFILE on Windows), else the OS's answer. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

const pick = (home: string, hasDownloads: boolean) => (hasDownloads ? join(home, "Downloads") : home);

/** The default export folder, without a synchronous file call (the extension host). */
export async function defaultExportDir(home = userHome()): Promise<string> {
  const isDir = await stat(join(home, "Downloads")).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return pick(home, isDir);
}

/** The default export folder for the CLI (a synchronous stat). */
export function defaultExportDirSync(home = userHome()): string {
  let isDir = false;
  try {
    isDir = statSync(join(home, "Downloads")).isDirectory();
  } catch {
    // no Downloads folder: the home folder
  }
  return pick(home, isDir);
}
