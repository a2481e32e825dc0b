/**
 * Where a run's protocol traffic goes when it ends (`run`, and the thread hosts' runs: `run --detach`, the window's
 * own): to the run's protocol log file (`--protocol-log FILE`), else, for a run that failed, to a new file in the
 * data home's protocol logs (named to `say`). Secrets are redacted on the way out. `writeProtocolLog` writes it
 * synchronously (a CLI process); `writeProtocolLogAsync` with every file call off the thread (the extension host's
 * window must not wait on the disk). Both write it whole or not at all (mode 0600, parents made).
 */
import { join } from "node:path";
import type { ProtocolLog } from "../acp/protocol-log";
import { errorMessage } from "../errors";
import { redactSecrets } from "../redact";
import { writeFileAtomic, writeFileAtomicAsync } from "./atomic-write";

export interface ProtocolLogTarget {
  /** `--protocol-log FILE`. */
  file?: string;
  failed: boolean;
  agentId: string;
  protocolLogsDir: string;
  /** Told where a failed run's log went, or why it could not be written (one line). */
  say(line: string): void;
}

/** The file the traffic goes to (undefined: none, the run asked for none and did not fail). */
function logFileOf(t: ProtocolLogTarget): string | undefined {
  if (t.file) return t.file;
  return t.failed
    ? join(t.protocolLogsDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${t.agentId}.log`)
    : undefined;
}

/** Writes it with `write` (whole or not at all), saying where a failed run's log went or why it was not written. */
function writeWith<R>(traffic: ProtocolLog, t: ProtocolLogTarget, write: (file: string, text: string) => R): R | void {
  const file = logFileOf(t);
  if (!file) return;
  const wrote = () => !t.file && t.say(`protocol log written to ${file}`);
  const failed = (err: unknown) => t.say(`could not write the protocol log: ${errorMessage(err)}`);
  try {
    const r = write(file, traffic.text(redactSecrets));
    if (r instanceof Promise) return r.then(wrote, failed) as R;
    wrote();
    return r;
  } catch (err) {
    failed(err);
  }
}

export function writeProtocolLog(traffic: ProtocolLog, t: ProtocolLogTarget): void {
  writeWith(traffic, t, (file, text) => writeFileAtomic(file, text));
}

export async function writeProtocolLogAsync(traffic: ProtocolLog, t: ProtocolLogTarget): Promise<void> {
  await writeWith(traffic, t, (file, text) => writeFileAtomicAsync(file, text));
}
