/**
 * The one layout of the data home (see store/paths.ts for where the home itself is): every folder and file that
 * ACP Threads keeps there is named here and nowhere else, so whatever measures, collects, clears or hides the
 * home (usage, "Clear data…", `acp-threads gc`, the sandbox's private list) sees all of it, a new folder included.
 * Worktrees are not in the data home: they live beside their repository (worktree/layout.ts).
 */
import { join } from "node:path";

/** The entries directly in the data home, by what they hold. */
export const DATA_HOME_ENTRIES = {
  /** `<id>.jsonl` per thread, `<id>.assets/` beside it. */
  threads: "threads",
  /** Deleted threads, restorable until `gc` purges them. */
  trash: "trash",
  /** The SQLite caches: threads, recall, usage. */
  index: "index",
  /** Exec runs: their state and output logs. */
  exec: "exec",
  /** The edit ledger: `<threadId>.jsonl`, `blobs/`, `manifests/`. */
  ledger: "ledger",
  /** Per-thread protocol traffic (redacted), the raw material of bug bundles. */
  traffic: "traffic",
  /** Protocol logs asked for with `--protocol-log`. */
  protocolLogs: "protocol-logs",
  /** Steering requests to a thread another process runs: `<threadId>/<id>.req.json` and its `.res.json`. */
  steer: "steer",
  /** The thread host: `<version>/` with its socket, locks and log. */
  host: "host",
  /** Agents installed from the ACP Registry and the registry's cached index. */
  agents: "agents",
  /** Managed Node runtimes. */
  runtimes: "runtimes",
  permissions: "permissions.json",
  /** Settings the editor and the CLI share (see store/home-settings.ts). */
  settings: "settings.json",
  /** The permission audit log (rotated to `audit.1.jsonl`). */
  audit: "audit.jsonl",
  /** The record of each Best of N (its prompt, candidates, checks, outcome), bounded: a reloaded window resumes it. */
  bestOf: "best-of.json",
} as const;

/**
 * What a sandboxed agent may read of the data home, which the sandbox hides whole (threads, their indexes, the
 * permissions, the Best of N record, the host's door, and any entry added later): the installed agents and the
 * managed runtimes they run on, read-only.
 */
export const DATA_HOME_SANDBOX_READABLE: readonly string[] = [DATA_HOME_ENTRIES.agents, DATA_HOME_ENTRIES.runtimes];

/** Every path under the data home `home`. */
export function homeLayout(home: string) {
  const at = (name: string) => join(home, name);
  const e = DATA_HOME_ENTRIES;
  const indexDir = at(e.index);
  const ledgerDir = at(e.ledger);
  return {
    home,
    threadsDir: at(e.threads),
    trashDir: at(e.trash),
    indexDir,
    threadIndexDb: join(indexDir, "threads.sqlite"),
    recallDb: join(indexDir, "recall.sqlite"),
    usageDb: join(indexDir, "usage.sqlite"),
    /** V8's compiled code of the CLI's bundles, Node 22.1+ (cli/compile-cache.ts). */
    compileCacheDir: join(indexDir, "compile-cache"),
    execDir: at(e.exec),
    ledgerDir,
    ledgerBlobsDir: join(ledgerDir, "blobs"),
    /** Folder baseline caches of the ledger. */
    ledgerManifestsDir: join(ledgerDir, "manifests"),
    trafficDir: at(e.traffic),
    protocolLogsDir: at(e.protocolLogs),
    steerDir: at(e.steer),
    hostDir: at(e.host),
    agentsDir: at(e.agents),
    runtimesDir: at(e.runtimes),
    permissionsFile: at(e.permissions),
    settingsFile: at(e.settings),
    auditLog: at(e.audit),
    bestOfFile: at(e.bestOf),
  };
}
export type HomeLayout = ReturnType<typeof homeLayout>;
