/**
 * Where ACP Threads keeps its data. One home shared by the extension and the CLI:
 *   1. `ACP_THREADS_HOME` (the extension exports it to its integrated terminals),
 *   2. else the extension's global-storage folder of VS Code / code-server when present,
 *   3. else `~/.acp-threads`.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const EXTENSION_ID = "acp-threads.acp-threads";

/** Global-storage folders of the editors we know, newest convention first. */
function editorGlobalStorageCandidates(home: string): string[] {
  const roots = [
    join(home, ".local/share/code-server/User/globalStorage"),
    join(home, ".config/Code/User/globalStorage"),
    join(home, ".config/Code - Insiders/User/globalStorage"),
    join(home, ".config/VSCodium/User/globalStorage"),
    join(home, "Library/Application Support/Code/User/globalStorage"),
  ];
  return roots.map((r) => join(r, EXTENSION_ID));
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ACP_THREADS_HOME) return env.ACP_THREADS_HOME;
  const home = env.HOME ?? homedir();
  for (const candidate of editorGlobalStorageCandidates(home)) if (existsSync(candidate)) return candidate;
  return join(home, ".acp-threads");
}

/** The layout under the home folder: one module names it (platform/data-home.ts). */
export { homeLayout, type HomeLayout } from "../platform/data-home";

/** Files that belong to a thread but not in its JSONL (images attached to prompts): beside the thread file. */
export function assetsDir(threadsDir: string, threadId: string): string {
  return join(threadsDir, `${threadId}.assets`);
}
