/**
 * Where a run's protocol traffic goes when it ends (`run`, and `run --detach` in the host): to `--protocol-log
 * FILE`, else, for a run that failed, to a new file in the data home's protocol logs (named on stderr). Secrets
 * are redacted on the way out.
 */
import { join } from "node:path";
import type { ProtocolLog } from "../core/acp/protocol-log";
import { errorMessage } from "../core/errors";
import { redactSecrets } from "../core/redact";
import { writeFileAtomic } from "../core/store/atomic-write";

export interface ProtocolLogTarget {
  /** `--protocol-log FILE`. */
  file?: string;
  failed: boolean;
  agentId: string;
  protocolLogsDir: string;
  stderr: NodeJS.WritableStream;
}

export function writeProtocolLog(traffic: ProtocolLog, t: ProtocolLogTarget): void {
  const logFile =
    t.file ??
    (t.failed
      ? join(t.protocolLogsDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${t.agentId}.log`)
      : undefined);
  if (!logFile) return;
  try {
    // whole or not at all (mode 0600, parents made): a reader never sees it empty or half written
    writeFileAtomic(logFile, traffic.text(redactSecrets));
    if (!t.file) t.stderr.write(`acp-threads run: protocol log written to ${logFile}\n`);
  } catch (err) {
    t.stderr.write(`acp-threads run: could not write the protocol log: ${errorMessage(err)}\n`);
  }
}
