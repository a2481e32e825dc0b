/**
 * Where "Export snapshot" and "Export as Markdown" start their save dialog (#37): the user's Downloads folder
 * when there is one, else their home folder; never the repository, where an export was an untracked file
 * (`.acp-threads/saved_session_….json`, a Markdown file at the root).
 */
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

export async function defaultExportDir(home = homedir()): Promise<string> {
  const downloads = join(home, "Downloads");
  const isDir = await stat(downloads).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return isDir ? downloads : home;
}
