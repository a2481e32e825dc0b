/**
 * The one way hosts open exec mode on a data home: the registry on `<home>/exec` with every run recorded as a
 * thread in the same home (unless `recordThreads: false`). The CLI and the extension both call this, so a run
 * looks the same whichever started it, and both keep finished runs as long as the home's settings say.
 */
import { errorMessage } from "../errors";
import { gitInfo } from "../store/git-info";
import { readHomeSettings } from "../store/home-settings";
import { homeLayout } from "../store/paths";
import { ThreadStore } from "../store/thread-store";
import { ExecThreadRecorder } from "./exec-thread";
import { ExecRegistry, type ExecRegistryOptions } from "./registry";
import { DEFAULT_RUN_TTL_MS, type ExecRecorder } from "./types";

/** How long finished runs on this home are kept: `execTtlMinutes` of `<home>/settings.json`, else 60 min. */
export function execTtlMs(home: string): number {
  const minutes = readHomeSettings(home).execTtlMinutes;
  return minutes ? minutes * 60_000 : DEFAULT_RUN_TTL_MS;
}

export interface OpenExecOptions extends Omit<ExecRegistryOptions, "execDir" | "recorder"> {
  /** Record each run started here as a thread (default true). Readers (`ps`, `logs`, `kill`) pass false. */
  recordThreads?: boolean;
  /** Wraps the thread recorder (the edit ledger's `LedgerExecRecorder`; await `registry.prepare(cwd)` before `start`). */
  wrapRecorder?: (threads: ExecRecorder) => ExecRecorder;
}

export function openExecRegistry(home: string, options: OpenExecOptions = {}): ExecRegistry {
  const { recordThreads = true, wrapRecorder, ...rest } = options;
  const logger = rest.logger;
  const threads = recordThreads
    ? new ExecThreadRecorder(new ThreadStore(home, { logger }), {
        describeRepo: gitInfo,
        onError: (err) => logger?.warn(`exec: could not record the run as a thread: ${errorMessage(err)}`),
      })
    : undefined;
  const recorder = threads && wrapRecorder ? wrapRecorder(threads) : threads;
  const ttlMs = rest.ttlMs ?? (() => execTtlMs(home)); // read at each sweep: the editor may change it meanwhile
  return new ExecRegistry({ ...rest, ttlMs, execDir: homeLayout(home).execDir, recorder });
}
