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

/** Layout under the home folder. */
export function homeLayout(home: string) {
  return {
    home,
    threadsDir: join(home, "threads"),
    trashDir: join(home, "trash"),
    threadIndexDb: join(home, "index", "threads.sqlite"),
    recallDb: join(home, "index", "recall.sqlite"),
    usageDb: join(home, "index", "usage.sqlite"),
    execDir: join(home, "exec"),
    permissionsFile: join(home, "permissions.json"),
    /** Settings the editor and the CLI share (see home-settings.ts). */
    settingsFile: join(home, "settings.json"),
    auditLog: join(home, "audit.jsonl"),
    protocolLogsDir: join(home, "protocol-logs"),
    /** Per-thread protocol traffic (redacted), the raw material of bug bundles. */
    trafficDir: join(home, "traffic"),
  };
}
export type HomeLayout = ReturnType<typeof homeLayout>;

/** Files that belong to a thread but not in its JSONL (images attached to prompts): beside the thread file. */
export function assetsDir(threadsDir: string, threadId: string): string {
  return join(threadsDir, `${threadId}.assets`);
}
