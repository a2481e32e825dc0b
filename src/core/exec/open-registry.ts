/**
 * The one way hosts open exec mode on a data home: the registry on `<home>/exec` with every run recorded as a
 * thread in the same home (unless `recordThreads: false`). The CLI and the extension both call this, so a run
 * looks the same whichever started it.
 */
import { errorMessage } from "../errors";
import { gitInfo } from "../store/git-info";
import { homeLayout } from "../store/paths";
import { ThreadStore } from "../store/thread-store";
import { ExecThreadRecorder } from "./exec-thread";
import { ExecRegistry, type ExecRegistryOptions } from "./registry";
import type { ExecRecorder } from "./types";

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
  return new ExecRegistry({ ...rest, execDir: homeLayout(home).execDir, recorder });
}
